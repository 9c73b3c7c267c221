package rewrite

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/reasoning-go/reasoning"
)

// messagesEndpoint is Anthropic's Messages API (/v1/messages), as vLLM and
// llama.cpp serve it: a request's switch is thinking.type ("enabled",
// "disabled"; "adaptive" leaves the choice to the model) and its effort
// output_config.effort; earlier turns are in messages, an assistant's
// content an array of blocks; a response's content is an array of blocks,
// and a stream is message_start, then per block content_block_start,
// content_block_delta events and content_block_stop, then message_delta
// and message_stop.
//
// A text block whose text holds raw markers becomes a thinking block,
// {"type":"thinking","thinking":...,"signature":""}, before a text block
// (or several, alternating, for a family whose reasoning comes back after
// content). The signature is empty: only Anthropic can sign, and clients
// keep it as a string and send it back as they got it. A stream gets the
// events the API sends for such blocks (a start with empty thinking and
// signature, thinking_delta events, a stop), but no signature_delta.
// Every block index is renumbered so that blocks start in order with no
// gap, as clients require. The parser runs over the first text block; the
// response is split no further after its end. A response that already has
// a thinking or redacted_thinking block is left alone.
type messagesEndpoint struct{}

func (messagesEndpoint) readRequest(body []byte) (requestFields, bool) {
	req, f, ok := readRequestObject(body)
	var thinking struct {
		Type string `json:"type"`
	}
	json.Unmarshal(req["thinking"], &thinking)
	if thinking.Type == "enabled" || thinking.Type == "disabled" {
		f.thinking = thinking.Type
	}
	var output struct {
		Effort string `json:"effort"`
	}
	json.Unmarshal(req["output_config"], &output)
	f.effort = output.Effort
	return f, ok
}

func (messagesEndpoint) rewriteRequest(body []byte, f requestFields, p *plan) []byte {
	body = withKwargs(body, f, p)
	if p.cfg.history != HistoryKeep {
		body = rewriteMessagesHistory(body, p)
	}
	return body
}

func (messagesEndpoint) newResponse(p *plan) response { return &messagesResponse{p: p, up: -1} }

func (messagesEndpoint) errorBody(status int, message string) []byte {
	kind := "api_error"
	switch {
	case status == 413:
		kind = "request_too_large"
	case status >= 400 && status < 500:
		kind = "invalid_request_error"
	}
	return appendObject(nil, member{"type", []byte(`"error"`)},
		member{"error", appendObject(nil, member{"type", jsonString(kind)}, member{"message", jsonString(message)})})
}

// rewriteMessagesHistory applies the History policy to the thinking and
// redacted_thinking blocks of the request's assistant messages, copying
// every other byte as it came. Rendered, a thinking block's text goes,
// between the family's markers, ahead of the text of the text block that
// follows it, or into a text block of its own where none does; a
// redacted_thinking block, which has no text, is dropped.
func rewriteMessagesHistory(body []byte, p *plan) []byte {
	open, close := p.renderMarkers()
	return rewriteElements(body, "messages", func(start, end int) []byte {
		if body[start] != '{' {
			return nil
		}
		role, roleEnd := memberSpan(body, start, "role")
		content, _ := memberSpan(body, start, "content")
		if stringValue(body, role, roleEnd) != "assistant" || content < 0 || body[content] != '[' ||
			!hasBlock(body, content, "thinking", "redacted_thinking") {
			return nil
		}
		return appendReplaced(nil, body[:end], start, member{"content", appendHistoryBlocks(nil, body, content, open, close)})
	})
}

// skipValue returns where the value at data[at] ends, at itself when it
// cannot be read.
func skipValue(data []byte, at int) int {
	end, err := valueEnd(data, at)
	if err != nil {
		return at
	}
	return end
}

// blockType returns the type member of the object at data[at], "" for
// anything else.
func blockType(data []byte, at int) string {
	if data[at] != '{' {
		return ""
	}
	t, end := memberSpan(data, at, "type")
	return stringValue(data, t, end)
}

// hasBlock reports whether the array at data[at] holds a block of one of
// the types.
func hasBlock(data []byte, at int, types ...string) bool {
	found := false
	elements(data, at, func(start, _ int) {
		found = found || slices.Contains(types, blockType(data, start))
	})
	return found
}

// appendHistoryBlocks appends the content array at data[at] without its
// thinking blocks, their text rendered between open and close when close
// is not "".
func appendHistoryBlocks(dst, data []byte, at int, open, close string) []byte {
	dst = append(dst, '[')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	pending := "" // rendered thinking not yet written
	flush := func() {
		if pending != "" {
			sep()
			dst = appendObject(dst, member{"type", []byte(`"text"`)}, member{"text", jsonString(pending)})
			pending = ""
		}
	}
	elements(data, at, func(start, end int) {
		switch blockType(data, start) {
		case "thinking":
			t, tEnd := memberSpan(data, start, "thinking")
			if text := stringValue(data, t, tEnd); close != "" && text != "" {
				pending += open + text + close
			}
			return
		case "redacted_thinking":
			return
		case "text":
			if pending != "" {
				t, tEnd := memberSpan(data, start, "text")
				sep()
				dst = appendReplaced(dst, data[:end], start, member{"text", jsonString(pending + stringValue(data, t, tEnd))})
				pending = ""
				return
			}
		default:
			flush()
		}
		sep()
		dst = append(dst, data[start:end]...)
	})
	flush()
	return append(dst, ']')
}

// A segment is one block of ours that text of an upstream block is
// split into.
type segment uint8

const (
	segNone      segment = iota // no block is open
	segReasoning                // a thinking block, or a reasoning item
	segContent                  // a text block, or a message item
)

// messagesResponse rewrites one Messages response.
type messagesResponse struct {
	p      *plan
	state  splitState
	parser reasoning.Parser // set in splitting
	index  []int            // our index of each upstream block that passes through, by upstream index; -1 unset
	next   int              // our index of the next block we start
	up     int              // the upstream index of the text block being split, -1 before
	start  []byte           // its content_block_start event, copied
	cur    segment          // the kind of our block open for it
	curAt  int              // that block's index
	buf    []byte           // the rewritten input event; reused
}

// splitState is where a Messages or Responses response stands.
type splitState uint8

const (
	splitNew      splitState = iota // no text block or message item yet
	splitting                       // a text block or message item goes through the parser
	splitUpstream                   // upstream split it, or no parser does: events pass through
	splitFinished                   // the parser finished: later text passes through
)

// messagesEvent holds the members of a Messages event that the rewriter reads.
type messagesEvent struct {
	typ       string
	index     int // -1 when absent or not a small integer
	indexSpan [2]int
	blockType string // content_block.type
	delta     [2]int // the delta object's span
	deltaType string
	text      string // delta.text of a text_delta
}

func readMessagesEvent(data []byte) (ev messagesEvent, ok bool) {
	at := skipSpace(data, 0)
	if at >= len(data) || data[at] != '{' {
		return ev, false
	}
	ev.index, ev.delta = -1, [2]int{-1, -1}
	end, err := members(data, at, func(key []byte, _, start, end int) {
		switch string(key) {
		case "type":
			ev.typ = stringValue(data, start, end)
		case "index":
			if n, ok := smallInt(data[start:end]); ok {
				ev.index, ev.indexSpan = n, [2]int{start, end}
			}
		case "content_block":
			if data[start] == '{' {
				ev.blockType = blockType(data, start)
			}
		case "delta":
			if data[start] == '{' {
				ev.delta = [2]int{start, end}
			}
		}
	})
	if err != nil || skipSpace(data, end) != len(data) {
		return ev, false
	}
	if ev.delta[0] >= 0 {
		ev.deltaType = blockType(data, ev.delta[0])
		if ev.deltaType == "text_delta" {
			t, tEnd := memberSpan(data, ev.delta[0], "text")
			ev.text = stringValue(data, t, tEnd)
		}
	}
	return ev, true
}

func (m *messagesResponse) event(out *events, e Event) {
	ev, ok := readMessagesEvent(e.Data)
	if !ok {
		out.keep(e)
		return
	}
	split := m.state == splitting && ev.index == m.up && ev.index >= 0
	switch {
	case ev.typ == "content_block_start":
		m.blockStart(out, e, ev)
	case ev.typ == "content_block_delta" && split:
		if ev.deltaType != "text_delta" {
			m.toCurrent(out, e, ev) // a citation of the text, say
			return
		}
		m.emit(out, m.parser.ExtractStreaming(reasoning.Delta{Text: ev.text}), &e, ev)
	case ev.typ == "content_block_stop" && split:
		m.emit(out, m.parser.Finish(), nil, ev)
		m.state, m.parser = splitFinished, nil
		if m.cur == segNone {
			return // no text at all: upstream's block is dropped
		}
		m.cur = segNone
		m.buf = appendReplaced(m.buf[:0], e.Data, skipSpace(e.Data, 0), member{"index", jsonInt(m.curAt)})
		out.replace(Event{Name: e.Name, Data: m.buf})
	case ev.typ == "message_delta" || ev.typ == "message_stop":
		m.end(out)
		out.keep(e)
	default:
		m.passThrough(out, e, ev)
	}
}

// blockStart starts a block: a text block to split is held until its
// text says what it becomes; any other block passes through, renumbered.
func (m *messagesResponse) blockStart(out *events, e Event, ev messagesEvent) {
	if m.state == splitNew {
		switch ev.blockType {
		case "thinking", "redacted_thinking":
			m.state = splitUpstream
		case "text":
			if ev.index < 0 {
				break
			}
			if m.parser = m.p.newParser(); m.parser == nil {
				m.state = splitUpstream
				break
			}
			m.state, m.up = splitting, ev.index
			m.start = append(m.start[:0], e.Data...)
			return
		}
	}
	if ev.index >= 0 && ev.index < maxChoices {
		if ev.index >= len(m.index) {
			for len(m.index) <= ev.index {
				m.index = append(m.index, -1)
			}
		}
		m.index[ev.index] = m.next
		m.next++
	}
	m.passThrough(out, e, ev)
}

// passThrough sends e with its index renumbered.
func (m *messagesResponse) passThrough(out *events, e Event, ev messagesEvent) {
	if ev.index < 0 || ev.index >= len(m.index) || m.index[ev.index] < 0 || m.index[ev.index] == ev.index {
		out.keep(e)
		return
	}
	m.buf = append(m.buf[:0], e.Data[:ev.indexSpan[0]]...)
	m.buf = strconv.AppendInt(m.buf, int64(m.index[ev.index]), 10)
	m.buf = append(m.buf, e.Data[ev.indexSpan[1]:]...)
	out.replace(Event{Name: e.Name, Data: m.buf})
}

// toCurrent sends an event of the block being split that is not its text
// to our text block, opening one if needed.
func (m *messagesResponse) toCurrent(out *events, e Event, ev messagesEvent) {
	if m.cur != segContent {
		m.open(out, segContent)
	}
	m.buf = append(m.buf[:0], e.Data[:ev.indexSpan[0]]...)
	m.buf = strconv.AppendInt(m.buf, int64(m.curAt), 10)
	m.buf = append(m.buf, e.Data[ev.indexSpan[1]:]...)
	out.replace(Event{Name: e.Name, Data: m.buf})
}

// emit sends the text m into our blocks, reasoning first: a block of the
// kind is opened where the current one differs. self is the input event,
// a text delta, that the last piece replaces (nil: every event is added).
func (m *messagesResponse) emit(out *events, msg reasoning.Message, self *Event, ev messagesEvent) {
	pieces, last := textPieces(msg)
	for _, piece := range pieces {
		if piece.text == "" {
			continue
		}
		if m.cur != piece.kind {
			m.open(out, piece.kind)
		}
		delta := appendObject(nil, member{"type", jsonString(deltaTypes[piece.kind])}, member{textKeys[piece.kind], jsonString(piece.text)})
		if piece.kind == last && self != nil {
			at := skipSpace(self.Data, 0)
			m.buf = appendReplaced(m.buf[:0], self.Data, at, member{"index", jsonInt(m.curAt)}, member{"delta", delta})
			out.replace(Event{Name: self.Name, Data: m.buf})
			continue
		}
		out.add(named("content_block_delta", appendObject(nil, member{"type", []byte(`"content_block_delta"`)},
			member{"index", jsonInt(m.curAt)}, member{"delta", delta})))
	}
}

// A piece is text for a block or item of one kind.
type piece struct {
	kind segment
	text string
}

// textPieces returns the text of msg in the order it goes out, reasoning
// first, and the kind of the last piece that has text.
func textPieces(msg reasoning.Message) (pieces [2]piece, last segment) {
	pieces = [2]piece{{segReasoning, msg.Reasoning}, {segContent, msg.Content}}
	for _, p := range pieces {
		if p.text != "" {
			last = p.kind
		}
	}
	return pieces, last
}

var (
	deltaTypes = [...]string{segReasoning: "thinking_delta", segContent: "text_delta"}
	textKeys   = [...]string{segReasoning: "thinking", segContent: "text"}
)

// open closes our current block, if any, and starts the next of kind: a
// thinking block as the API starts one, a text block as upstream started
// its own.
func (m *messagesResponse) open(out *events, kind segment) {
	if m.cur != segNone {
		out.add(named("content_block_stop", appendObject(nil, member{"type", []byte(`"content_block_stop"`)}, member{"index", jsonInt(m.curAt)})))
	}
	m.cur, m.curAt = kind, m.next
	m.next++
	index := member{"index", jsonInt(m.curAt)}
	if kind == segContent && len(m.start) > 0 {
		out.add(named("content_block_start", appendReplaced(nil, m.start, skipSpace(m.start, 0), index)))
		return
	}
	block := `{"type":"thinking","thinking":"","signature":""}`
	if kind == segContent {
		block = `{"type":"text","text":""}`
	}
	out.add(named("content_block_start", appendObject(nil, member{"type", []byte(`"content_block_start"`)}, index, member{"content_block", []byte(block)})))
}

// end sends what the parser holds, into the open block, when the text
// block being split never stopped: the block is left open, as upstream
// left its own.
func (m *messagesResponse) end(out *events) {
	if m.state != splitting {
		return
	}
	m.emit(out, m.parser.Finish(), nil, messagesEvent{})
	m.state, m.parser = splitFinished, nil
}

// body splits the first text block of a whole Messages response into a
// thinking block and a text block, copying every other byte as it came.
func (m *messagesResponse) body(body []byte) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	end, err := valueEnd(body, at)
	content, _ := memberSpan(body, at, "content")
	if err != nil || skipSpace(body, end) != len(body) || content < 0 || body[content] != '[' ||
		hasBlock(body, content, "thinking", "redacted_thinking") {
		return body
	}
	first, firstEnd := -1, -1
	elements(body, content, func(start, end int) {
		if first < 0 && blockType(body, start) == "text" {
			first, firstEnd = start, end
		}
	})
	if first < 0 {
		return body
	}
	t, tEnd := memberSpan(body, first, "text")
	text := stringValue(body, t, tEnd)
	parser := m.p.newParser()
	if parser == nil || text == "" {
		return body
	}
	msg := parser.Extract(text)
	if msg.Reasoning == "" && msg.Content == text {
		return body
	}
	out := append([]byte(nil), body[:first]...)
	if msg.Reasoning != "" {
		out = appendObject(out, member{"type", []byte(`"thinking"`)}, member{"thinking", jsonString(msg.Reasoning)}, member{"signature", []byte(`""`)})
		if msg.Content == "" {
			return append(out, body[firstEnd:]...) // the text block is gone
		}
		out = append(out, ',')
	}
	out = appendReplaced(out, body[:firstEnd], first, member{"text", jsonString(msg.Content)})
	return append(out, body[firstEnd:]...)
}

// named is an event of ours: the API names each event by its type, and
// some clients (Anthropic's TypeScript SDK) read only named events.
func named(name string, data []byte) Event { return Event{Name: []byte(name), Data: data} }
