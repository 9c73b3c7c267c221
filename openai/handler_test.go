package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// upstream is a fake OpenAI-compatible server. Its handler serves chat
// completions, Messages and Responses; it records every request body it
// was sent.
type upstream struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newUpstream(t *testing.T, chat http.HandlerFunc) *upstream {
	u := &upstream{}
	mux := http.NewServeMux()
	record := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.bodies = append(u.bodies, string(body))
		u.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		chat(w, r)
	}
	for _, path := range []string{"/v1/chat/completions", "/v1/messages", "/v1/responses"} {
		mux.HandleFunc(path, record)
	}
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, modelsJSON)
	})
	u.Server = httptest.NewServer(mux)
	t.Cleanup(u.Close)
	return u
}

const modelsJSON = `{"object":"list","data":[{"id":"Qwen/Qwen3-8B","object":"model","owned_by":"vllm","max_model_len":32768}]}`

func (u *upstream) lastBody(t *testing.T) map[string]any {
	u.mu.Lock()
	defer u.mu.Unlock()
	require.NotEmpty(t, u.bodies, "upstream got no request")
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(u.bodies[len(u.bodies)-1]), &m))
	return m
}

func (u *upstream) lastRaw() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.bodies[len(u.bodies)-1]
}

func (u *upstream) requests() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.bodies)
}

// openAIRateLimit is the body of the 429 the fake APIs answer the model
// "fail" with, and anthropicRateLimit Anthropic's.
const (
	openAIRateLimit    = `{"error":{"message":"slow down","type":"rate_limit","param":null,"code":"429"}}`
	anthropicRateLimit = `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`
)

// apiUpstream is a raw-text server of one API: stream serves the
// streaming requests, body (JSON) the others, and the model "fail" gets a
// 429 with failBody and the header name set to a request ID, req-7.
func apiUpstream(t *testing.T, stream http.HandlerFunc, body, failBody, name string) *upstream {
	return newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model  string
			Stream bool
		}
		json.NewDecoder(r.Body).Decode(&req)
		switch {
		case req.Model == "fail":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set(name, "req-7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, failBody)
		case req.Stream:
			stream(w, r)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}
	})
}

// startGateway serves a Handler in front of up, configured by opts.
func startGateway(t *testing.T, up *upstream, opts ...Option) *httptest.Server {
	gw := httptest.NewServer(NewHandler(mustURL(t, up.URL), append([]Option{WithErrorLog(log.New(io.Discard, "", 0))}, opts...)...))
	t.Cleanup(gw.Close)
	return gw
}

func mustURL(t testing.TB, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

// serveSSE returns a handler that streams events, each written in pieces
// of piece bytes and flushed, so that lines reach the gateway cut anywhere.
func serveSSE(piece int, events ...string) http.HandlerFunc {
	named := make([]fake.Event, len(events))
	for i, e := range events {
		named[i] = fake.Event{Data: e}
	}
	return serveEvents(piece, named...)
}

// serveEvents returns a handler that streams named events, as the
// Messages and Responses APIs send them, each written in pieces of piece
// bytes and flushed.
func serveEvents(piece int, events ...fake.Event) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		var all strings.Builder
		for _, e := range events {
			if e.Name != "" {
				all.WriteString("event: " + e.Name + "\n")
			}
			all.WriteString("data: " + e.Data + "\n\n")
		}
		s := all.String()
		for len(s) > 0 {
			n := min(piece, len(s))
			io.WriteString(w, s[:n])
			w.(http.Flusher).Flush()
			s = s[n:]
		}
	}
}

// postChat sends a chat request and returns the response.
func postChat(t *testing.T, gw *httptest.Server, body string) *http.Response {
	resp, err := http.Post(gw.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseData reads an SSE body and returns the payload of each data line.
func sseData(t *testing.T, r io.Reader) []string {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, p)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// split is what a client assembles from a stream, per choice index.
type split struct {
	Reasoning, Content string
	Finish             string
	ToolCalls          []json.RawMessage
	ReasoningContent   string // the other field, which must stay empty unless asked for
	TextAfterFinish    bool   // text arrived after the choice's finish_reason
}

// assemble decodes the chunks of a stream (ending in [DONE]) the way a
// client reads them.
func assemble(t *testing.T, data []string, field string) map[int]*split {
	require.NotEmpty(t, data)
	require.Equal(t, "[DONE]", data[len(data)-1], "the stream must end in [DONE]")
	other := map[string]string{"reasoning": "reasoning_content", "reasoning_content": "reasoning"}[field]
	out := map[int]*split{}
	for _, d := range data[:len(data)-1] {
		var c struct {
			Choices []struct {
				Index        int                        `json:"index"`
				Delta        map[string]json.RawMessage `json:"delta"`
				FinishReason *string                    `json:"finish_reason"`
			} `json:"choices"`
		}
		require.NoError(t, json.Unmarshal([]byte(d), &c), d)
		for _, ch := range c.Choices {
			s := out[ch.Index]
			if s == nil {
				s = &split{}
				out[ch.Index] = s
			}
			str := func(key string) string {
				var v string
				if raw, ok := ch.Delta[key]; ok {
					json.Unmarshal(raw, &v)
				}
				return v
			}
			text := str(field) + str("content") + str(other)
			if s.Finish != "" && text != "" {
				s.TextAfterFinish = true
			}
			s.Reasoning += str(field)
			s.Content += str("content")
			s.ReasoningContent += str(other)
			if raw, ok := ch.Delta["tool_calls"]; ok {
				s.ToolCalls = append(s.ToolCalls, raw)
			}
			if ch.FinishReason != nil {
				s.Finish = *ch.FinishReason
			}
		}
	}
	return out
}

func TestStreamSplitsWithMarkersCutAnywhere(t *testing.T) {
	up := newUpstream(t, serveSSE(7,
		fake.Chunk(fake.RoleChunkChoice),
		fake.Chunk(fake.Delta(0, "Let me th", "")),
		fake.Chunk(fake.Delta(0, "ink about 2+2.</th", "")),
		fake.Chunk(fake.Delta(0, "ink>The ans", "")),
		fake.Chunk(fake.Delta(0, "wer is 4.", "stop")),
		fake.UsageChunk,
		"[DONE]",
	))
	gw := startGateway(t, up, WithField(FieldReasoning))
	resp := postChat(t, gw, `{"model":"deepseek-ai/DeepSeek-R1-0528","stream":true,"stream_options":{"include_usage":true},"messages":[]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	data := sseData(t, resp.Body)

	got := assemble(t, data, "reasoning")
	require.Len(t, got, 1)
	assert.Equal(t, &split{Reasoning: "Let me think about 2+2.", Content: "The answer is 4.", Finish: "stop"}, got[0])

	// Every chunk keeps its envelope and unknown fields; the usage chunk
	// and the role chunk pass through byte for byte.
	for _, d := range data[:len(data)-1] {
		var c map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(d), &c))
		assert.JSONEq(t, `"chatcmpl-7"`, string(c["id"]), d)
		if _, isUsage := c["usage"]; !isUsage {
			assert.JSONEq(t, `{"trace":[1,2,3]}`, string(c["x_vendor"]), d)
		}
	}
	assert.Contains(t, data, fake.UsageChunk)
	assert.Contains(t, data, fake.Chunk(fake.RoleChunkChoice))
	// The upstream's per-choice fields survive a rewrite.
	assert.Contains(t, data[2], `"stop_reason":null`)
}

func TestStreamFinishEmitsHeldTextBeforeTheFinish(t *testing.T) {
	// Truncated inside a closing marker: the parser holds "</th" until
	// Finish, which puts it back into reasoning.
	up := newUpstream(t, serveSSE(1<<10,
		fake.Chunk(fake.Delta(0, "<think>a</th", "")),
		fake.Chunk(fake.Delta(0, "", "length")),
		"[DONE]",
	))
	gw := startGateway(t, up, WithParser("deepseek_r1"), WithField(FieldReasoning))
	data := sseData(t, postChat(t, gw, `{"model":"x","stream":true}`).Body)
	got := assemble(t, data, "reasoning")
	assert.Equal(t, &split{Reasoning: "a</th", Finish: "length"}, got[0])
	require.Len(t, data, 4)
	assert.JSONEq(t, fake.Chunk(`{"index":0,"delta":{"reasoning":"a"},"logprobs":null,"finish_reason":null,"stop_reason":null}`), data[0])
	assert.JSONEq(t, fake.Chunk(`{"index":0,"delta":{"reasoning":"</th"},"finish_reason":null}`), data[1], "held text, in a chunk of its own")
	assert.JSONEq(t, fake.Chunk(fake.Delta(0, "", "length")), data[2], "the finish, untouched")
}

func TestStreamFinishChunkWithTextKeepsOrder(t *testing.T) {
	// The finishing chunk carries text too: that text and what was held go
	// out together, before the finish.
	up := newUpstream(t, serveSSE(1<<10,
		fake.Chunk(fake.Delta(0, "<think>r</think>ans", "")),
		fake.Chunk(fake.Delta(0, "wer <", "stop")), // "<" may start <think>: held
		"[DONE]",
	))
	gw := startGateway(t, up, WithParser("glm45"), WithField(FieldReasoning))
	data := sseData(t, postChat(t, gw, `{"model":"x","stream":true}`).Body)
	assert.Equal(t, &split{Reasoning: "r", Content: "answer <", Finish: "stop"}, assemble(t, data, "reasoning")[0])
	require.Len(t, data, 4)
	assert.JSONEq(t, fake.Chunk(`{"index":0,"delta":{"content":"wer <"},"finish_reason":null}`), data[1])
	assert.JSONEq(t, fake.Chunk(`{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop","stop_reason":null}`), data[2])
}

func TestStreamDoneFinishesOpenChoices(t *testing.T) {
	// No finish_reason at all: [DONE] finishes the parser, and what it held
	// goes out before [DONE]. Without [DONE] the end of the stream does.
	for _, done := range []bool{true, false} {
		events := []string{fake.Chunk(fake.Delta(0, "<think>x</thi", ""))}
		if done {
			events = append(events, "[DONE]")
		}
		up := newUpstream(t, serveSSE(3, events...))
		gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
		data := sseData(t, postChat(t, gw, `{"model":"x","stream":true}`).Body)
		if !done {
			data = append(data, "[DONE]") // assemble wants it; the gateway invents none
			assert.Len(t, data, 3)
		}
		assert.Equal(t, &split{Reasoning: "x</thi"}, assemble(t, data, "reasoning")[0], "done=%v", done)
	}
}

func TestStreamSeveralChoices(t *testing.T) {
	up := newUpstream(t, serveSSE(5,
		fake.Chunk(`{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}`,
			`{"index":1,"delta":{"role":"assistant","content":""},"finish_reason":null}`),
		fake.Chunk(fake.Delta(1, "<think>one is", "")),
		fake.Chunk(fake.Delta(0, "<think>zero", ""), fake.Delta(1, " odd</thi", "")),
		fake.Chunk(fake.Delta(0, "</think>", ""), fake.Delta(1, "nk>ONE", "")),
		fake.Chunk(fake.Delta(0, "ZERO", "stop")),
		fake.Chunk(fake.Delta(1, "!", "stop")),
		"[DONE]",
	))
	gw := startGateway(t, up, WithField(FieldReasoningContent))
	data := sseData(t, postChat(t, gw, `{"model":"Qwen/Qwen3-8B","stream":true,"n":2}`).Body)
	got := assemble(t, data, "reasoning_content")
	if diff := cmp.Diff(map[int]*split{
		0: {Reasoning: "zero", Content: "ZERO", Finish: "stop"},
		1: {Reasoning: "one is odd", Content: "ONE!", Finish: "stop"},
	}, got); diff != "" {
		t.Errorf("choices mismatch (-want +got):\n%s", diff)
	}
}

func TestStreamToolCallPassesThrough(t *testing.T) {
	// A tool call after reasoning: the upstream's tool parser already put
	// it in tool_calls (its arguments long enough to span many reads).
	args, _ := json.Marshal(map[string]string{"city": "Paris", "note": strings.Repeat("x", 100<<10)})
	call1 := `{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}`
	call2 := `{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":` + string(mustJSON(string(args))) + `}}]},"finish_reason":null}`
	up := newUpstream(t, serveSSE(4<<10,
		fake.Chunk(fake.RoleChunkChoice),
		fake.Chunk(fake.Delta(0, "<think>I need the weather.</think>\n\n", "")),
		fake.Chunk(call1),
		fake.Chunk(call2),
		fake.Chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`),
		"[DONE]",
	))
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	data := sseData(t, postChat(t, gw, `{"model":"x","stream":true,"tools":[]}`).Body)
	got := assemble(t, data, "reasoning")[0]
	assert.Equal(t, "I need the weather.", got.Reasoning)
	assert.Equal(t, "tool_calls", got.Finish)
	assert.Contains(t, data, fake.Chunk(call1), "a tool-call chunk goes out as it came")
	assert.Contains(t, data, fake.Chunk(call2))
	require.Len(t, got.ToolCalls, 2)
}

func TestStreamUpstreamThatSplitsIsLeftAlone(t *testing.T) {
	events := []string{
		fake.Chunk(`{"index":0,"delta":{"reasoning":"thinking"},"finish_reason":null}`),
		fake.Chunk(fake.Delta(0, "answer", "stop")),
		"[DONE]",
	}
	up := newUpstream(t, serveSSE(64, events...))
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning)) // qwen3 would read "answer" as reasoning
	data := sseData(t, postChat(t, gw, `{"model":"x","stream":true}`).Body)
	assert.Equal(t, events, data)
}

func TestStreamIsNotBuffered(t *testing.T) {
	// Upstream sends its second chunk only after the client has seen the
	// first: a gateway that held the stream would never finish.
	seen := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+fake.Chunk(fake.Delta(0, "<think>first", ""))+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-seen:
		case <-time.After(5 * time.Second):
			return
		}
		io.WriteString(w, "data: "+fake.Chunk(fake.Delta(0, "</think>second", "stop"))+"\n\ndata: [DONE]\n\n")
	})
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	resp := postChat(t, gw, `{"model":"x","stream":true}`)
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, line, `"reasoning":"first"`)
	close(seen)
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	assert.Contains(t, string(rest), `"content":"second"`)
}

func TestClientDisconnectCancelsUpstream(t *testing.T) {
	cancelled := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; ; i++ {
			if _, err := io.WriteString(w, "data: "+fake.Chunk(fake.Delta(0, fmt.Sprintf("<think>%d ", i), ""))+"\n\n"); err != nil {
				break
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				close(cancelled)
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, gw.URL+"/v1/chat/completions",
		strings.NewReader(`{"model":"x","stream":true}`))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, line, `"reasoning":"0 "`)
	cancel() // the client goes away mid-stream
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("upstream request was not cancelled after the client left")
	}
}

func TestUpstreamErrorsPassThrough(t *testing.T) {
	const body = `{"error":{"message":"model \"x\" not found","type":"NotFoundError","code":404}}`
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "abc")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, body)
	})
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	for _, stream := range []string{"true", "false"} {
		resp := postChat(t, gw, `{"model":"x","stream":`+stream+`}`)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Equal(t, "abc", resp.Header.Get("X-Request-Id"))
		got, _ := io.ReadAll(resp.Body)
		assert.Equal(t, body, string(got))
	}

	// An upstream that cannot be reached is a 502 in OpenAI's error shape.
	down := newUpstream(t, nil)
	gw = startGateway(t, down, WithParser("qwen3"), WithField(FieldReasoning))
	down.Close()
	resp := postChat(t, gw, `{"model":"x"}`)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	var e struct{ Error struct{ Type string } }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.Equal(t, "upstream_error", e.Error.Type)
}

func TestNonStreaming(t *testing.T) {
	const completion = `{"id":"chatcmpl-9","object":"chat.completion","created":1750000000,"model":"m","x_vendor":[1],` +
		`"choices":[` +
		`{"index":0,"message":{"role":"assistant","content":"<think>r0</think>c0","tool_calls":[],"x_msg":true},"logprobs":null,"finish_reason":"stop"},` +
		`{"index":1,"message":{"role":"assistant","content":"<think>only reasoning","annotations":null},"finish_reason":"length"},` +
		`{"index":2,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}` +
		`],"usage":{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12}}`
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, completion)
	})
	for _, c := range []struct {
		field Field
		want  string
	}{
		{FieldReasoning, `{"role":"assistant","content":"c0","reasoning":"r0","tool_calls":[],"x_msg":true}`},
		{FieldReasoningContent, `{"role":"assistant","content":"c0","reasoning_content":"r0","tool_calls":[],"x_msg":true}`},
		{FieldBoth, `{"role":"assistant","content":"c0","reasoning":"r0","reasoning_content":"r0","tool_calls":[],"x_msg":true}`},
	} {
		gw := startGateway(t, up, WithParser("deepseek_r1"), WithField(c.field))
		resp := postChat(t, gw, `{"model":"x","n":3}`)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		body, _ := io.ReadAll(resp.Body)
		assert.Equal(t, resp.ContentLength, int64(len(body)))
		var got struct {
			Choices []map[string]json.RawMessage
			Usage   json.RawMessage
			XVendor json.RawMessage `json:"x_vendor"`
		}
		require.NoError(t, json.Unmarshal(body, &got))
		require.Len(t, got.Choices, 3)
		assert.JSONEq(t, c.want, string(got.Choices[0]["message"]), c.field.String())
		assert.JSONEq(t, `"stop"`, string(got.Choices[0]["finish_reason"]))
		if c.field == FieldReasoning {
			assert.JSONEq(t, `{"role":"assistant","content":null,"reasoning":"only reasoning","annotations":null}`, string(got.Choices[1]["message"]))
		}
		assert.JSONEq(t, `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
			string(got.Choices[2]["message"]), "a tool call passes through")
		assert.JSONEq(t, `{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12}`, string(got.Usage))
		assert.JSONEq(t, `[1]`, string(got.XVendor))
	}
}

func TestNonStreamingKeepsBytes(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c", "choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>\u00e9"},"finish_reason":"stop"}], "x":1}`)
	})
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	got, _ := io.ReadAll(postChat(t, gw, `{}`).Body)
	assert.Equal(t, `{"id":"c", "choices":[{"index":0,"message":{"role":"assistant","content":"é","reasoning":"r"},"finish_reason":"stop"}], "x":1}`, string(got))
}

func TestThinkingDefaultsGoUpstream(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"},"finish_reason":"stop"}]}`)
	})
	message := func(resp *http.Response) map[string]any {
		var got struct {
			Choices []struct{ Message map[string]any }
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
		return got.Choices[0].Message
	}

	// No defaults and no controls: the request goes upstream byte for byte.
	gw := startGateway(t, up, WithField(FieldReasoning))
	const plain = `{"model":"Qwen/Qwen3-8B", "messages":[{"role":"user","content":"<b>hi</b>"}]}`
	postChat(t, gw, plain)
	assert.Equal(t, plain, up.lastRaw())

	// The deployment disables thinking: upstream is told in every dialect,
	// and the parser reads the output as content.
	gw = startGateway(t, up, WithField(FieldReasoning), WithThinkingDefaults(reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled}))
	resp := postChat(t, gw, `{"model":"Qwen/Qwen3-8B","messages":[{"role":"user","content":"<b>hi</b>"}],"x_extra":{"k":1}}`)
	assert.Equal(t, map[string]any{"thinking": false, "enable_thinking": false, "thinking_mode": "disabled", "reasoning": false, "think": false},
		up.lastBody(t)["chat_template_kwargs"])
	assert.Equal(t, `{"model":"Qwen/Qwen3-8B","messages":[{"role":"user","content":"<b>hi</b>"}],"x_extra":{"k":1},`+
		`"chat_template_kwargs":{"enable_thinking":false,"reasoning":false,"think":false,"thinking":false,"thinking_mode":"disabled"}}`, up.lastRaw(),
		"the kwargs are added, every other byte kept")
	assert.Equal(t, map[string]any{"role": "assistant", "content": "<think>r</think>c"}, message(resp))

	// The request's own switch wins over the deployment's.
	resp = postChat(t, gw, `{"model":"Qwen/Qwen3-8B", "chat_template_kwargs" : {"enable_thinking":true,"custom":7} }`)
	assert.Equal(t, `{"model":"Qwen/Qwen3-8B", "chat_template_kwargs" : {"custom":7,"enable_thinking":true,"reasoning":true,"think":true,"thinking":true,"thinking_mode":"enabled"} }`,
		up.lastRaw(), "the kwargs replaced in place")
	assert.Equal(t, map[string]any{"role": "assistant", "reasoning": "r", "content": "c"}, message(resp))

	// Deployment default kwargs outrank the mode.
	gw = startGateway(t, up, WithField(FieldReasoning), WithThinkingDefaults(reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled, ChatTemplateKwargs: map[string]any{"thinking": true}}))
	postChat(t, gw, `{"model":"Qwen/Qwen3-8B","reasoning_effort":null}`)
	assert.Equal(t, map[string]any{"thinking": true, "enable_thinking": true, "thinking_mode": "enabled", "reasoning": true, "think": true},
		up.lastBody(t)["chat_template_kwargs"])
}

func TestRequestsItCannotParse(t *testing.T) {
	const raw = `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"},"finish_reason":"stop"}]}`
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, raw)
	})
	gw := startGateway(t, up, WithField(FieldReasoning))
	for _, body := range []string{
		`{"model":"meta-llama/Llama-3.1-8B-Instruct"}`, // no parser for the model
		`not json`,
		`{"model":"Qwen/Qwen3-8B","chat_template_kwargs":[1]}`, // upstream's to reject
	} {
		resp := postChat(t, gw, body)
		got, _ := io.ReadAll(resp.Body)
		assert.Equal(t, raw, string(got), body)
	}

	// Kwargs the parser rejects are the client's error; upstream never sees them.
	before := up.requests()
	resp := postChat(t, gw, `{"model":"IFM/K2-Horizon-36B","reasoning_effort":"none"}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	got, _ := io.ReadAll(resp.Body)
	assert.Contains(t, string(got), `unsupported reasoning_effort`)
	assert.Equal(t, "false", resp.Header.Get("X-Should-Retry"))
	assert.Equal(t, before, up.requests())
}

// TestHandlerMisconfigured: options that name an unknown parser get every
// request to a rewritten path a 500, which openai-go, with its default
// retries, does not send again; other paths still work.
func TestHandlerMisconfigured(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("upstream got %s %s", r.Method, r.URL.Path)
	})
	var attempts atomic.Int32
	handler := NewHandler(mustURL(t, up.URL), WithParser("qwen-4"), WithErrorLog(log.New(io.Discard, "", 0)))
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(gw.Close)
	client := openai.NewClient(option.WithBaseURL(gw.URL+"/v1"), option.WithAPIKey("none"))
	_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "Qwen/Qwen3-8B", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "qwen-4")
	assert.EqualValues(t, 1, attempts.Load())
	assert.Zero(t, up.requests())

	resp, err := http.Get(gw.URL + "/v1/models")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// roundTripFunc is an http.RoundTripper in a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestHandlerUpstreamTransport: the Handler calls upstream, on rewritten
// paths and others, through WithUpstreamTransport's RoundTripper, and
// answers 502 with its error.
func TestHandlerUpstreamTransport(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"},"finish_reason":"stop"}]}`)
	})
	counter := &countingTransport{next: http.DefaultTransport}
	gw := startGateway(t, up, WithUpstreamTransport(counter), WithField(FieldReasoning))
	got, _ := io.ReadAll(postChat(t, gw, `{"model":"Qwen/Qwen3-8B"}`).Body)
	assert.JSONEq(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"c","reasoning":"r"},"finish_reason":"stop"}]}`, string(got))
	resp, err := http.Get(gw.URL + "/v1/models")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.EqualValues(t, 2, counter.n.Load())

	refused := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("the gateway's own transport says no")
	})
	gw = startGateway(t, up, WithUpstreamTransport(refused))
	resp = postChat(t, gw, `{"model":"Qwen/Qwen3-8B"}`)
	got, _ = io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Contains(t, string(got), "the gateway's own transport says no")
}

func TestOtherPathsPassThrough(t *testing.T) {
	up := newUpstream(t, nil)
	gw := startGateway(t, up, WithField(FieldReasoning))
	resp, err := http.Get(gw.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, modelsJSON, string(got))

	resp, err = http.Get(gw.URL + "/nowhere")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// openaiClient is the official Go client pointed at the gateway.
func openaiClient(gw *httptest.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(gw.URL+"/v1"), option.WithAPIKey("none"), option.WithMaxRetries(0))
}

func TestOpenAIClientStream(t *testing.T) {
	up := newUpstream(t, serveSSE(9,
		fake.Chunk(fake.RoleChunkChoice),
		fake.Chunk(fake.Delta(0, "<think>\nThe user greets me.\n</thi", "")),
		fake.Chunk(fake.Delta(0, "nk>\n\nHello", "")),
		fake.Chunk(fake.Delta(0, "!", "stop")),
		"[DONE]",
	))
	gw := startGateway(t, up, WithField(FieldReasoningContent))
	client := openaiClient(gw)
	stream := client.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model:    "Qwen/Qwen3-8B",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	}, option.WithJSONSet("chat_template_kwargs", map[string]any{"enable_thinking": true}))
	var reasoningText, content, finish string
	acc := openai.ChatCompletionAccumulator{}
	for stream.Next() {
		c := stream.Current()
		acc.AddChunk(c)
		for _, ch := range c.Choices {
			if f, ok := ch.Delta.JSON.ExtraFields["reasoning_content"]; ok {
				var s string
				require.NoError(t, json.Unmarshal([]byte(f.Raw()), &s))
				reasoningText += s
			}
			_, wrong := ch.Delta.JSON.ExtraFields["reasoning"]
			assert.False(t, wrong, "only the field asked for")
			content += ch.Delta.Content
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	require.NoError(t, stream.Err())
	assert.Equal(t, "\nThe user greets me.\n", reasoningText)
	assert.Equal(t, "\n\nHello!", content)
	assert.Equal(t, "stop", finish)
	assert.Equal(t, "\n\nHello!", acc.Choices[0].Message.Content)
	_, accumulated := acc.Choices[0].Message.JSON.ExtraFields["reasoning_content"]
	assert.False(t, accumulated, "openai-go's ChatCompletionAccumulator leaves reasoning out, as the README says")
	assert.Equal(t, map[string]any{"enable_thinking": true, "thinking": true, "thinking_mode": "enabled", "reasoning": true, "think": true},
		up.lastBody(t)["chat_template_kwargs"])
}

func TestOpenAIClientNonStreamingAndErrors(t *testing.T) {
	var fail atomic.Bool
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if fail.Load() {
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit","param":null,"code":"429"}}`)
			return
		}
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"openai/gpt-oss-20b","choices":[`+
			`{"index":0,"message":{"role":"assistant","content":"<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>Done."},"finish_reason":"stop"}]}`)
	})
	gw := startGateway(t, up, WithField(FieldReasoning))
	client := openaiClient(gw)
	params := openai.ChatCompletionNewParams{
		Model:    "openai/gpt-oss-20b",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	}
	got, err := client.Chat.Completions.New(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, "Done.", got.Choices[0].Message.Content)
	assert.JSONEq(t, `"Think."`, got.Choices[0].Message.JSON.ExtraFields["reasoning"].Raw())

	fail.Store(true)
	_, err = client.Chat.Completions.New(context.Background(), params)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "slow down", apiErr.Message)

	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	assert.False(t, stream.Next())
	require.ErrorAs(t, stream.Err(), &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
