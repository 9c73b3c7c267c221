package reasoning

// A Segment is text of a response that belongs to neither its reasoning nor
// its content because another consumer owns it: in Harmony (gpt-oss), a
// message addressed to a recipient, which is a tool call for the tool
// parser.
type Segment struct {
	Index       int    // 0 for the response's first segment, 1 for the next, ...
	Channel     string // the message's channel, such as "commentary" or "analysis"
	Recipient   string // whom the message is addressed to, such as "functions.get_weather"
	ContentType string // the body's declared type, such as "json"; "" when none
	Text        string // the body, or the part of it produced since the last call
	Done        bool   // the message ended with this piece
}

// Segmenter is an optional interface of a Parser whose format has segments
// besides reasoning and content. A Parser that does not implement it puts
// every byte of a response in reasoning or content (minus its markers).
//
// Segment text is part of the response, so a Parser keeps what it produced
// until Segments takes it: a caller with no use for segments may ignore
// them, and their text (not more) stays with the Parser until it is
// dropped.
type Segmenter interface {
	// Segments returns, in order, the segment text that ExtractStreaming
	// and Finish have produced since the last call; pieces of one segment
	// share its Index, and the last piece of a finished one has Done set.
	Segments() []Segment
	// ExtractSegments returns the segments of a complete output, each
	// whole, as Extract returns its reasoning and content.
	ExtractSegments(output string) []Segment
}
