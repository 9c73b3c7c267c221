package rewrite

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

const responsesPath = "/v1/responses"

// A responsesItem is an output item as a client assembles it.
type responsesItem struct {
	ID, Type  string
	Parts     []string // the text of each content part
	PartTypes []string
	Arguments string
	Done      json.RawMessage // the item of its output_item.done
}

// assembleResponses reads a Responses event stream as the SDKs'
// accumulators do, and fails on what they reject or what contradicts the
// rest: a sequence_number out of turn, an item added out of order, an
// event for an item or part that is not there or of another kind, a
// .done whose text differs from its deltas, a completed response whose
// output differs from the items streamed.
func assembleResponses(t *testing.T, events []Event) (items []responsesItem, completed json.RawMessage) {
	t.Helper()
	for i, e := range events {
		var ev struct {
			Type           string
			SequenceNumber *int   `json:"sequence_number"`
			OutputIndex    int    `json:"output_index"`
			ContentIndex   int    `json:"content_index"`
			ItemID         string `json:"item_id"`
			Item           json.RawMessage
			Part           struct{ Type, Text string }
			Delta, Text    string
			Arguments      string
			Response       struct{ Output json.RawMessage }
		}
		require.NoError(t, json.Unmarshal(e.Data, &ev), "%s", e.Data)
		require.Equal(t, ev.Type, string(e.Name), "event name of %s", e.Data)
		require.NotNil(t, ev.SequenceNumber, "%s", e.Data)
		require.Equal(t, i, *ev.SequenceNumber, "sequence_number of %s", e.Data)
		item := func() *responsesItem {
			require.Less(t, ev.OutputIndex, len(items), "no item at output_index: %s", e.Data)
			it := &items[ev.OutputIndex]
			if ev.ItemID != "" {
				require.Equal(t, it.ID, ev.ItemID, "%s", e.Data)
			}
			return it
		}
		part := func(kind, partType string) *string {
			it := item()
			require.Equal(t, kind, it.Type, "%s", e.Data)
			require.Less(t, ev.ContentIndex, len(it.Parts), "no part at content_index: %s", e.Data)
			require.Equal(t, partType, it.PartTypes[ev.ContentIndex], "%s", e.Data)
			return &it.Parts[ev.ContentIndex]
		}
		switch ev.Type {
		case "response.output_item.added":
			require.Equal(t, len(items), ev.OutputIndex, "items are added in order: %s", e.Data)
			var it struct{ ID, Type string }
			require.NoError(t, json.Unmarshal(ev.Item, &it))
			items = append(items, responsesItem{ID: it.ID, Type: it.Type})
		case "response.content_part.added":
			it := item()
			require.Equal(t, len(it.Parts), ev.ContentIndex, "%s", e.Data)
			it.Parts = append(it.Parts, ev.Part.Text)
			it.PartTypes = append(it.PartTypes, ev.Part.Type)
		case "response.reasoning_text.delta":
			*part("reasoning", "reasoning_text") += ev.Delta
		case "response.output_text.delta":
			*part("message", "output_text") += ev.Delta
		case "response.reasoning_text.done":
			require.Equal(t, *part("reasoning", "reasoning_text"), ev.Text, "%s", e.Data)
		case "response.output_text.done":
			require.Equal(t, *part("message", "output_text"), ev.Text, "%s", e.Data)
		case "response.content_part.done":
			it := item()
			require.Equal(t, it.Parts[ev.ContentIndex], ev.Part.Text, "%s", e.Data)
		case "response.function_call_arguments.delta":
			item().Arguments += ev.Delta
		case "response.output_item.done":
			it := item()
			var done struct {
				ID, Type string
				Content  []struct{ Type, Text string }
			}
			require.NoError(t, json.Unmarshal(ev.Item, &done))
			require.Equal(t, it.ID, done.ID, "%s", e.Data)
			for k, c := range done.Content {
				require.Equal(t, it.Parts[k], c.Text, "%s", e.Data)
			}
			it.Done = ev.Item
		case "response.completed":
			completed = ev.Response.Output
			doneItems := []json.RawMessage{}
			for _, it := range items {
				doneItems = append(doneItems, it.Done)
			}
			want, _ := json.Marshal(doneItems)
			require.JSONEq(t, string(want), string(completed), "completed output and the items streamed")
		}
	}
	return items, completed
}

func TestResponsesStream(t *testing.T) {
	rw, err := New(responsesPath, WithParser("qwen3"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, fake.ResponsesStream(-1), true)
	items, completed := assembleResponses(t, out)
	require.NotNil(t, completed)
	require.Len(t, items, 3)
	assert.Equal(t, responsesItem{ID: "rs_a1", Type: "reasoning", Parts: []string{fake.ResponsesReasoning}, PartTypes: []string{"reasoning_text"}}, withoutDone(items[0]))
	assert.JSONEq(t, `{"id":"rs_a1","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"The user wants the weather."}],"status":"completed"}`, string(items[0].Done))
	assert.Equal(t, responsesItem{ID: "msg_a1", Type: "message", Parts: []string{fake.ResponsesAnswer}, PartTypes: []string{"output_text"}}, withoutDone(items[1]))
	assert.Equal(t, "function_call", items[2].Type)
	assert.Equal(t, fake.ResponsesArguments, items[2].Arguments)
	var usage struct {
		Response struct {
			Usage struct {
				TotalTokens int `json:"total_tokens"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(out[len(out)-1].Data, &usage))
	assert.Equal(t, 42, usage.Response.Usage.TotalTokens, "usage passes through")
}

func withoutDone(it responsesItem) responsesItem { it.Done = nil; return it }

// TestResponsesStreamCutAnywhere: whatever the cuts between deltas, the
// items carry the parser's split of the whole text; a stream cut short
// still gets what the parser held.
func TestResponsesStreamCutAnywhere(t *testing.T) {
	const text = "<think>a</think>b"
	for cut := 0; cut <= len(text); cut++ {
		var deltas []string
		for _, piece := range []string{text[:cut], text[cut:]} {
			if piece != "" {
				deltas = append(deltas, piece)
			}
		}
		events := responsesText(deltas, text)
		for _, n := range []int{len(events), len(events) - 4} { // whole, or stopped before output_text.done
			rw, err := New(responsesPath, WithParser("deepseek_r1"))
			require.NoError(t, err)
			items, _ := assembleResponses(t, rewriteEvents(t, rw, events[:n], true))
			name := fmt.Sprintf("cut %d, %d events", cut, n)
			require.Len(t, items, 2, name)
			assert.Equal(t, []string{"a"}, items[0].Parts, name)
			assert.Equal(t, []string{"b"}, items[1].Parts, name)
		}
	}
}

// responsesText is a stream of one message item with these deltas, then
// response.completed.
func responsesText(deltas []string, text string) []fake.Event {
	var events []fake.Event
	add := func(typ, members string) {
		events = append(events, fake.Event{Name: typ, Data: fmt.Sprintf(`{"type":%q,"sequence_number":%d,%s}`, typ, len(events), members)})
	}
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	item := `{"id":"msg_x","type":"message","status":"%s","role":"assistant","content":[%s]}`
	add("response.created", `"response":{"id":"r","output":[]}`)
	add("response.output_item.added", `"output_index":0,"item":`+fmt.Sprintf(item, "in_progress", ""))
	add("response.content_part.added", `"item_id":"msg_x","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`)
	for _, d := range deltas {
		add("response.output_text.delta", `"item_id":"msg_x","output_index":0,"content_index":0,"delta":`+quoted(d))
	}
	part := `{"type":"output_text","text":` + quoted(text) + `,"annotations":[]}`
	add("response.output_text.done", `"item_id":"msg_x","output_index":0,"content_index":0,"text":`+quoted(text))
	add("response.content_part.done", `"item_id":"msg_x","output_index":0,"content_index":0,"part":`+part)
	add("response.output_item.done", `"output_index":0,"item":`+fmt.Sprintf(item, "completed", part))
	add("response.completed", `"response":{"id":"r","output":[`+fmt.Sprintf(item, "completed", part)+`]}`)
	return events
}

// TestResponsesUpstreamSplit: a stream whose upstream sends reasoning
// items itself goes through byte for byte.
func TestResponsesUpstreamSplit(t *testing.T) {
	in := []fake.Event{
		{Name: "response.created", Data: `{"type":"response.created","sequence_number":0,"response":{"id":"r","output":[]}}`},
		{Name: "response.output_item.added", Data: `{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`},
		{Name: "response.output_item.added", Data: `{"type":"response.output_item.added","sequence_number":2,"output_index":1,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`},
		{Name: "response.output_text.delta", Data: `{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"<think>x"}`},
	}
	rw, err := New(responsesPath, WithParser("qwen3"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, in, true)
	require.Len(t, out, len(in))
	for i := range in {
		assert.Equal(t, in[i].Data, string(out[i].Data))
	}
}

func TestResponsesBody(t *testing.T) {
	rw, err := New(responsesPath, WithParser("qwen3"))
	require.NoError(t, err)
	got := rw.Response([]byte(fake.ResponsesBody))
	var resp struct{ Output []json.RawMessage }
	require.NoError(t, json.Unmarshal(got, &resp), "%s", got)
	require.Len(t, resp.Output, 3)
	assert.JSONEq(t, `{"id":"rs_a1","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"plan"}],"status":"completed"}`, string(resp.Output[0]))
	assert.JSONEq(t, `{"id":"msg_a1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"done","annotations":[],"logprobs":[]}]}`, string(resp.Output[1]))
	assert.Contains(t, string(resp.Output[2]), `"function_call"`)
	assert.Equal(t, strings.Replace(fake.ResponsesBody, `"output":[`, `"output":[`+string(resp.Output[0])+`,`, 1),
		strings.Replace(string(got), `"text":"done"`, `"text":"<think>plan</think>done"`, 1), "every other byte as it came")

	for _, body := range []string{
		`{"id":"r","output":[{"id":"rs_1","type":"reasoning","summary":[]},{"id":"m","type":"message","content":[{"type":"output_text","text":"<think>x"}]}]}`,
		`{"id":"r","output":[{"id":"m","type":"message","content":[{"type":"output_text","text":"a"},{"type":"output_text","text":"b"}]}]}`,
		`{"id":"r","output":[{"id":"c","type":"function_call","arguments":"{}"}]}`,
		`not json`,
	} {
		rw, err := New(responsesPath, WithParser("qwen3"))
		require.NoError(t, err)
		assert.Equal(t, body, string(rw.Response([]byte(body))))
	}
}

func TestResponsesRequest(t *testing.T) {
	for _, c := range []struct {
		request  string
		thinking any
	}{
		{`{"model":"Qwen/Qwen3-8B","input":"hi","reasoning":{"effort":"none"}}`, false},
		{`{"model":"Qwen/Qwen3-8B","input":"hi","reasoning":{"effort":"minimal","summary":"auto"}}`, true},
		{`{"model":"Qwen/Qwen3-8B","input":"hi"}`, nil},
	} {
		rw, err := New(responsesPath)
		require.NoError(t, err)
		got, err := rw.Request([]byte(c.request))
		require.NoError(t, err)
		var req struct {
			Kwargs map[string]any `json:"chat_template_kwargs"`
		}
		require.NoError(t, json.Unmarshal(got, &req))
		assert.Equal(t, c.thinking, req.Kwargs["enable_thinking"], c.request)
	}
}

func TestResponsesHistory(t *testing.T) {
	const request = `{"model":"Qwen/Qwen3-8B","input":[` +
		`{"role":"user","content":"q1"},` +
		`{"id":"rs_1","type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"r1"}]},` +
		`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"a1","annotations":[]}]},` +
		`{"role":"user","content":"q2"},` +
		`{"id":"rs_2","type":"reasoning","summary":[{"type":"summary_text","text":"r2"}]},` +
		`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c","output":"sunny"},` +
		`{"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"r3"}]},` +
		`{"role":"assistant","content":"a3"}]}`
	for _, c := range []struct {
		history History
		input   string
	}{
		{HistoryDrop, `[{"role":"user","content":"q1"},` +
			`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"a1","annotations":[]}]},` +
			`{"role":"user","content":"q2"},` +
			`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},` +
			`{"type":"function_call_output","call_id":"c","output":"sunny"},` +
			`{"role":"assistant","content":"a3"}]`},
		{HistoryRender, `[{"role":"user","content":"q1"},` +
			`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"<think>r1</think>a1","annotations":[]}]},` +
			`{"role":"user","content":"q2"},` +
			`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"<think>r2</think>","annotations":[]}]},` +
			`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},` +
			`{"type":"function_call_output","call_id":"c","output":"sunny"},` +
			`{"role":"assistant","content":"<think>r3</think>a3"}]`},
	} {
		rw, err := New(responsesPath, WithHistory(c.history))
		require.NoError(t, err)
		got, err := rw.Request([]byte(request))
		require.NoError(t, err)
		var req map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(got, &req), "%s", got)
		assert.JSONEq(t, c.input, string(req["input"]), c.history.String())
	}
	rw, err := New(responsesPath, WithHistory(HistoryKeep))
	require.NoError(t, err)
	got, err := rw.Request([]byte(request))
	require.NoError(t, err)
	assert.Equal(t, request, string(got))
}
