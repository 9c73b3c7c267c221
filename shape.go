package reasoning

import "strings"

// shape applies the options every family shares, StreamReasoning and
// NonEmptyContent, around a family's parser, so that no family has to. It
// returns p itself when neither is asked for.
func shape(p Parser, cfg Config) Parser {
	if cfg.StreamReasoning && !cfg.NonEmptyContent {
		return p
	}
	// NonEmptyContent holds reasoning back as StreamReasoning(false) does:
	// only then can a response that brings no content give its reasoning
	// as content, as Extract does. Once content has come the swap cannot
	// apply, and reasoning streams again if StreamReasoning asks.
	s := &shaped{Parser: p, stream: cfg.StreamReasoning && !cfg.NonEmptyContent, nonEmpty: cfg.NonEmptyContent,
		streamAfterContent: cfg.StreamReasoning}
	if seg, ok := p.(Segmenter); ok {
		return &shapedSegmenter{s, seg}
	}
	return s
}

// shapedSegmenter is shaped for a parser that has segments: they pass
// through untouched.
type shapedSegmenter struct {
	*shaped
	seg Segmenter
}

func (s *shapedSegmenter) Segments() []Segment { return s.seg.Segments() }
func (s *shapedSegmenter) ExtractSegments(output string) []Segment {
	return s.seg.ExtractSegments(output)
}

// shaped holds reasoning back until content follows it or the stream ends
// (stream false), and turns a response without content into content
// (nonEmpty). The ID methods pass through.
type shaped struct {
	Parser
	stream     bool            // emit reasoning as it arrives
	nonEmpty   bool            // no content at the end: reasoning becomes content
	held       strings.Builder // reasoning not emitted yet (stream false)
	anyContent bool            // some content was emitted
	// streamAfterContent: reasoning streams once content has come
	// (NonEmptyContent with StreamReasoning).
	streamAfterContent bool
	finished           bool
}

// Unwrap returns the family's parser.
func (s *shaped) Unwrap() Parser { return s.Parser }

func (s *shaped) Extract(output string) Message {
	m := s.Parser.Extract(output)
	if s.nonEmpty && m.Content == "" {
		m.Reasoning, m.Content = "", m.Reasoning
	}
	return m
}

func (s *shaped) ExtractStreaming(d Delta) Message {
	if s.finished {
		return Message{}
	}
	m := s.Parser.ExtractStreaming(d)
	if m.Content != "" && !s.anyContent {
		s.anyContent = true
		if s.streamAfterContent && !s.stream { // what was held goes out with the first content
			if s.held.Len() > 0 {
				s.held.WriteString(m.Reasoning)
				m.Reasoning = s.held.String()
				s.held.Reset()
			}
			s.stream = true
			return m
		}
	}
	if s.stream {
		return m
	}
	s.held.WriteString(m.Reasoning)
	m.Reasoning = ""
	if m.Content != "" && s.held.Len() > 0 {
		m.Reasoning = s.held.String()
		s.held.Reset()
	}
	return m
}

func (s *shaped) Finish() Message {
	if s.finished {
		return Message{}
	}
	s.finished = true
	m := s.Parser.Finish()
	if m.Content != "" {
		s.anyContent = true
	}
	if !s.stream {
		s.held.WriteString(m.Reasoning)
		m.Reasoning = s.held.String()
		s.held.Reset()
	}
	if s.nonEmpty && !s.anyContent {
		m.Reasoning, m.Content = "", m.Reasoning
	}
	return m
}
