package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"

	"github.com/reasoning-go/reasoning"
)

// Bounds on a streamed answer: the longest SSE line the gateway reads (one
// chunk: a long tool call can make it large), and the highest choice index
// it keeps a parser for.
const (
	maxLineBytes = 64 << 20
	maxChoices   = 1 << 10
)

var errLineTooLong = errors.New("gateway: SSE line longer than 64 MiB")

// streamRewriter is the body of a streamed chat answer as the client gets
// it. It reads upstream's server-sent events a line at a time and returns
// each line as soon as it is rewritten: a "data:" line's chunk with its
// choices split, every other line as it came. It holds one line, the few
// lines of the current event before its data line, and what it has not yet
// returned; never the stream.
type streamRewriter struct {
	src     io.ReadCloser
	br      *bufio.Reader
	chunks  chunkRewriter
	line    []byte       // a line longer than br's buffer, being assembled
	pending []byte       // lines of the current event that came before its data line
	out     bytes.Buffer // rewritten bytes not yet returned by Read
	err     error        // returned by Read once out is empty
	open    string       // what ends the last event written, "" when it ended
}

func newStreamRewriter(src io.ReadCloser, ex *exchange) *streamRewriter {
	return &streamRewriter{src: src, br: bufio.NewReaderSize(src, 32<<10), chunks: chunkRewriter{ex: ex}}
}

// Read returns the rewritten stream. A call reads upstream only while it
// has nothing to return, and then only up to the end of one line.
func (s *streamRewriter) Read(p []byte) (int, error) {
	for s.out.Len() == 0 && s.err == nil {
		s.step()
	}
	if s.out.Len() > 0 {
		return s.out.Read(p)
	}
	return 0, s.err
}

func (s *streamRewriter) Close() error { return s.src.Close() }

// step reads and rewrites one line. At the end of the stream it finishes
// the choices still open, so that nothing a parser held back is lost when
// upstream stops without [DONE].
func (s *streamRewriter) step() {
	line, err := s.readLine()
	if len(line) > 0 {
		s.handle(line)
	}
	if err == io.EOF {
		var held bytes.Buffer
		s.chunks.finishAll(&held)
		if held.Len() > 0 && len(s.pending) == 0 {
			s.out.WriteString(s.open) // end the unterminated last event first
		}
		s.out.Write(held.Bytes())
		s.out.Write(s.pending)
		s.pending = s.pending[:0]
	}
	s.err = err
}

// readLine returns the next line with its end, or what is left at the end
// of the stream. The result is valid until the next call.
func (s *streamRewriter) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		frag, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(s.line)+len(frag) > maxLineBytes {
				return nil, errLineTooLong
			}
			s.line = append(s.line, frag...)
			continue
		}
		if len(s.line) == 0 {
			return frag, err
		}
		s.line = append(s.line, frag...)
		return s.line, err
	}
}

// handle rewrites one line into out. Lines such as "event:" or "id:" that
// open an event are held until its data line, so that a chunk the
// rewriter adds before that line goes before the whole event.
func (s *streamRewriter) handle(line []byte) {
	text := bytes.TrimRight(line, "\r\n")
	switch {
	case len(text) == 0:
		s.open = ""
	case len(text) == len(line):
		s.open = "\n\n"
	default:
		s.open = "\n"
	}
	switch {
	case len(text) == 0: // the end of an event
		s.out.Write(s.pending)
		s.pending = s.pending[:0]
		s.out.Write(line)
	case bytes.HasPrefix(text, []byte("data:")):
		data := bytes.TrimPrefix(text[len("data:"):], []byte(" "))
		rewritten := s.chunks.rewrite(&s.out, data)
		s.out.Write(s.pending)
		s.pending = s.pending[:0]
		if rewritten == nil {
			s.out.Write(line)
			return
		}
		s.out.WriteString("data: ")
		s.out.Write(rewritten)
		s.out.Write(line[len(text):]) // the line's own end
	default:
		s.pending = append(s.pending, line...)
	}
}

// chunkRewriter holds the state of one streamed answer: a parser per
// choice index, and the envelope (id, model, created, ...) of its chunks,
// for the chunks it adds. It rewrites a chunk in place: only the delta of
// a choice with text changes, every other byte is copied as it came.
type chunkRewriter struct {
	ex       *exchange
	choices  []choiceState // by choice index
	envelope []byte        // the first chunk's members but choices and usage, comma-separated
	buf      []byte        // the rewritten chunk; reused
	copied   int           // how much of the chunk being rewritten buf holds
}

// A choiceState is where one choice of a stream stands.
type choiceState struct {
	mode   choiceMode
	parser reasoning.Parser // set in choiceParsed
}

type choiceMode uint8

const (
	choiceNew      choiceMode = iota // no text yet
	choiceParsed                     // its content goes through the parser
	choiceUpstream                   // upstream fills a reasoning field itself: passed through
	choiceFinished                   // its finish_reason came: passed through
)

// rewrite takes one chunk, the payload of a data line, and returns it
// rewritten, or nil when it is to go out as it came ([DONE], a chunk that
// is not a JSON object or has no text for a parser). Chunks that must go
// before it (the text a finishing parser held back) are written to out
// first. The result is valid until the next call.
func (c *chunkRewriter) rewrite(out *bytes.Buffer, data []byte) []byte {
	if bytes.Equal(data, []byte("[DONE]")) {
		c.finishAll(out)
		return nil
	}
	// One pass checks the whole chunk and finds its choices array.
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil
	}
	choices, choicesEnd := -1, -1
	end, err := members(data, i, func(key []byte, _, start, end int) {
		if string(key) == "choices" && data[start] == '[' {
			choices, choicesEnd = start, end
		}
	})
	if err != nil || skipSpace(data, end) != len(data) || choices < 0 || choicesEnd-choices <= 2 {
		return nil
	}
	if c.envelope == nil {
		c.setEnvelope(data, i)
	}
	c.buf, c.copied = c.buf[:0], 0
	elements(data, choices, func(start, end int) {
		if data[start] == '{' {
			c.choice(out, data, start)
		}
	})
	if c.copied == 0 {
		return nil
	}
	c.buf = append(c.buf, data[c.copied:]...)
	return c.buf
}

// setEnvelope keeps the members of the chunk at data[i] that every chunk
// of the stream shares, for the chunks rewrite adds.
func (c *chunkRewriter) setEnvelope(data []byte, i int) {
	c.envelope = []byte{}
	members(data, i, func(key []byte, member, _, end int) {
		if k := string(key); k == "choices" || k == "usage" {
			return
		}
		if len(c.envelope) > 0 {
			c.envelope = append(c.envelope, ',')
		}
		c.envelope = append(c.envelope, data[member:end]...)
	})
}

// choice rewrites the choice object at data[at]: when it has text for its
// parser, buf gets the chunk up to its delta and the delta rewritten.
func (c *chunkRewriter) choice(out *bytes.Buffer, data []byte, at int) {
	index, delta, deltaEnd, finish := 0, -1, -1, false
	members(data, at, func(key []byte, _, start, end int) {
		switch string(key) {
		case "index":
			var ok bool
			if index, ok = smallInt(data[start:end]); !ok {
				index = -1
			}
		case "delta":
			if data[start] == '{' {
				delta, deltaEnd = start, end
			}
		case "finish_reason":
			finish = data[start] == '"'
		}
	})
	if index < 0 {
		return
	}
	if index >= len(c.choices) {
		c.choices = slices.Grow(c.choices, index+1-len(c.choices))[:index+1]
	}
	st := &c.choices[index]
	if st.mode == choiceUpstream || st.mode == choiceFinished {
		return
	}
	content, contentEnd, upstreamReasoning := -1, -1, false
	if delta >= 0 {
		members(data, delta, func(key []byte, _, start, end int) {
			switch string(key) {
			case "content":
				content, contentEnd = start, end
			case "reasoning", "reasoning_content": // as hasReasoning, in the same pass
				upstreamReasoning = upstreamReasoning || end-start > 2 && data[start] == '"'
			}
		})
	}
	var text string
	hasText := content >= 0 && data[content] == '"'
	if hasText {
		_, escaped, _ := stringEnd(data, content)
		text, hasText = unquote(data[content:contentEnd], escaped)
	}
	if st.mode == choiceNew {
		if upstreamReasoning {
			st.mode = choiceUpstream
			return
		}
		if text != "" {
			st.mode, st.parser = choiceParsed, c.ex.newParser()
		}
	}
	var m reasoning.Message
	changed := false
	if st.mode == choiceParsed && hasText {
		m = st.parser.ExtractStreaming(reasoning.Delta{Text: text})
		changed = true
	}
	if finish {
		if st.mode == choiceParsed {
			if held := st.parser.Finish(); !held.IsZero() {
				// This chunk's text goes first, with what was held, in a
				// chunk of its own before the one that finishes.
				c.writeChunk(out, index, reasoning.Message{
					Reasoning: m.Reasoning + held.Reasoning,
					Content:   m.Content + held.Content,
				})
				m = reasoning.Message{}
			}
		}
		st.mode, st.parser = choiceFinished, nil
	}
	if !changed {
		return
	}
	c.buf = append(c.buf, data[c.copied:delta]...)
	c.buf = appendText(c.buf, data, delta, m, c.ex.fields, false)
	c.copied = deltaEnd
}

// finishAll finishes every choice still open, at [DONE] or the end of the
// stream, writing a chunk for each that held text back, in index order.
func (c *chunkRewriter) finishAll(out *bytes.Buffer) {
	for i := range c.choices {
		st := &c.choices[i]
		if st.mode != choiceParsed {
			continue
		}
		if held := st.parser.Finish(); !held.IsZero() {
			c.writeChunk(out, i, held)
		}
		st.mode, st.parser = choiceFinished, nil
	}
}

// writeChunk writes an event carrying m as the delta of choice index, in
// the stream's envelope, with no finish_reason and no usage.
func (c *chunkRewriter) writeChunk(out *bytes.Buffer, index int, m reasoning.Message) {
	b := append([]byte("data: {"), c.envelope...)
	if len(c.envelope) > 0 {
		b = append(b, ',')
	}
	b = append(b, `"choices":[{"index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"delta":`...)
	b = appendText(b, nil, -1, m, c.ex.fields, false)
	b = append(b, `,"finish_reason":null}]}`...)
	out.Write(b)
	out.WriteString("\n\n")
}
