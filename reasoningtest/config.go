package reasoningtest

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Config tells the kit what a family is made of and what to check it on.
// Only Markers is needed for most families.
type Config struct {
	// Markers are every marker the family recognises in text, every
	// spelling. The kit builds outputs from them, makes each one token of a
	// toy vocabulary, and takes them out when it checks that nothing is
	// lost.
	Markers []string
	// Boundaries are turn markers at which the family's ID-level end check
	// stops ("<|im_end|>"). They are single tokens of a real vocabulary and
	// stay in the text.
	Boundaries []string
	// StripsSpace says the family drops some whitespace next to its
	// markers: nothing lost then allows for any whitespace.
	StripsSpace bool
	// ContentPrefix is text the family puts at the start of every
	// response's content.
	ContentPrefix string
	// DropsHeaders says the family drops header text besides its markers
	// (Harmony's roles and channel names): nothing lost is then not
	// checked, nothing invented still is.
	DropsHeaders bool
	// Tails are markers that the family drops together with the text
	// after them.
	Tails []Tail
	// MarkersAreText says the family matches its markers in text even when
	// deltas carry IDs, because no vocabulary has them as special tokens
	// (Hunyuan A13B's). The kit then checks that IDs change nothing, in
	// place of IDs beat text.
	MarkersAreText bool
	// ToolBlocks are the family's tool-call blocks, inside which no marker
	// but the block's closer counts.
	ToolBlocks []ToolBlock

	// Outputs are sample outputs, checked under every setting besides the
	// outputs the kit generates from Markers.
	Outputs []string
	// NoCorpus leaves out the generated outputs: only Outputs and Cases are
	// checked.
	NoCorpus bool
	// Cases are outputs with the split they must get, each under its own
	// setting.
	Cases []Case
	// Settings are the requests the outputs are checked under. Nil means
	// DefaultSettings of Markers and Boundaries.
	Settings []Setting
	// Tokenizer is a real model vocabulary, or nil. With one, outputs are
	// also streamed one real token per delta with its ID, per detokenized
	// token and three tokens per delta, and Extract with it must split as
	// text alone does.
	Tokenizer tokenizer.Tokenizer
	// OnlyTokenizer checks only what Tokenizer adds, for a caller whose
	// other tests run the rest.
	OnlyTokenizer bool
	// TextTokenizer is the tokenizer parsers get where the kit checks text
	// alone, for a family that cannot work without one. Nil for most.
	TextTokenizer tokenizer.Tokenizer
	// Adapt, if set, returns the tokenizer to build a parser with in place
	// of tok (nil included): for a family that needs tokenizer metadata,
	// attached with tokenizer.WithConfig.
	Adapt func(tok tokenizer.Tokenizer) tokenizer.Tokenizer
	// Seed seeds the generated outputs and the random chunkings; failures
	// print the seed of the chunking that failed.
	Seed uint64
}

// A Tail is a marker that a family drops together with the run of Chars
// bytes after it and one End byte closing the run (Cohere's citation
// closer "</co: 0:[1]>"). Its Marker is in Config.Markers too.
type Tail struct {
	Marker string
	Chars  string
	End    byte
}

// A Setting is one request's settings: the options New is given.
type Setting struct {
	Name string // how failures name it
	// Prompt is the generation prompt, given with reasoning.WithPrompt
	// with its IDs in the tokenizer at hand; "" gives none.
	Prompt  string
	Options []reasoning.Option
}

// A Case is an output and the split it must get.
type Case struct {
	Name    string // how failures name it; it seeds the random chunkings
	Setting Setting
	Output  string
	// Deltas are a chunking of Output of the caller's own (an upstream
	// test's), streamed besides the kit's.
	Deltas []string
	Want   reasoning.Message
	// StreamWant, if not nil, is what streaming gives instead of Want, for
	// a family that documents the difference.
	StreamWant *reasoning.Message
	// WantSegments, if not nil, are the segments a reasoning.Segmenter
	// gives for Output, pieces of one segment merged.
	WantSegments []reasoning.Segment
}

// DefaultSettings are the settings the kit checks a family under unless
// told otherwise: no options; thinking on, off and null (the
// chat_template_kwargs keys enable_thinking and thinking); forced reasoning
// on and off; reasoning as content when a response has none
// (WithNonEmptyContent); and a prompt that ends in each marker.
func DefaultSettings(markers []string) []Setting {
	sets := []Setting{
		{Name: "default"},
		{Name: "thinking on", Options: []reasoning.Option{reasoning.WithThinking(true)}},
		{Name: "thinking off", Options: []reasoning.Option{reasoning.WithThinking(false)}},
		{Name: "thinking null", Options: []reasoning.Option{reasoning.WithChatTemplateKwargs(map[string]any{"enable_thinking": nil})}},
		{Name: "forced reasoning", Options: []reasoning.Option{reasoning.WithForceReasoning(true)}},
		{Name: "forced content", Options: []reasoning.Option{reasoning.WithForceReasoning(false)}},
		{Name: "non-empty content", Options: []reasoning.Option{reasoning.WithNonEmptyContent(true)}},
	}
	for _, m := range markers {
		sets = append(sets, Setting{Name: "prompt ending in " + m, Prompt: "<|im_start|>assistant\n" + m + "\n"})
	}
	return sets
}
