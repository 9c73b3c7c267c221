package rewrite

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/reasoning-go/reasoning"
)

// responsesEndpoint is OpenAI's Responses API (/v1/responses), as vLLM and
// llama.cpp serve it: a request's switch is reasoning.effort, earlier turns
// are the items of input; a response's output is an array of items, and a
// stream is response.created, then per item response.output_item.added,
// its content parts (response.content_part.added, deltas, .done) and
// response.output_item.done, then response.completed, each event with a
// sequence_number.
//
// A message item whose text holds raw markers becomes a reasoning item,
// {"type":"reasoning","summary":[],"content":[{"type":"reasoning_text",
// "text":...}]}, before a message item (or several, alternating, for a
// family whose reasoning comes back after content): reasoning_text
// content is what the API gives open-weight models' raw reasoning, and
// summary_text is for summaries, which a raw-text server does not write.
// A stream gets the events the API sends for such items:
// response.output_item.added, response.content_part.added with a
// reasoning_text part, response.reasoning_text.delta and .done,
// response.content_part.done, response.output_item.done. Every
// output_index is renumbered so that items are added in order, a reasoning
// item's item_id is the message's with rs_ for msg_, and sequence_number
// counts every event the client gets. The response of response.completed
// (and .incomplete, .failed) carries the items as they were streamed. The
// parser runs over the first message item; the response is split no
// further after its end. A response that already has a reasoning item is
// left alone.
type responsesEndpoint struct{}

func (responsesEndpoint) readRequest(body []byte) (requestFields, bool) {
	req, f, ok := readRequestObject(body)
	var r struct {
		Effort string `json:"effort"`
	}
	json.Unmarshal(req["reasoning"], &r)
	f.effort = r.Effort
	return f, ok
}

func (responsesEndpoint) rewriteRequest(body []byte, f requestFields, p *plan) []byte {
	body = withKwargs(body, f, p)
	if p.cfg.history != HistoryKeep {
		body = rewriteResponsesHistory(body, p)
	}
	return body
}

func (responsesEndpoint) newResponse(p *plan) response { return &responsesResponse{p: p} }

func (responsesEndpoint) errorBody(status int, message string) []byte {
	return openAIError(status, message)
}

// rewriteResponsesHistory applies the History policy to the reasoning
// items of the request's input, copying every other byte as it came.
// Rendered, a reasoning item's text (its reasoning_text content, else its
// summary) goes, between the family's markers, ahead of the text of the
// assistant message item that follows it, or into an assistant message
// item of its own where none does.
func rewriteResponsesHistory(body []byte, p *plan) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	input, inputEnd := memberSpan(body, at, "input")
	if input < 0 || body[input] != '[' || !hasBlock(body, input, "reasoning") {
		return body
	}
	open, close := p.renderMarkers()
	out := append([]byte(nil), body[:input]...)
	out = append(out, '[')
	n := 0
	sep := func() {
		if n > 0 {
			out = append(out, ',')
		}
		n++
	}
	pending := ""
	flush := func() {
		if pending != "" {
			sep()
			out = appendObject(out, member{"type", []byte(`"message"`)}, member{"role", []byte(`"assistant"`)},
				member{"content", appendOutputText(nil, pending)})
			pending = ""
		}
	}
	elements(body, input, func(start, end int) {
		if blockType(body, start) == "reasoning" {
			if text := reasoningItemText(body, start); close != "" && text != "" {
				pending += open + text + close
			}
			return
		}
		if pending != "" && isAssistantMessage(body, start) {
			sep()
			out = appendRenderedMessage(out, body[:end], start, pending)
			pending = ""
			return
		}
		flush()
		sep()
		out = append(out, body[start:end]...)
	})
	flush()
	out = append(out, ']')
	return append(out, body[inputEnd:]...)
}

// appendOutputText appends a content array of one output_text part.
func appendOutputText(dst []byte, text string) []byte {
	dst = append(dst, '[')
	dst = appendObject(dst, member{"type", []byte(`"output_text"`)}, member{"text", jsonString(text)}, member{"annotations", []byte(`[]`)})
	return append(dst, ']')
}

// reasoningItemText returns the text of the reasoning item at data[at]:
// its reasoning_text content, else its summary, each part's text joined.
func reasoningItemText(data []byte, at int) string {
	for _, key := range []string{"content", "summary"} {
		parts, _ := memberSpan(data, at, key)
		if parts < 0 || data[parts] != '[' {
			continue
		}
		var text strings.Builder
		elements(data, parts, func(start, _ int) {
			if data[start] == '{' {
				t, tEnd := memberSpan(data, start, "text")
				text.WriteString(stringValue(data, t, tEnd))
			}
		})
		if text.Len() > 0 {
			return text.String()
		}
	}
	return ""
}

// isAssistantMessage reports whether the input item at data[at] is an
// assistant message (its type "message" or absent).
func isAssistantMessage(data []byte, at int) bool {
	if data[at] != '{' {
		return false
	}
	role, roleEnd := memberSpan(data, at, "role")
	t := blockType(data, at)
	return stringValue(data, role, roleEnd) == "assistant" && (t == "" || t == "message")
}

// appendRenderedMessage appends the assistant message item at data[at]
// with text ahead of its content: a string content gets it as a prefix,
// an array its first text part.
func appendRenderedMessage(dst, data []byte, at int, text string) []byte {
	content, contentEnd := memberSpan(data, at, "content")
	switch {
	case content >= 0 && data[content] == '"':
		return appendReplaced(dst, data, at, member{"content", jsonString(text + stringValue(data, content, contentEnd))})
	case content >= 0 && data[content] == '[':
		first := -1
		elements(data, content, func(start, _ int) {
			if t := blockType(data, start); first < 0 && (t == "output_text" || t == "input_text" || t == "text") {
				first = start
			}
		})
		if first >= 0 {
			t, tEnd := memberSpan(data, first, "text")
			dst = append(dst, data[at:first]...)
			dst = appendReplaced(dst, data[:skipValue(data, first)], first, member{"text", jsonString(text + stringValue(data, t, tEnd))})
			return append(dst, data[skipValue(data, first):skipValue(data, at)]...)
		}
	}
	return appendReplaced(dst, data, at, member{"content", appendOutputText(nil, text)})
}

// responsesResponse rewrites one Responses API response.
type responsesResponse struct {
	p      *plan
	state  splitState
	parser reasoning.Parser // set in splitting
	seq    int              // the sequence_number of the next event the client gets
	seqSet bool             // seq was read from the first event that has one
	index  []int            // our output_index of each upstream item that passes through, -1 unset
	next   int              // our output_index of the next item we add
	item   *splitItem       // the message item being split; nil when none
	done   map[string][]byte
	buf    []byte // the rewritten input event; reused
}

// A splitItem is upstream's message item that is split into items of ours.
type splitItem struct {
	up          int     // upstream's output_index
	id          string  // upstream's item id
	added, part []byte  // upstream's output_item.added and content_part.added, held
	cur         segment // the kind of our item open for it
	at          int     // its output_index
	curID       string  // its id
	text        strings.Builder
	reasonings  int    // reasoning items opened
	messages    int    // message items opened
	items       []byte // the items closed, as JSON, comma-separated
}

// responsesEvent holds the members of a Responses event the rewriter reads.
type responsesEvent struct {
	typ          string
	seq          int // -1 when absent
	outputIndex  int // -1 when absent
	contentIndex int // -1 when absent
	item         int // the item member's start, -1 when absent
	itemType     string
	itemID       string
	delta        string
}

func readResponsesEvent(data []byte) (ev responsesEvent, ok bool) {
	at := skipSpace(data, 0)
	if at >= len(data) || data[at] != '{' {
		return ev, false
	}
	ev.seq, ev.outputIndex, ev.contentIndex, ev.item = -1, -1, -1, -1
	end, err := members(data, at, func(key []byte, _, start, end int) {
		switch string(key) {
		case "type":
			ev.typ = stringValue(data, start, end)
		case "sequence_number":
			ev.seq, _ = atoi(data[start:end])
		case "output_index":
			ev.outputIndex, _ = atoi(data[start:end])
		case "content_index":
			ev.contentIndex, _ = atoi(data[start:end])
		case "item":
			if data[start] == '{' {
				ev.item = start
				ev.itemType = blockType(data, start)
				id, idEnd := memberSpan(data, start, "id")
				ev.itemID = stringValue(data, id, idEnd)
			}
		case "delta":
			ev.delta = stringValue(data, start, end)
		}
	})
	return ev, err == nil && skipSpace(data, end) == len(data)
}

// atoi reads a JSON number that is a non-negative integer; -1 for
// anything else.
func atoi(b []byte) (int, bool) {
	n, err := strconv.Atoi(string(b))
	if err != nil || n < 0 {
		return -1, false
	}
	return n, true
}

func (r *responsesResponse) event(out *events, e Event) {
	ev, ok := readResponsesEvent(e.Data)
	if !ok {
		out.keep(e)
		return
	}
	if ev.seq >= 0 && !r.seqSet {
		r.seq, r.seqSet = ev.seq, true
	}
	it := r.item
	ofItem := it != nil && ev.outputIndex == it.up
	switch {
	case ev.typ == "response.output_item.added":
		r.itemAdded(out, e, ev)
	case ofItem && ev.typ == "response.content_part.added" && ev.contentIndex == 0 && it.part == nil && it.cur == segNone:
		it.part = append([]byte(nil), e.Data...)
	case ofItem && r.state == splitting && ev.typ == "response.output_text.delta" && ev.contentIndex == 0:
		r.emit(out, r.parser.ExtractStreaming(reasoning.Delta{Text: ev.delta}), &e)
	case ofItem && ev.typ == "response.output_text.done" && ev.contentIndex == 0:
		r.finishParser(out)
		if it.cur != segContent {
			r.closeItem(out)
			return
		}
		r.send(out, e, true, member{"output_index", jsonInt(it.at)}, member{"item_id", jsonString(it.curID)}, member{"text", jsonString(it.text.String())})
	case ofItem && ev.typ == "response.content_part.done" && ev.contentIndex == 0:
		r.finishParser(out)
		if it.cur != segContent {
			r.closeItem(out)
			return
		}
		part, _ := memberSpan(e.Data, skipSpace(e.Data, 0), "part")
		if part < 0 || e.Data[part] != '{' {
			r.toCurrent(out, e)
			return
		}
		r.send(out, e, true, member{"output_index", jsonInt(it.at)}, member{"item_id", jsonString(it.curID)},
			member{"part", appendReplaced(nil, e.Data[:skipValue(e.Data, part)], part, member{"text", jsonString(it.text.String())})})
	case ofItem && ev.typ == "response.output_item.done":
		r.finishParser(out)
		if it.cur == segContent && ev.item >= 0 {
			item := r.messageItem(e.Data[:skipValue(e.Data, ev.item)], ev.item)
			r.record(item)
			it.cur = segNone
			r.send(out, e, true, member{"output_index", jsonInt(it.at)}, member{"item", item})
		} else {
			r.closeItem(out)
		}
		r.finishItem()
	case ofItem:
		r.toCurrent(out, e)
	case ev.typ == "response.completed" || ev.typ == "response.incomplete" || ev.typ == "response.failed":
		r.end(out)
		resp, respEnd := memberSpan(e.Data, skipSpace(e.Data, 0), "response")
		if resp >= 0 && e.Data[resp] == '{' && len(r.done) > 0 {
			r.send(out, e, true, member{"response", r.withItems(e.Data[:respEnd], resp)})
			return
		}
		r.send(out, e, false)
	default:
		r.send(out, e, false, r.remapped(ev)...)
	}
}

// finishParser sends what the parser holds, at the end of the text of the
// message item being split.
func (r *responsesResponse) finishParser(out *events) {
	if r.state == splitting {
		r.emit(out, r.parser.Finish(), nil)
		r.state, r.parser = splitFinished, nil
	}
}

// itemAdded starts an item: the first message item to split is held until
// its text says what it becomes; any other passes through, renumbered.
func (r *responsesResponse) itemAdded(out *events, e Event, ev responsesEvent) {
	if r.state == splitNew {
		switch ev.itemType {
		case "reasoning":
			r.state = splitUpstream
		case "message":
			if ev.outputIndex < 0 {
				break
			}
			if r.parser = r.p.newParser(); r.parser == nil {
				r.state = splitUpstream
				break
			}
			r.state = splitting
			r.item = &splitItem{up: ev.outputIndex, id: ev.itemID, added: append([]byte(nil), e.Data...)}
			return
		}
	}
	if ev.outputIndex >= 0 && ev.outputIndex < maxChoices {
		for len(r.index) <= ev.outputIndex {
			r.index = append(r.index, -1)
		}
		r.index[ev.outputIndex] = r.next
		r.next++
	}
	r.send(out, e, false, r.remapped(ev)...)
}

// remapped returns the output_index member of an event that passes
// through, when it changes.
func (r *responsesResponse) remapped(ev responsesEvent) []member {
	if ev.outputIndex < 0 || ev.outputIndex >= len(r.index) || r.index[ev.outputIndex] < 0 || r.index[ev.outputIndex] == ev.outputIndex {
		return nil
	}
	return []member{{"output_index", jsonInt(r.index[ev.outputIndex])}}
}

// send puts e in out as the client gets it: with its sequence_number the
// next, and the members set replaced; as it came when that changes
// nothing. replaced says some member changes for sure.
func (r *responsesResponse) send(out *events, e Event, replaced bool, set ...member) {
	at := skipSpace(e.Data, 0)
	seq, seqEnd := memberSpan(e.Data, at, "sequence_number")
	if seq >= 0 {
		if n, _ := atoi(e.Data[seq:seqEnd]); n != r.seq {
			set = append(set, member{"sequence_number", jsonInt(r.seq)})
		}
		r.seq++
	}
	if !replaced && len(set) == 0 {
		out.keep(e)
		return
	}
	r.buf = appendReplaced(r.buf[:0], e.Data, at, set...)
	out.replace(Event{Name: e.Name, Data: r.buf})
}

// add puts an event of ours in out, named by its type, with the next
// sequence_number.
func (r *responsesResponse) add(out *events, typ string, ms ...member) {
	all := append([]member{{"type", jsonString(typ)}, {"sequence_number", jsonInt(r.seq)}}, ms...)
	r.seq++
	out.add(named(typ, appendObject(nil, all...)))
}

// emit sends the text msg into our items, reasoning first: an item of the
// kind is opened where the current one differs. self is the input event,
// an output_text delta, that the last piece replaces (nil: every event is
// added).
func (r *responsesResponse) emit(out *events, msg reasoning.Message, self *Event) {
	it := r.item
	pieces, last := textPieces(msg)
	for _, piece := range pieces {
		if piece.text == "" {
			continue
		}
		if it.cur != piece.kind {
			r.closeItem(out)
			r.openItem(out, piece.kind)
		}
		it.text.WriteString(piece.text)
		where := []member{{"item_id", jsonString(it.curID)}, {"output_index", jsonInt(it.at)}, {"content_index", []byte("0")}}
		switch {
		case piece.kind == segContent && piece.kind == last && self != nil:
			r.send(out, *self, true, append(where, member{"delta", jsonString(piece.text)})...)
		case piece.kind == segContent:
			r.add(out, "response.output_text.delta", append(where, member{"delta", jsonString(piece.text)}, member{"logprobs", []byte(`[]`)})...)
		default:
			r.add(out, "response.reasoning_text.delta", append(where, member{"delta", jsonString(piece.text)})...)
		}
	}
}

// openItem adds our next item of kind: a reasoning item as the API adds
// one, a message item as upstream added its own.
func (r *responsesResponse) openItem(out *events, kind segment) {
	it := r.item
	it.cur, it.at = kind, r.next
	r.next++
	it.text.Reset()
	if kind == segReasoning {
		it.reasonings++
		it.curID = "rs_" + strings.TrimPrefix(it.id, "msg_")
		if it.reasonings > 1 {
			it.curID += "_" + strconv.Itoa(it.reasonings)
		}
		r.add(out, "response.output_item.added", member{"output_index", jsonInt(it.at)},
			member{"item", appendObject(nil, member{"id", jsonString(it.curID)}, member{"type", []byte(`"reasoning"`)},
				member{"summary", []byte(`[]`)}, member{"content", []byte(`[]`)}, member{"status", []byte(`"in_progress"`)})})
		r.add(out, "response.content_part.added", member{"item_id", jsonString(it.curID)}, member{"output_index", jsonInt(it.at)},
			member{"content_index", []byte("0")}, member{"part", []byte(`{"type":"reasoning_text","text":""}`)})
		return
	}
	it.messages++
	it.curID = it.id
	if it.messages > 1 {
		it.curID += "_" + strconv.Itoa(it.messages)
	}
	if item, _ := memberSpan(it.added, skipSpace(it.added, 0), "item"); item >= 0 && it.added[item] == '{' {
		r.addFrom(out, it.added, member{"output_index", jsonInt(it.at)},
			member{"item", appendReplaced(nil, it.added[:skipValue(it.added, item)], item, member{"id", jsonString(it.curID)})})
	}
	if it.part != nil {
		r.addFrom(out, it.part, member{"output_index", jsonInt(it.at)}, member{"item_id", jsonString(it.curID)})
	} else {
		r.add(out, "response.content_part.added", member{"item_id", jsonString(it.curID)}, member{"output_index", jsonInt(it.at)},
			member{"content_index", []byte("0")}, member{"part", []byte(`{"type":"output_text","text":"","annotations":[],"logprobs":[]}`)})
	}
}

// addFrom adds upstream's held event data with members set, and the next
// sequence_number.
func (r *responsesResponse) addFrom(out *events, data []byte, set ...member) {
	at := skipSpace(data, 0)
	t, tEnd := memberSpan(data, at, "type")
	set = append(set, member{"sequence_number", jsonInt(r.seq)})
	r.seq++
	out.add(named(stringValue(data, t, tEnd), appendReplaced(nil, data, at, set...)))
}

// closeItem ends our open item, if any, with the events the API ends one
// with.
func (r *responsesResponse) closeItem(out *events) {
	it := r.item
	if it == nil || it.cur == segNone {
		return
	}
	text := jsonString(it.text.String())
	where := []member{{"item_id", jsonString(it.curID)}, {"output_index", jsonInt(it.at)}, {"content_index", []byte("0")}}
	var part, item []byte
	if it.cur == segReasoning {
		part = appendObject(nil, member{"type", []byte(`"reasoning_text"`)}, member{"text", text})
		r.add(out, "response.reasoning_text.done", append(where, member{"text", text})...)
		item = appendObject(nil, member{"id", jsonString(it.curID)}, member{"type", []byte(`"reasoning"`)}, member{"summary", []byte(`[]`)},
			member{"content", append(append([]byte{'['}, part...), ']')}, member{"status", []byte(`"completed"`)})
	} else {
		part = appendObject(nil, member{"type", []byte(`"output_text"`)}, member{"text", text}, member{"annotations", []byte(`[]`)}, member{"logprobs", []byte(`[]`)})
		r.add(out, "response.output_text.done", append(where, member{"text", text}, member{"logprobs", []byte(`[]`)})...)
		item = appendObject(nil, member{"id", jsonString(it.curID)}, member{"type", []byte(`"message"`)}, member{"status", []byte(`"completed"`)},
			member{"role", []byte(`"assistant"`)}, member{"content", append(append([]byte{'['}, part...), ']')})
	}
	r.add(out, "response.content_part.done", append(where, member{"part", part})...)
	r.add(out, "response.output_item.done", member{"output_index", jsonInt(it.at)}, member{"item", item})
	r.record(item)
	it.cur = segNone
}

// messageItem returns upstream's message item at data[at] as our last
// message item: its id ours, its first content part's text ours.
func (r *responsesResponse) messageItem(data []byte, at int) []byte {
	it := r.item
	set := []member{{"id", jsonString(it.curID)}}
	if content, contentEnd := memberSpan(data, at, "content"); content >= 0 && data[content] == '[' {
		first, firstEnd := -1, -1
		elements(data, content, func(start, end int) {
			if first < 0 && data[start] == '{' {
				first, firstEnd = start, end
			}
		})
		if first >= 0 {
			parts := append([]byte(nil), data[content:first]...)
			parts = appendReplaced(parts, data[:firstEnd], first, member{"text", jsonString(it.text.String())})
			parts = append(parts, data[firstEnd:contentEnd]...)
			set = append(set, member{"content", parts})
		}
	}
	return appendReplaced(nil, data, at, set...)
}

// record keeps a closed item of ours for response.completed.
func (r *responsesResponse) record(item []byte) {
	it := r.item
	if len(it.items) > 0 {
		it.items = append(it.items, ',')
	}
	it.items = append(it.items, item...)
}

// finishItem ends the split of upstream's message item.
func (r *responsesResponse) finishItem() {
	if r.done == nil {
		r.done = make(map[string][]byte)
	}
	r.done[r.item.id] = r.item.items
	r.item = nil
}

// toCurrent sends an event of the item being split that is not its text
// (an annotation, say) to our message item, opening one if needed.
func (r *responsesResponse) toCurrent(out *events, e Event) {
	it := r.item
	if it.cur != segContent {
		r.closeItem(out)
		r.openItem(out, segContent)
	}
	set := []member{{"output_index", jsonInt(it.at)}}
	if id, _ := memberSpan(e.Data, skipSpace(e.Data, 0), "item_id"); id >= 0 {
		set = append(set, member{"item_id", jsonString(it.curID)})
	}
	r.send(out, e, true, set...)
}

// end sends what the parser holds, into the open item, when the message
// item being split never finished: the item is left open, as upstream
// left its own.
func (r *responsesResponse) end(out *events) {
	r.finishParser(out)
}

// withItems returns the response object at data[at] with each message
// item that was split replaced by the items streamed for it (none, when
// it had no text at all).
func (r *responsesResponse) withItems(data []byte, at int) []byte {
	output, _ := memberSpan(data, at, "output")
	if output < 0 || data[output] != '[' {
		return append([]byte(nil), data[at:]...)
	}
	list := append([]byte(nil), '[')
	n := 0
	elements(data, output, func(start, end int) {
		item := data[start:end]
		if items, ok := r.done[itemID(data, start)]; ok && blockType(data, start) == "message" {
			item = items // none when the message had no text at all
		}
		if len(item) == 0 {
			return
		}
		if n > 0 {
			list = append(list, ',')
		}
		n++
		list = append(list, item...)
	})
	list = append(list, ']')
	return appendReplaced(nil, data, at, member{"output", list})
}

// itemID returns the id member of the object at data[at].
func itemID(data []byte, at int) string {
	if data[at] != '{' {
		return ""
	}
	id, idEnd := memberSpan(data, at, "id")
	return stringValue(data, id, idEnd)
}

// body splits the first message item of a whole Responses response into
// a reasoning item and a message item, copying every other byte as it
// came.
func (r *responsesResponse) body(body []byte) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	end, err := valueEnd(body, at)
	output, _ := memberSpan(body, at, "output")
	if err != nil || skipSpace(body, end) != len(body) || output < 0 || body[output] != '[' || hasBlock(body, output, "reasoning") {
		return body
	}
	first, firstEnd := -1, -1
	elements(body, output, func(start, end int) {
		if first < 0 && blockType(body, start) == "message" {
			first, firstEnd = start, end
		}
	})
	if first < 0 {
		return body
	}
	content, _ := memberSpan(body, first, "content")
	if content < 0 || body[content] != '[' {
		return body
	}
	part, parts := -1, 0
	elements(body, content, func(start, _ int) {
		parts++
		if blockType(body, start) == "output_text" {
			part = start
		}
	})
	if parts != 1 || part < 0 {
		return body
	}
	t, tEnd := memberSpan(body, part, "text")
	text := stringValue(body, t, tEnd)
	parser := r.p.newParser()
	if parser == nil || text == "" {
		return body
	}
	msg := parser.Extract(text)
	if msg.Reasoning == "" && msg.Content == text {
		return body
	}
	// The message item rebuilt as a stream of it would end: the same
	// segments, the same ids.
	it := &splitItem{id: itemID(body, first)}
	r.item = it
	var scratch events
	r.emit(&scratch, msg, nil)
	if it.cur == segContent {
		r.record(r.messageItem(body[:firstEnd], first))
		it.cur = segNone
	} else {
		r.closeItem(&scratch)
	}
	r.item = nil
	out := append([]byte(nil), body[:first]...)
	out = append(out, it.items...)
	return append(out, body[firstEnd:]...)
}
