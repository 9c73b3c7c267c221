package rewrite

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"

	"github.com/reasoning-go/reasoning"
)

// maxChoices bounds the choice index a stream keeps a parser for; a choice
// at a higher index passes through.
const maxChoices = 1 << 10

// chatEndpoint is /v1/chat/completions: requests carry the model, the
// chat_template_kwargs and reasoning_effort at the top level and earlier
// turns in messages; a response's choices carry message.content, a
// stream's chunks choices[].delta.content.
type chatEndpoint struct{}

func (chatEndpoint) readRequest(body []byte) (requestFields, bool) {
	req, f, ok := readRequestObject(body)
	json.Unmarshal(req["reasoning_effort"], &f.effort)
	return f, ok
}

// readRequestObject decodes a request body's top-level members and reads
// the model and chat_template_kwargs every API's request may carry; ok is
// false for a body that is not a JSON object, or whose
// chat_template_kwargs is not one (upstream will say what is wrong).
func readRequestObject(body []byte) (req map[string]json.RawMessage, f requestFields, ok bool) {
	if json.Unmarshal(body, &req) != nil || req == nil {
		return nil, requestFields{}, false
	}
	json.Unmarshal(req["model"], &f.model) // a non-string is upstream's to reject
	if raw, ok := req["chat_template_kwargs"]; ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&f.kwargs) != nil {
			return nil, requestFields{}, false
		}
	}
	return req, f, true
}

func (chatEndpoint) rewriteRequest(body []byte, f requestFields, p *plan) []byte {
	body = withKwargs(body, f, p)
	if p.cfg.history != HistoryKeep {
		body = rewriteHistory(body, p)
	}
	return body
}

// withKwargs returns body with its chat_template_kwargs set to the plan's,
// unless they say the same as the request's own.
func withKwargs(body []byte, f requestFields, p *plan) []byte {
	if len(p.kwargs) == 0 && len(f.kwargs) == 0 || reflect.DeepEqual(p.kwargs, f.kwargs) {
		return body
	}
	if raw, err := marshal(p.kwargs); err == nil {
		body = withMember(body, "chat_template_kwargs", raw)
	}
	return body
}

func (chatEndpoint) newResponse(p *plan) response { return &chatResponse{p: p} }

func (chatEndpoint) errorBody(status int, message string) []byte { return openAIError(status, message) }

// withMember returns the JSON object body with its member key set to raw:
// the value replaced where the key is, the member added at the end where it
// is not. Every other byte stays as it came.
func withMember(body []byte, key string, raw []byte) []byte {
	at := skipSpace(body, 0)
	end, err := valueEnd(body, at)
	if err != nil || body[at] != '{' {
		return body
	}
	var out []byte
	if start, stop := memberSpan(body, at, key); start >= 0 {
		out = append(out, body[:start]...)
		out = append(out, raw...)
		return append(out, body[stop:]...)
	}
	closing := end - 1 // the object's '}'
	out = append(out, body[:closing]...)
	if skipSpace(body, at+1) != closing { // not empty: a member comes before
		out = append(out, ',')
	}
	out = appendJSONString(out, key)
	out = append(out, ':')
	out = append(out, raw...)
	return append(out, body[closing:]...)
}

// rewriteHistory applies the History policy to the assistant messages of
// the request body that carry a reasoning member, copying every other byte
// as it came.
func rewriteHistory(body []byte, p *plan) []byte {
	open, close := p.renderMarkers()
	return rewriteElements(body, "messages", func(start, _ int) []byte {
		if body[start] != '{' {
			return nil
		}
		assistant, has := false, false
		text := ""
		members(body, start, func(key []byte, _, s, e int) {
			switch string(key) {
			case "role":
				assistant = string(body[s:e]) == `"assistant"`
			case "reasoning", "reasoning_content":
				has = true
				if text == "" {
					text = stringValue(body, s, e)
				}
			}
		})
		if !assistant || !has {
			return nil
		}
		render := ""
		if close != "" && text != "" {
			render = open + text + close
		}
		return appendHistoryMessage(nil, body, start, render)
	})
}

// rewriteElements returns body, a JSON object, with each element of its
// array member key for which replace returns bytes replaced by them,
// every other byte as it came.
func rewriteElements(body []byte, key string, replace func(start, end int) []byte) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	array, _ := memberSpan(body, at, key)
	if array < 0 || body[array] != '[' {
		return body
	}
	var out []byte
	copied := 0
	elements(body, array, func(start, end int) {
		if b := replace(start, end); b != nil {
			out = append(out, body[copied:start]...)
			out = append(out, b...)
			copied = end
		}
	})
	if copied == 0 {
		return body
	}
	return append(out, body[copied:]...)
}

// renderMarkers returns the markers HistoryRender writes reasoning
// between, the family's first opening and closing ones; close is "" when
// reasoning is dropped instead (another policy, or a family without a
// closing marker).
func (p *plan) renderMarkers() (open, close string) {
	if p.cfg.history != HistoryRender {
		return "", ""
	}
	if info, ok := p.cfg.registry.Info(p.parser); ok && len(info.Closes) > 0 {
		close = info.Closes[0]
		if len(info.Opens) > 0 {
			open = info.Opens[0]
		}
	}
	return open, close
}

// appendHistoryMessage appends the message object at data[at] without its
// reasoning members, and with render ahead of its content when render is
// not empty: a string content gets it as a prefix, an array of parts a
// text part before the others, a null or missing content becomes render.
func appendHistoryMessage(dst, data []byte, at int, render string) []byte {
	dst = append(dst, '{')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	rendered := render == ""
	members(data, at, func(key []byte, member, start, end int) {
		switch k := string(key); {
		case k == "reasoning" || k == "reasoning_content":
			return
		case k == "content" && !rendered:
			rendered = true
			sep()
			dst = append(dst, `"content":`...)
			switch data[start] {
			case '"':
				_, escaped, _ := stringEnd(data, start)
				if text, ok := unquote(data[start:end], escaped); ok {
					dst = appendJSONString(dst, render+text)
					return
				}
			case '[':
				dst = append(dst, `[{"type":"text","text":`...)
				dst = appendJSONString(dst, render)
				dst = append(dst, '}')
				if skipSpace(data, start+1) != end-1 { // not empty
					dst = append(dst, ',')
					dst = append(dst, data[start+1:end]...)
					return
				}
				dst = append(dst, ']')
				return
			}
			dst = appendJSONString(dst, render) // null, or a content upstream will reject
			return
		}
		sep()
		dst = append(dst, data[member:end]...)
	})
	if !rendered {
		sep()
		dst = append(dst, `"content":`...)
		dst = appendJSONString(dst, render)
	}
	return append(dst, '}')
}

// chatResponse rewrites one chat completion: a whole body, or a stream of
// chat.completion.chunk events with a parser per choice index.
type chatResponse struct {
	p        *plan
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
	choiceUpstream                   // upstream splits (or no parser does): its reasoning fields are normalised
	choiceFinished                   // its parser finished at its finish_reason: passed through
)

// textMembers are the members of a message or delta object that hold
// text: the value spans of content, reasoning and reasoning_content, -1
// when absent.
type textMembers struct {
	content, contentEnd     int
	reasoning, reasoningEnd int
	rc, rcEnd               int // reasoning_content
}

func findText(data []byte, at int) textMembers {
	t := textMembers{-1, -1, -1, -1, -1, -1}
	if at < 0 {
		return t
	}
	members(data, at, func(key []byte, _, start, end int) {
		switch string(key) {
		case "content":
			t.content, t.contentEnd = start, end
		case "reasoning":
			t.reasoning, t.reasoningEnd = start, end
		case "reasoning_content":
			t.rc, t.rcEnd = start, end
		}
	})
	return t
}

// isText reports whether data[start:end] is a JSON string that is not empty.
func isText(data []byte, start, end int) bool {
	return start >= 0 && end-start > 2 && data[start] == '"'
}

// upstreamReasoning reports whether upstream wrote reasoning text itself.
func (t textMembers) upstreamReasoning(data []byte) bool {
	return isText(data, t.reasoning, t.reasoningEnd) || isText(data, t.rc, t.rcEnd)
}

// content returns the content's text, and whether it is a string.
func (t textMembers) text(data []byte) (string, bool) {
	if t.content < 0 || data[t.content] != '"' {
		return "", false
	}
	_, escaped, _ := stringEnd(data, t.content)
	return unquote(data[t.content:t.contentEnd], escaped)
}

// normalized reports whether the object whose text members are t carries
// upstream's reasoning in the fields configured, and in no other: true
// when it carries none.
func (t textMembers) normalized(data []byte, fields []string) bool {
	if !t.upstreamReasoning(data) {
		return true
	}
	for _, f := range [...]struct {
		key        string
		start, end int
	}{{"reasoning", t.reasoning, t.reasoningEnd}, {"reasoning_content", t.rc, t.rcEnd}} {
		if slices.Contains(fields, f.key) != isText(data, f.start, f.end) {
			return false
		}
	}
	return true
}

// appendNormalized appends the object at data[at] with its reasoning in
// the configured fields: its other members as they came, then each field,
// with the text upstream wrote under that name, else under the other.
func appendNormalized(dst, data []byte, at int, t textMembers, fields []string) []byte {
	dst = append(dst, '{')
	n := 0
	members(data, at, func(key []byte, member, _, end int) {
		if k := string(key); k == "reasoning" || k == "reasoning_content" {
			return
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, data[member:end]...)
	})
	for _, f := range fields {
		s, e := t.reasoning, t.reasoningEnd
		if f == "reasoning_content" && isText(data, t.rc, t.rcEnd) || f == "reasoning" && !isText(data, s, e) {
			s, e = t.rc, t.rcEnd
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendJSONString(dst, f)
		dst = append(dst, ':')
		dst = append(dst, data[s:e]...)
	}
	return append(dst, '}')
}

// body splits the message.content of each choice of a chat completion,
// and normalises the reasoning fields of a choice whose upstream split it
// (or whose model has no parser), copying every other byte as it came. A
// body that is not a JSON object is returned as it is, and so is a choice
// whose content is not a string.
func (c *chatResponse) body(body []byte) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	end, err := valueEnd(body, at)
	choices, _ := memberSpan(body, at, "choices")
	if err != nil || skipSpace(body, end) != len(body) || choices < 0 || body[choices] != '[' {
		return body
	}
	fields := c.p.fields()
	var out []byte
	copied := 0
	elements(body, choices, func(start, _ int) {
		if body[start] != '{' {
			return
		}
		msg, msgEnd := memberSpan(body, start, "message")
		if msg < 0 || body[msg] != '{' {
			return
		}
		t := findText(body, msg)
		var parser reasoning.Parser
		if !t.upstreamReasoning(body) {
			parser = c.p.newParser()
		}
		if parser == nil {
			if !t.normalized(body, fields) {
				out = append(out, body[copied:msg]...)
				out = appendNormalized(out, body, msg, t, fields)
				copied = msgEnd
			}
			return
		}
		text, ok := t.text(body)
		if !ok {
			return
		}
		out = append(out, body[copied:msg]...)
		out = appendText(out, body, msg, parser.Extract(text), fields, true)
		copied = msgEnd
	})
	if copied == 0 {
		return body
	}
	return append(out, body[copied:]...)
}

// memberSpan returns where the value of the object at data[at]'s member
// key starts and ends (the last one, as decoders read duplicates), or -1.
func memberSpan(data []byte, at int, key string) (start, end int) {
	start, end = -1, -1
	members(data, at, func(k []byte, _, s, e int) {
		if string(k) == key {
			start, end = s, e
		}
	})
	return start, end
}

// appendText appends the message or delta object at data[at] (at < 0 for
// none) with its text replaced by m: its other members as they came, then
// content and a reasoning member for each of fields, each only when it has
// text. With nullContent, empty content is written as null rather than
// left out, as a message (not a delta) carries it.
func appendText(dst, data []byte, at int, m reasoning.Message, fields []string, nullContent bool) []byte {
	dst = append(dst, '{')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	if at >= 0 {
		members(data, at, func(key []byte, member, _, end int) {
			k := string(key)
			if k == "content" || m.Reasoning != "" && (k == "reasoning" || k == "reasoning_content") {
				return
			}
			sep()
			dst = append(dst, data[member:end]...)
		})
	}
	if m.Content != "" || nullContent {
		sep()
		dst = append(dst, `"content":`...)
		if m.Content == "" {
			dst = append(dst, "null"...)
		} else {
			dst = appendJSONString(dst, m.Content)
		}
	}
	if m.Reasoning != "" {
		for _, f := range fields {
			sep()
			dst = appendJSONString(dst, f)
			dst = append(dst, ':')
			dst = appendJSONString(dst, m.Reasoning)
		}
	}
	return append(dst, '}')
}

// event rewrites one chunk, the data of an event: in place when it has
// text for a parser or reasoning to normalise, every other byte copied as
// it came. [DONE], and a chunk that is not a JSON object or has nothing to
// rewrite, go out as they came. Chunks that must go before it (the text a
// finishing parser held back) are added first.
func (c *chatResponse) event(out *events, e Event) {
	data := e.Data
	if string(data) == "[DONE]" {
		c.end(out)
		out.keep(e)
		return
	}
	// One pass checks the whole chunk and finds its choices array.
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		out.keep(e)
		return
	}
	choices, choicesEnd := -1, -1
	end, err := members(data, i, func(key []byte, _, start, end int) {
		if string(key) == "choices" && data[start] == '[' {
			choices, choicesEnd = start, end
		}
	})
	if err != nil || skipSpace(data, end) != len(data) || choices < 0 || choicesEnd-choices <= 2 {
		out.keep(e)
		return
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
		out.keep(e)
		return
	}
	c.buf = append(c.buf, data[c.copied:]...)
	out.replace(Event{Name: e.Name, Data: c.buf})
}

// setEnvelope keeps the members of the chunk at data[i] that every chunk
// of the stream shares, for the chunks the rewriter adds.
func (c *chatResponse) setEnvelope(data []byte, i int) {
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

// choice rewrites the choice object at data[at]: when its delta has text
// for its parser, or reasoning to normalise, buf gets the chunk up to its
// delta and the delta rewritten.
func (c *chatResponse) choice(out *events, data []byte, at int) {
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
	if st.mode == choiceFinished {
		return
	}
	t := findText(data, delta)
	text, hasText := t.text(data)
	if st.mode == choiceNew {
		if t.upstreamReasoning(data) {
			st.mode = choiceUpstream
		} else if text != "" {
			if st.parser = c.p.newParser(); st.parser != nil {
				st.mode = choiceParsed
			} else {
				st.mode = choiceUpstream
			}
		}
	}
	if st.mode == choiceUpstream {
		if fields := c.p.fields(); !t.normalized(data, fields) {
			c.buf = append(c.buf, data[c.copied:delta]...)
			c.buf = appendNormalized(c.buf, data, delta, t, fields)
			c.copied = deltaEnd
		}
		return
	}
	var m reasoning.Message
	changed := false
	if st.mode == choiceParsed && hasText {
		m = st.parser.ExtractStreaming(reasoning.Delta{Text: text})
		// Content that comes back whole, with no reasoning, keeps its bytes.
		changed = m.Reasoning != "" || m.Content != text
	}
	if finish {
		if st.mode == choiceParsed {
			if held := st.parser.Finish(); !held.IsZero() {
				// This chunk's text goes first, with what was held, in a
				// chunk of its own before the one that finishes.
				c.addChunk(out, index, reasoning.Message{
					Reasoning: m.Reasoning + held.Reasoning,
					Content:   m.Content + held.Content,
				})
				m, changed = reasoning.Message{}, hasText
			}
		}
		st.mode, st.parser = choiceFinished, nil
	}
	if !changed {
		return
	}
	c.buf = append(c.buf, data[c.copied:delta]...)
	c.buf = appendText(c.buf, data, delta, m, c.p.fields(), false)
	c.copied = deltaEnd
}

// end finishes every choice still open, at [DONE] or the end of the
// stream, adding a chunk for each that held text back, in index order.
func (c *chatResponse) end(out *events) {
	for i := range c.choices {
		st := &c.choices[i]
		if st.mode != choiceParsed {
			continue
		}
		if held := st.parser.Finish(); !held.IsZero() {
			c.addChunk(out, i, held)
		}
		st.mode, st.parser = choiceFinished, nil
	}
}

// addChunk adds a chunk carrying m as the delta of choice index, in the
// stream's envelope, with no finish_reason and no usage.
func (c *chatResponse) addChunk(out *events, index int, m reasoning.Message) {
	b := append([]byte("{"), c.envelope...)
	if len(c.envelope) > 0 {
		b = append(b, ',')
	}
	b = append(b, `"choices":[{"index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"delta":`...)
	b = appendText(b, nil, -1, m, c.p.fields(), false)
	b = append(b, `,"finish_reason":null}]}`...)
	out.add(Event{Data: b})
}

// marshal is json.Marshal without HTML escaping, so that text such as
// "<think>" keeps its bytes.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
