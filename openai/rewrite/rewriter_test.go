package rewrite

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

const chatPath = "/v1/chat/completions"

func chatRewriter(t testing.TB, opts ...Option) *Rewriter {
	t.Helper()
	rw, err := New(chatPath, opts...)
	require.NoError(t, err)
	return rw
}

func TestNewErrors(t *testing.T) {
	_, err := New("/v1/embeddings")
	assert.ErrorIs(t, err, ErrUnsupportedPath)
	_, err = New(chatPath, WithParser("qwen-4"))
	assert.ErrorIs(t, err, reasoning.ErrUnknownParser)
	_, err = New(chatPath, WithParser("k2_horizon"),
		WithThinkingDefaults(reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"reasoning_effort": "none"}}))
	assert.ErrorIs(t, err, reasoning.ErrUnsupportedConfig)
	_, err = New(chatPath, WithField(Field(9)))
	assert.ErrorContains(t, err, "Field(9)")

	for _, path := range []string{"/v1/chat/completions", "/chat/completions", "/openai/deployments/x/chat/completions"} {
		_, err := New(path)
		assert.NoError(t, err, path)
	}
}

// TestNormalization: whoever split the text, the response carries
// reasoning in the fields configured, and only there.
func TestNormalization(t *testing.T) {
	const (
		onlyReasoning = `{"role":"assistant","content":"c","reasoning":"r"}`
		onlyRC        = `{"role":"assistant","content":"c","reasoning_content":"r"}`
		both          = `{"role":"assistant","content":"c","reasoning":"r","reasoning_content":"r"}`
		nullRC        = `{"role":"assistant","content":"c","reasoning":"r","reasoning_content":null}`
		noReasoning   = `{"role":"assistant","content":"c","reasoning_content":null}`
	)
	for _, c := range []struct {
		name     string
		field    Field
		upstream string
		want     string // "" for the input, untouched
		noParser bool   // with a parser, content without reasoning is split instead
	}{
		{"vLLM 0.16 to both", FieldBoth, onlyReasoning, both, false},
		{"DeepSeek to both", FieldBoth, onlyRC, both, false},
		{"both kept", FieldBoth, both, "", false},
		{"null filled", FieldBoth, nullRC, both, false},
		{"nothing to normalise", FieldBoth, noReasoning, "", true},
		{"vLLM 0.16 for go-openai", FieldReasoningContent, onlyReasoning, onlyRC, false},
		{"DeepSeek kept for go-openai", FieldReasoningContent, onlyRC, "", false},
		{"both to one", FieldReasoningContent, both, onlyRC, false},
		{"DeepSeek for a reasoning reader", FieldReasoning, onlyRC, onlyReasoning, false},
		{"null left alone", FieldReasoning, nullRC, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.upstream
			}
			// A model no parser serves is normalised only; so is a choice
			// whose upstream split it, whatever the parser.
			variants := [][]Option{{WithField(c.field)}, {WithField(c.field), WithParser("qwen3")}}
			if c.noParser {
				variants = variants[:1]
			}
			for _, opts := range variants {
				body := `{"id":"x","choices":[{"index":0,"message":` + c.upstream + `,"finish_reason":"stop"}]}`
				got := chatRewriter(t, opts...).Response([]byte(body))
				assert.JSONEq(t, `{"id":"x","choices":[{"index":0,"message":`+want+`,"finish_reason":"stop"}]}`, string(got))
				if c.want == "" {
					assert.Equal(t, body, string(got), "byte for byte")
				}

				rw := chatRewriter(t, opts...)
				deltaIn := strings.Replace(strings.Replace(c.upstream, `"role":"assistant",`, "", 1), `"content":"c",`, "", 1)
				deltaWant := strings.Replace(strings.Replace(want, `"role":"assistant",`, "", 1), `"content":"c",`, "", 1)
				in := fake.Chunk(`{"index":0,"delta":` + deltaIn + `,"finish_reason":null}`)
				out := rw.Event(Event{Data: []byte(in)})
				require.Len(t, out, 1)
				assert.JSONEq(t, fake.Chunk(`{"index":0,"delta":`+deltaWant+`,"finish_reason":null}`), string(out[0].Data), "stream")
			}
		})
	}
}

// TestDefaultFieldIsBoth: text the package splits goes to both fields
// unless an option picks one.
func TestDefaultFieldIsBoth(t *testing.T) {
	rw := chatRewriter(t, WithParser("deepseek_r1"))
	got := rw.Response([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"}}]}`))
	assert.Equal(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"c","reasoning":"r","reasoning_content":"r"}}]}`, string(got))
}

func TestHistory(t *testing.T) {
	const request = `{"model":"Qwen/Qwen3-8B","messages":[` +
		`{"role":"user","content":"q1"},` +
		`{"role":"assistant","content":"a1","reasoning_content":"r1"},` +
		`{"role":"assistant","reasoning":"r2","content":null,"tool_calls":[{"id":"c"}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"a3"}],"reasoning":"r3","reasoning_content":"r3"},` +
		`{"role":"assistant","content":"a4","reasoning":null},` +
		`{"role":"user","content":"q2","reasoning":"not an assistant's"}]}`
	for _, c := range []struct {
		history  History
		parser   string
		messages string
	}{
		{HistoryDrop, "qwen3", `[{"role":"user","content":"q1"},` +
			`{"role":"assistant","content":"a1"},` +
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c"}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"a3"}]},` +
			`{"role":"assistant","content":"a4"},` +
			`{"role":"user","content":"q2","reasoning":"not an assistant's"}]`},
		{HistoryRender, "qwen3", `[{"role":"user","content":"q1"},` +
			`{"role":"assistant","content":"<think>r1</think>a1"},` +
			`{"role":"assistant","content":"<think>r2</think>","tool_calls":[{"id":"c"}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"<think>r3</think>"},{"type":"text","text":"a3"}]},` +
			`{"role":"assistant","content":"a4"},` +
			`{"role":"user","content":"q2","reasoning":"not an assistant's"}]`},
		{HistoryRender, "seed_oss", `[{"role":"user","content":"q1"},` +
			`{"role":"assistant","content":"<seed:think>r1</seed:think>a1"},` +
			`{"role":"assistant","content":"<seed:think>r2</seed:think>","tool_calls":[{"id":"c"}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"<seed:think>r3</seed:think>"},{"type":"text","text":"a3"}]},` +
			`{"role":"assistant","content":"a4"},` +
			`{"role":"user","content":"q2","reasoning":"not an assistant's"}]`},
		{HistoryRender, "openai_gptoss", `[{"role":"user","content":"q1"},` + // no markers to render with: dropped
			`{"role":"assistant","content":"a1"},` +
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c"}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"a3"}]},` +
			`{"role":"assistant","content":"a4"},` +
			`{"role":"user","content":"q2","reasoning":"not an assistant's"}]`},
	} {
		t.Run(c.history.String()+"/"+c.parser, func(t *testing.T) {
			got, err := chatRewriter(t, WithParser(c.parser), WithHistory(c.history)).Request([]byte(request))
			require.NoError(t, err)
			var req map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(got, &req))
			assert.JSONEq(t, c.messages, string(req["messages"]))
		})
	}

	got, err := chatRewriter(t, WithParser("qwen3"), WithHistory(HistoryKeep)).Request([]byte(request))
	require.NoError(t, err)
	assert.Equal(t, request, string(got), "keep: byte for byte")
	got, err = chatRewriter(t).Request([]byte(strings.Replace(request, "Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", 1)))
	require.NoError(t, err)
	assert.Contains(t, string(got), `"reasoning_content":"r1"`, "a model no parser serves: the request goes as it came")
}

// TestHistoryRenderRoundTrips: for every family with a closing marker, the
// parser splits what HistoryRender wrote back into the reasoning and the
// content it came from, with thinking on.
func TestHistoryRenderRoundTrips(t *testing.T) {
	for _, name := range reasoning.Names() {
		info, _ := reasoning.Default.Info(name)
		if len(info.Closes) == 0 {
			continue
		}
		if why, ok := renderExceptions[name]; ok {
			t.Logf("%s: not checked: %s", name, why)
			continue
		}
		t.Run(name, func(t *testing.T) {
			rw, err := New(chatPath, WithParser(name), WithHistory(HistoryRender))
			if errors.Is(err, reasoning.ErrUnsupportedConfig) {
				t.Skipf("%s cannot be built without model files: %v", name, err)
			}
			require.NoError(t, err)
			got, err := rw.Request([]byte(`{"messages":[{"role":"assistant","content":"The answer is 4.","reasoning":"Two and two make four."}]}`))
			require.NoError(t, err)
			var req struct{ Messages []struct{ Content string } }
			require.NoError(t, json.Unmarshal(got, &req))
			kw, _ := reasoning.ResolveThinking(nil, "high", reasoning.ThinkingDefaults{}) // on in every dialect, hy_v3's effort too
			p, err := reasoning.New(name, nil, reasoning.WithChatTemplateKwargs(kw))
			require.NoError(t, err)
			m := p.Extract(req.Messages[0].Content)
			assert.Equal(t, reasoning.Message{Reasoning: "Two and two make four.", Content: "The answer is 4."},
				reasoning.Message{Reasoning: strings.TrimSpace(m.Reasoning), Content: strings.TrimSpace(m.Content)}, "%q", req.Messages[0].Content)
		})
	}
}

// renderExceptions are the families whose parser does not read back
// open+reasoning+close+content as written, and why.
var renderExceptions = map[string]string{
	"minimax_append_think": "Dynamo's parser puts its own <think> before the output, so a leading <think> is reasoning text",
	"minimax_m1":           `its closer is "\n</think>\n", newlines included, while Info.Closes lists "</think>"`,
}

// TestUntouchedEventsAllocateNothing: a chunk the rewriter leaves alone
// costs a scan and no allocation, whatever its kind; one whose text goes
// through a parser one allocation, the text as a string.
func TestUntouchedEventsAllocateNothing(t *testing.T) {
	for _, c := range benchChunks {
		rw := newBenchRewriter(t, c.opts, c.start)
		e := Event{Data: []byte(c.data)}
		out := rw.Event(e)
		require.Len(t, out, 1, c.name)
		assert.Equal(t, c.touched, rw.out.changed, c.name)
		if c.touched {
			continue
		}
		assert.Equal(t, c.data, string(out[0].Data), c.name)
		want := 0.0
		if c.parsed {
			want = 1
		}
		assert.Equal(t, want, testing.AllocsPerRun(100, func() { rw.Event(e) }), "%s: allocations per untouched chunk", c.name)
	}
}

// TestBadInput: what is not a chat chunk passes through; nothing panics.
func TestBadInput(t *testing.T) {
	for _, data := range []string{
		"", "not json", "[DONE", `{"choices":`, `{"choices":[{"index":0,"delta":{"content":"<think>x"}}]}}`,
		`{"choices":[{"index":-1,"delta":{"content":"<think>x"}}]}`,
		`{"choices":[{"index":1e3,"delta":{"content":"<think>x"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":7}}]}`,
		`{"choices":[{"index":0,"delta":"text"}]}`,
		`{"choices":{"index":0}}`, `[]`, `"x"`,
	} {
		rw := chatRewriter(t, WithParser("qwen3"))
		out := rw.Event(Event{Data: []byte(data)})
		require.Len(t, out, 1, data)
		assert.Equal(t, data, string(out[0].Data), data)
		assert.Equal(t, data, string(rw.Response([]byte(data))), data)
	}

	// An event longer than the limit ends the stream with an error.
	huge := "data: " + strings.Repeat("x", maxEventBytes) + "\n\n"
	rw := chatRewriter(t, WithParser("qwen3"))
	_, err := io.ReadAll(rw.Stream(strings.NewReader("data: [DONE]\n\n" + huge)))
	assert.ErrorIs(t, err, errEventTooLong)
}

// TestStreamEvents: Event on named events (as other APIs send them), and
// several data lines joined.
func TestStreamEvents(t *testing.T) {
	rw := chatRewriter(t, WithParser("deepseek_r1"), WithField(FieldReasoning))
	got, err := io.ReadAll(rw.Stream(strings.NewReader(
		"event: chunk\nid: 1\ndata: {\"choices\":[{\"index\":0,\n" +
			"data: \"delta\":{\"content\":\"r</think>c\"}}]}\n\n")))
	require.NoError(t, err)
	// The rewritten data keeps its line break: a data line for each line.
	assert.Equal(t, "event: chunk\nid: 1\ndata: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"c\",\"reasoning\":\"r\"}}]}\n\n", string(got))
	assert.Equal(t, "event: x\ndata: {}\n\n", string(Event{Name: []byte("x"), Data: []byte("{}")}.Append(nil)))
	assert.Equal(t, "data: {\ndata: \ndata: }\n\n", string(Event{Data: []byte("{\n\n}")}.Append(nil)))

	// CRLF endings, and a last event the stream cut before its line end.
	rw = chatRewriter(t, WithParser("deepseek_r1"), WithField(FieldReasoning))
	got, err = io.ReadAll(rw.Stream(strings.NewReader(
		"data: {\"choices\":\r\ndata: [{\"index\":0,\"delta\":{\"content\":\"r\"}}]}\r\n\r\n" +
			"data: {\"choices\":\ndata: [{\"index\":0,\"delta\":{\"content\":\"s</think>d\"}}]}")))
	require.NoError(t, err)
	assert.Equal(t, "data: {\"choices\":\r\ndata: [{\"index\":0,\"delta\":{\"reasoning\":\"r\"}}]}\r\n\r\n"+
		"data: {\"choices\":\ndata: [{\"index\":0,\"delta\":{\"content\":\"d\",\"reasoning\":\"s\"}}]}", string(got))
}

// FuzzRewriter feeds arbitrary data to a Rewriter as a chunk and as a
// body: its scanner must take what json.Valid takes; it must not panic,
// must leave anything that is not valid JSON alone, and whatever it writes
// must be valid JSON that differs from the input only in text members.
func FuzzRewriter(f *testing.F) {
	for _, doc := range jsonDocs {
		f.Add([]byte(doc))
	}
	f.Add([]byte(fake.Chunk(fake.Delta(0, "<think>a</think>b", ""))))
	f.Add([]byte(fake.Chunk(fake.Delta(0, "x", "stop"), fake.Delta(1, "<think>y", ""))))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":"a","content":"<think>b"}}],"choices":[]}`))
	f.Add([]byte(`{"choices":[{"delta":{"content":"\ud800<think>"}}]}`))
	f.Add([]byte(`{"choices":[{"message":{"content":"<think>a</think>b"}},{"message":{"content":null}}]}`))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"reasoning":"r","reasoning_content":null}}]}`))
	f.Add([]byte(`{"choices":[{"index":0,"message":{"reasoning_content":"r"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if scanValid(data) != json.Valid(data) {
			t.Fatalf("%q: scanner says valid=%v, encoding/json %v", data, scanValid(data), json.Valid(data))
		}
		for _, opts := range [][]Option{{WithParser("deepseek_r1")}, {WithField(FieldReasoning)}} {
			rw, err := New(chatPath, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if plain := rw.Response(data); !bytes.Equal(plain, data) {
				checkRewrite(t, data, plain, "message")
			}
			out := slices.Clone(rw.Event(Event{Data: data}))
			self, changed := rw.out.self, rw.out.changed
			out = append(out, rw.End()...)
			for i, e := range out {
				switch {
				case i == self && changed:
					checkRewrite(t, data, e.Data, "delta")
				case i == self && !bytes.Equal(e.Data, data):
					t.Fatalf("kept chunk %q came out as %q", data, e.Data)
				case i != self && !json.Valid(e.Data):
					t.Fatalf("added chunk %q is not JSON", e.Data)
				}
			}
		}
	})
}

// checkRewrite fails unless out is valid JSON that differs from in, itself
// valid, only in the text members of what holds them.
func checkRewrite(t *testing.T, in, out []byte, holder string) {
	t.Helper()
	if !json.Valid(in) {
		t.Fatalf("rewrote invalid JSON %q into %q", in, out)
	}
	var before, after map[string]any
	if json.Unmarshal(in, &before) != nil || json.Unmarshal(out, &after) != nil {
		t.Fatalf("rewrote %q into %q: not both objects", in, out)
	}
	if diff := cmp.Diff(withoutText(before, holder), withoutText(after, holder)); diff != "" {
		t.Fatalf("rewrite of %q changed more than text (-before +after):\n%s", in, diff)
	}
}

// withoutText drops content and reasoning from every message or delta of
// a completion or chunk.
func withoutText(v map[string]any, holder string) map[string]any {
	choices, _ := v["choices"].([]any)
	for _, ch := range choices {
		if ch, ok := ch.(map[string]any); ok {
			if d, ok := ch[holder].(map[string]any); ok {
				delete(d, "content")
				delete(d, "reasoning")
				delete(d, "reasoning_content")
			}
		}
	}
	return v
}
