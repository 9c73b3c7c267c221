package rewrite

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

const messagesPath = "/v1/messages"

// A messagesBlock is a content block as a client assembles it.
type messagesBlock struct {
	Type, Text, Thinking, Signature, Input string
	Start                                  string // the content_block of its start event
	Stopped                                bool
}

// assembleMessages reads a Messages event stream as Anthropic's SDKs do,
// and fails on what they reject: an event whose name is not its type, a
// block that starts out of order or while another is open, a delta to a
// block that is not open or of another kind.
func assembleMessages(t *testing.T, events []Event) []messagesBlock {
	t.Helper()
	var blocks []messagesBlock
	for _, e := range events {
		var ev struct {
			Type         string
			Index        int
			ContentBlock json.RawMessage `json:"content_block"`
			Delta        struct {
				Type, Text, Thinking, Signature string
				PartialJSON                     string `json:"partial_json"`
			}
		}
		require.NoError(t, json.Unmarshal(e.Data, &ev), "%s", e.Data)
		require.Equal(t, ev.Type, string(e.Name), "event name of %s", e.Data)
		switch ev.Type {
		case "content_block_start":
			require.Equal(t, len(blocks), ev.Index, "blocks start in order, with no gap: %s", e.Data)
			if n := len(blocks); n > 0 {
				require.True(t, blocks[n-1].Stopped, "block %d starts before block %d stops", n, n-1)
			}
			var start struct{ Type, Text, Thinking, Signature string }
			require.NoError(t, json.Unmarshal(ev.ContentBlock, &start))
			blocks = append(blocks, messagesBlock{Type: start.Type, Text: start.Text, Thinking: start.Thinking, Signature: start.Signature, Start: string(ev.ContentBlock)})
		case "content_block_delta":
			require.Less(t, ev.Index, len(blocks), "delta to a block not started: %s", e.Data)
			b := &blocks[ev.Index]
			require.False(t, b.Stopped, "delta to a stopped block: %s", e.Data)
			want := map[string]string{"text_delta": "text", "thinking_delta": "thinking", "signature_delta": "thinking", "input_json_delta": "tool_use"}[ev.Delta.Type]
			require.Equal(t, want, b.Type, "%s", e.Data)
			b.Text += ev.Delta.Text
			b.Thinking += ev.Delta.Thinking
			b.Signature += ev.Delta.Signature
			b.Input += ev.Delta.PartialJSON
		case "content_block_stop":
			require.Less(t, ev.Index, len(blocks), "stop of a block not started: %s", e.Data)
			require.False(t, blocks[ev.Index].Stopped, "stopped twice: %s", e.Data)
			blocks[ev.Index].Stopped = true
		}
	}
	return blocks
}

// rewriteEvents runs events through a fresh rewriter's Event and End,
// copying what each call returns.
func rewriteEvents(t *testing.T, rw *Rewriter, in []fake.Event, end bool) []Event {
	t.Helper()
	var out []Event
	keep := func(es []Event) {
		for _, e := range es {
			out = append(out, Event{Name: []byte(string(e.Name)), Data: []byte(string(e.Data))})
		}
	}
	for _, e := range in {
		var name []byte
		if e.Name != "" {
			name = []byte(e.Name)
		}
		keep(rw.Event(Event{Name: name, Data: []byte(e.Data)}))
	}
	if end {
		keep(rw.End())
	}
	return out
}

func TestMessagesStream(t *testing.T) {
	rw, err := New(messagesPath, WithParser("qwen3"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, fake.MessagesStream, true)
	blocks := assembleMessages(t, out)
	require.Len(t, blocks, 3)
	assert.Equal(t, messagesBlock{Type: "thinking", Thinking: fake.MessagesReasoning, Start: `{"type":"thinking","thinking":"","signature":""}`, Stopped: true}, blocks[0])
	assert.Equal(t, messagesBlock{Type: "text", Text: fake.MessagesText, Start: `{"type":"text","text":""}`, Stopped: true}, blocks[1])
	assert.Equal(t, "tool_use", blocks[2].Type)
	assert.Equal(t, fake.MessagesToolInput, blocks[2].Input)
	assert.JSONEq(t, `{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}`, blocks[2].Start)

	// The events that carry no text pass through as they came; the
	// text block's events are renumbered.
	datas := make([]string, len(out))
	for i, e := range out {
		datas[i] = string(e.Data)
	}
	for _, e := range []fake.Event{fake.MessageStart("msg_1"), fake.Ping, fake.MessageDelta("tool_use", 28), fake.MessageStop} {
		assert.Contains(t, datas, e.Data)
	}
	assert.Contains(t, datas, fake.InputJSONDelta(2, `{"city":`).Data)
	assert.Equal(t, fake.MessageStop.Data, datas[len(datas)-1])
}

// TestMessagesStreamCutAnywhere: whatever the cuts between events, the
// blocks carry the parser's split of the whole text.
func TestMessagesStreamCutAnywhere(t *testing.T) {
	const text = "<think>a</think>b"
	for cut := 0; cut <= len(text); cut++ {
		for _, end := range []string{"stop", "end", "nothing"} {
			events := []fake.Event{fake.MessageStart("m"), fake.TextStart(0)}
			for _, piece := range []string{text[:cut], text[cut:]} {
				if piece != "" {
					events = append(events, fake.TextDelta(0, piece))
				}
			}
			switch end {
			case "stop":
				events = append(events, fake.BlockStop(0), fake.MessageDelta("end_turn", 5), fake.MessageStop)
			case "end": // message_delta without the block's stop
				events = append(events, fake.MessageDelta("end_turn", 5))
			}
			rw, err := New(messagesPath, WithParser("deepseek_r1"))
			require.NoError(t, err)
			blocks := assembleMessages(t, rewriteEvents(t, rw, events, true))
			name := fmt.Sprintf("cut %d, %s", cut, end)
			require.Len(t, blocks, 2, name)
			assert.Equal(t, "a", blocks[0].Thinking, name)
			assert.Equal(t, "b", blocks[1].Text, name)
			assert.Equal(t, end == "stop", blocks[1].Stopped, name)
		}
	}
}

// TestMessagesReasoningOnly: a text block that is all reasoning becomes a
// thinking block alone, and the blocks after it move up.
func TestMessagesReasoningOnly(t *testing.T) {
	rw, err := New(messagesPath, WithParser("qwen3"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, []fake.Event{
		fake.MessageStart("m"), fake.TextStart(0), fake.TextDelta(0, "<think>plan</think>"), fake.BlockStop(0),
		fake.ToolUseStart(1, "t", "f"), fake.InputJSONDelta(1, "{}"), fake.BlockStop(1), fake.MessageDelta("tool_use", 3), fake.MessageStop,
	}, true)
	blocks := assembleMessages(t, out)
	require.Len(t, blocks, 2)
	assert.Equal(t, "plan", blocks[0].Thinking)
	assert.Equal(t, "tool_use", blocks[1].Type)
}

// TestMessagesUpstreamSplit: a stream whose upstream sends thinking blocks
// itself goes through byte for byte.
func TestMessagesUpstreamSplit(t *testing.T) {
	in := []fake.Event{
		fake.MessageStart("m"), fake.ThinkingStart(0), fake.ThinkingDelta(0, "plan"), fake.BlockStop(0),
		fake.TextStart(1), fake.TextDelta(1, "<think>is text here"), fake.BlockStop(1), fake.MessageDelta("end_turn", 3), fake.MessageStop,
	}
	rw, err := New(messagesPath, WithParser("qwen3"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, in, true)
	require.Len(t, out, len(in))
	for i := range in {
		assert.Equal(t, in[i].Data, string(out[i].Data))
	}
}

// TestMessagesSSE runs a Messages stream through Stream, in SSE framing
// with event lines, cut anywhere.
func TestMessagesSSE(t *testing.T) {
	var raw strings.Builder
	for _, e := range fake.MessagesStream {
		fmt.Fprintf(&raw, "event: %s\ndata: %s\n\n", e.Name, e.Data)
	}
	rw, err := New(messagesPath, WithParser("qwen3"))
	require.NoError(t, err)
	got, err := io.ReadAll(rw.Stream(strings.NewReader(raw.String())))
	require.NoError(t, err)
	var events []Event
	for _, block := range strings.Split(strings.TrimSuffix(string(got), "\n\n"), "\n\n") {
		name, data, ok := strings.Cut(block, "\ndata: ")
		require.True(t, ok, "%q", block)
		events = append(events, Event{Name: []byte(strings.TrimPrefix(name, "event: ")), Data: []byte(data)})
	}
	blocks := assembleMessages(t, events)
	require.Len(t, blocks, 3)
	assert.Equal(t, fake.MessagesReasoning, blocks[0].Thinking)
	assert.Equal(t, fake.MessagesText, blocks[1].Text)
}

func TestMessagesBody(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"split", `[{"type":"text","text":"<think>plan</think>done"},{"type":"tool_use","id":"t","name":"f","input":{}}]`,
			`[{"type":"thinking","thinking":"plan","signature":""},{"type":"text","text":"done"},{"type":"tool_use","id":"t","name":"f","input":{}}]`},
		{"only reasoning", `[{"type":"text","text":"<think>plan"}, {"type":"tool_use","id":"t","name":"f","input":{}}]`,
			`[{"type":"thinking","thinking":"plan","signature":""}, {"type":"tool_use","id":"t","name":"f","input":{}}]`},
		{"other members kept", `[{"type":"text","text":"<think>r</think>c","citations":null}]`,
			`[{"type":"thinking","thinking":"r","signature":""},{"type":"text","text":"c","citations":null}]`},
		{"truncated in reasoning", `[{"type":"text","text":"plain"}]`, `[{"type":"thinking","thinking":"plain","signature":""}]`},
		{"marker stripped", `[{"type":"text","text":"</think>plain"}]`, `[{"type":"text","text":"plain"}]`},
		{"upstream split", `[{"type":"thinking","thinking":"r","signature":"s"},{"type":"text","text":"<think>x"}]`, ``},
		{"no text", `[{"type":"tool_use","id":"t","name":"f","input":{}}]`, ``},
	} {
		body := `{"id":"m","type":"message","content":` + c.content + `,"usage":{"output_tokens":3}}`
		rw, err := New(messagesPath, WithParser("deepseek_r1"))
		require.NoError(t, err)
		got := string(rw.Response([]byte(body)))
		if c.want == "" {
			assert.Equal(t, body, got, c.name)
			continue
		}
		assert.Equal(t, `{"id":"m","type":"message","content":`+c.want+`,"usage":{"output_tokens":3}}`, got, c.name)
	}
}

func TestMessagesRequest(t *testing.T) {
	for _, c := range []struct {
		name, request string
		thinking      any // the decision sent upstream, nil for none
	}{
		{"enabled", `{"model":"Qwen/Qwen3-8B","thinking":{"type":"enabled","budget_tokens":2048},"messages":[]}`, true},
		{"disabled", `{"model":"Qwen/Qwen3-8B","thinking":{"type":"disabled"},"messages":[]}`, false},
		{"adaptive leaves it to the model", `{"model":"Qwen/Qwen3-8B","thinking":{"type":"adaptive"},"messages":[]}`, nil},
		{"effort", `{"model":"Qwen/Qwen3-8B","output_config":{"effort":"low"},"messages":[]}`, true},
		{"thinking type over effort", `{"model":"Qwen/Qwen3-8B","thinking":{"type":"disabled"},"output_config":{"effort":"high"},"messages":[]}`, false},
		{"chat_template_kwargs over thinking type", `{"model":"Qwen/Qwen3-8B","thinking":{"type":"enabled","budget_tokens":1024},"chat_template_kwargs":{"enable_thinking":false},"messages":[]}`, false},
	} {
		rw, err := New(messagesPath)
		require.NoError(t, err)
		got, err := rw.Request([]byte(c.request))
		require.NoError(t, err, c.name)
		var req struct {
			Thinking json.RawMessage
			Kwargs   map[string]any `json:"chat_template_kwargs"`
		}
		require.NoError(t, json.Unmarshal(got, &req), c.name)
		assert.Equal(t, c.thinking, req.Kwargs["enable_thinking"], c.name)
		var in struct{ Thinking json.RawMessage }
		json.Unmarshal([]byte(c.request), &in)
		assert.Equal(t, string(in.Thinking), string(req.Thinking), "%s: thinking (and its budget) goes upstream as it came", c.name)
	}
}

func TestMessagesHistory(t *testing.T) {
	const request = `{"model":"Qwen/Qwen3-8B","messages":[` +
		`{"role":"user","content":"q1"},` +
		`{"role":"assistant","content":[{"type":"thinking","thinking":"r1","signature":""},{"type":"text","text":"a1"}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"sunny"}]},` +
		`{"role":"assistant","content":[{"type":"redacted_thinking","data":"xx"},{"type":"thinking","thinking":"r2","signature":"sig"},{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
		`{"role":"assistant","content":"a3"}]}`
	for _, c := range []struct {
		history  History
		messages string
	}{
		{HistoryDrop, `[{"role":"user","content":"q1"},` +
			`{"role":"assistant","content":[{"type":"text","text":"a1"}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"sunny"}]},` +
			`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
			`{"role":"assistant","content":"a3"}]`},
		{HistoryRender, `[{"role":"user","content":"q1"},` +
			`{"role":"assistant","content":[{"type":"text","text":"<think>r1</think>a1"}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"sunny"}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"<think>r2</think>"},{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
			`{"role":"assistant","content":"a3"}]`},
	} {
		rw, err := New(messagesPath, WithHistory(c.history))
		require.NoError(t, err)
		got, err := rw.Request([]byte(request))
		require.NoError(t, err)
		var req map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(got, &req))
		assert.JSONEq(t, c.messages, string(req["messages"]), c.history.String())
	}
	rw, err := New(messagesPath, WithHistory(HistoryKeep))
	require.NoError(t, err)
	got, err := rw.Request([]byte(request))
	require.NoError(t, err)
	assert.Equal(t, request, string(got))
}

func TestErrorBody(t *testing.T) {
	assert.JSONEq(t, `{"type":"error","error":{"type":"invalid_request_error","message":"bad \"x\""}}`, string(ErrorBody(messagesPath, 400, `bad "x"`)))
	assert.JSONEq(t, `{"type":"error","error":{"type":"request_too_large","message":"m"}}`, string(ErrorBody(messagesPath, 413, "m")))
	assert.JSONEq(t, `{"type":"error","error":{"type":"api_error","message":"m"}}`, string(ErrorBody(messagesPath, 502, "m")))
	assert.JSONEq(t, `{"error":{"message":"m","type":"invalid_request_error","param":null,"code":null}}`, string(ErrorBody(chatPath, 400, "m")))
	assert.JSONEq(t, `{"error":{"message":"m","type":"upstream_error","param":null,"code":null}}`, string(ErrorBody("/v1/embeddings", 502, "m")))
}

// TestMessagesErrorEvent: an error event in the middle of a stream goes
// out as it came, after the text so far.
func TestMessagesErrorEvent(t *testing.T) {
	errorEvent := fake.Event{Name: "error", Data: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	rw, err := New(messagesPath, WithParser("deepseek_r1"))
	require.NoError(t, err)
	out := rewriteEvents(t, rw, []fake.Event{fake.MessageStart("m"), fake.TextStart(0), fake.TextDelta(0, "a</think>b"), errorEvent}, false)
	require.Len(t, out, 7)
	assert.Equal(t, errorEvent.Data, string(out[6].Data))
	assert.Equal(t, "error", string(out[6].Name))
	blocks := assembleMessages(t, out[:6])
	assert.Equal(t, "a", blocks[0].Thinking)
	assert.Equal(t, "b", blocks[1].Text)
}
