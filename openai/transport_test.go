package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// clientStream is what the fake upstream streams to the SDK tests: two
// choices interleaved, markers cut across chunks, a tool call on choice 1,
// and a usage chunk.
var clientStream = []string{
	fake.Chunk(`{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}`,
		`{"index":1,"delta":{"role":"assistant","content":""},"finish_reason":null}`),
	fake.Chunk(fake.Delta(0, "<think>Let me th", ""), fake.Delta(1, "<think>Wea", "")),
	fake.Chunk(fake.Delta(1, "ther.</th", "")),
	fake.Chunk(fake.Delta(0, "ink.</th", "")),
	fake.Chunk(fake.Delta(1, "ink>\n\nCalling.", ""), fake.Delta(0, "ink>The answer", "")),
	fake.Chunk(`{"index":1,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}`),
	fake.Chunk(`{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":null}`),
	fake.Chunk(fake.Delta(0, " is 4 <", "stop")), // "<" could start a marker: held, then sent before the finish
	fake.Chunk(`{"index":1,"delta":{},"finish_reason":"tool_calls"}`),
	`{"id":"chatcmpl-7","object":"chat.completion.chunk","created":1750000000,"model":"m","choices":[],` +
		`"usage":{"prompt_tokens":12,"completion_tokens":28,"total_tokens":40}}`,
}

// clientWant is what a client assembles from clientStream.
var clientWant = map[int]split{
	0: {Reasoning: "Let me think.", Content: "The answer is 4 <", Finish: "stop"},
	1: {Reasoning: "Weather.", Content: "\n\nCalling.", Finish: "tool_calls"},
}

const clientCompletion = `{"id":"c","object":"chat.completion","created":1,"model":"Qwen/Qwen3-8B","choices":[` +
	`{"index":0,"message":{"role":"assistant","content":"<think>plan</think>done"},"finish_reason":"stop"},` +
	`{"index":1,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}],` +
	`"usage":{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12}}`

// clientUpstream serves clientStream (with [DONE] unless noDone) to
// streaming requests and clientCompletion to the others.
func clientUpstream(t *testing.T, noDone bool) *upstream {
	events := clientStream
	if !noDone {
		events = append(events[:len(events):len(events)], "[DONE]")
	}
	sse := serveSSE(11, events...)
	return newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Stream bool }
		json.NewDecoder(r.Body).Decode(&req)
		if req.Stream {
			sse(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, clientCompletion)
	})
}

func httpClient(opts ...Option) *http.Client {
	return &http.Client{Transport: NewTransport(nil, opts...)}
}

func TestTransportOpenAIGo(t *testing.T) {
	for _, noDone := range []bool{false, true} {
		up := clientUpstream(t, noDone)
		client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"),
			option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
		params := openai.ChatCompletionNewParams{
			Model: "Qwen/Qwen3-8B",
			N:     openai.Int(2),
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.UserMessage("What is 2+2?"),
			},
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		}
		stream := client.Chat.Completions.NewStreaming(context.Background(), params)
		got := map[int]split{}
		var usage int64
		tools := map[int]string{}
		for stream.Next() {
			c := stream.Current()
			usage += c.Usage.TotalTokens
			for _, ch := range c.Choices {
				s := got[int(ch.Index)]
				// openai-go has no typed reasoning field: it is in ExtraFields.
				for _, key := range []string{"reasoning", "reasoning_content"} {
					if f, ok := ch.Delta.JSON.ExtraFields[key]; ok {
						var text string
						require.NoError(t, json.Unmarshal([]byte(f.Raw()), &text))
						if key == "reasoning" {
							s.Reasoning += text
						} else {
							s.ReasoningContent += text
						}
					}
				}
				s.Content += ch.Delta.Content
				for _, tc := range ch.Delta.ToolCalls {
					tools[int(ch.Index)] += tc.Function.Name + tc.Function.Arguments
				}
				if ch.FinishReason != "" {
					s.Finish = ch.FinishReason
				}
				got[int(ch.Index)] = s
			}
		}
		require.NoError(t, stream.Err(), "noDone=%v", noDone)
		for i, want := range clientWant {
			want.ReasoningContent = want.Reasoning // both fields, by default
			assert.Equal(t, want, got[i], "choice %d, noDone=%v", i, noDone)
		}
		assert.Equal(t, `get_weather{"city":"Paris"}`, tools[1])
		assert.EqualValues(t, 40, usage)
	}

	up := clientUpstream(t, false)
	client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"),
		option.WithMaxRetries(0), option.WithHTTPClient(httpClient(WithField(FieldReasoning))))
	got, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "Qwen/Qwen3-8B",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	require.NoError(t, err)
	assert.Equal(t, "done", got.Choices[0].Message.Content)
	assert.JSONEq(t, `"plan"`, got.Choices[0].Message.JSON.ExtraFields["reasoning"].Raw())
	_, other := got.Choices[0].Message.JSON.ExtraFields["reasoning_content"]
	assert.False(t, other, "WithField(FieldReasoning) writes one field")
	assert.Equal(t, "f", got.Choices[1].Message.ToolCalls[0].Function.Name)
	assert.EqualValues(t, 12, got.Usage.TotalTokens)
}

func TestTransportGoOpenAI(t *testing.T) {
	for _, noDone := range []bool{false, true} {
		up := clientUpstream(t, noDone)
		cfg := goopenai.DefaultConfig("none")
		cfg.BaseURL = up.URL + "/v1"
		cfg.HTTPClient = httpClient()
		client := goopenai.NewClientWithConfig(cfg)
		stream, err := client.CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
			Model: "Qwen/Qwen3-8B",
			N:     2,
			Messages: []goopenai.ChatCompletionMessage{
				{Role: "user", Content: "What is 2+2?"},
				// go-openai sends the reasoning of earlier turns back as
				// reasoning_content; a raw-text upstream must not see it.
				{Role: "assistant", Content: "4.", ReasoningContent: "Earlier thoughts."},
				{Role: "user", Content: "And 3+3?"},
			},
			StreamOptions: &goopenai.StreamOptions{IncludeUsage: true},
		})
		require.NoError(t, err)
		got := map[int]split{}
		tools := map[int]string{}
		usage := 0
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, "noDone=%v", noDone)
			if resp.Usage != nil {
				usage += resp.Usage.TotalTokens
			}
			for _, ch := range resp.Choices {
				s := got[ch.Index]
				s.Reasoning += ch.Delta.ReasoningContent // the only field go-openai reads
				s.Content += ch.Delta.Content
				for _, tc := range ch.Delta.ToolCalls {
					tools[ch.Index] += tc.Function.Name + tc.Function.Arguments
				}
				if ch.FinishReason != "" {
					s.Finish = string(ch.FinishReason)
				}
				got[ch.Index] = s
			}
		}
		stream.Close()
		for i, want := range clientWant {
			assert.Equal(t, want, got[i], "choice %d, noDone=%v", i, noDone)
		}
		assert.Equal(t, `get_weather{"city":"Paris"}`, tools[1])
		assert.Equal(t, 40, usage)
		sent := up.lastBody(t)
		messages, _ := sent["messages"].([]any)
		require.Len(t, messages, 3)
		assert.Equal(t, map[string]any{"role": "assistant", "content": "4."}, messages[1], "earlier reasoning dropped")
	}

	up := clientUpstream(t, false)
	cfg := goopenai.DefaultConfig("none")
	cfg.BaseURL = up.URL + "/v1"
	cfg.HTTPClient = httpClient()
	resp, err := goopenai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), goopenai.ChatCompletionRequest{
		Model:    "Qwen/Qwen3-8B",
		Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
	})
	require.NoError(t, err)
	assert.Equal(t, "done", resp.Choices[0].Message.Content)
	assert.Equal(t, "plan", resp.Choices[0].Message.ReasoningContent)
	assert.Equal(t, "f", resp.Choices[1].Message.ToolCalls[0].Function.Name)
}

// TestTransportErrors: upstream's errors reach the SDKs with their status
// and headers.
func TestTransportErrors(t *testing.T) {
	const body = `{"error":{"message":"slow down","type":"rate_limit","param":null,"code":"429"}}`
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-7")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, body)
	})
	client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"),
		option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
	params := openai.ChatCompletionNewParams{Model: "Qwen/Qwen3-8B", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")}}
	_, err := client.Chat.Completions.New(context.Background(), params)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "slow down", apiErr.Message)
	assert.Equal(t, "req-7", apiErr.Response.Header.Get("X-Request-Id"))
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	assert.False(t, stream.Next())
	require.ErrorAs(t, stream.Err(), &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)

	cfg := goopenai.DefaultConfig("none")
	cfg.BaseURL = up.URL + "/v1"
	cfg.HTTPClient = httpClient()
	_, err = goopenai.NewClientWithConfig(cfg).CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
		Model: "Qwen/Qwen3-8B", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
	})
	var goErr *goopenai.APIError
	require.ErrorAs(t, err, &goErr)
	assert.Equal(t, http.StatusTooManyRequests, goErr.HTTPStatusCode)
}

// countingTransport counts the round trips it passes on.
type countingTransport struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(req)
}

// TestTransportRefusals: a request the Transport refuses (thinking
// controls the parser rejects: 400; options naming an unknown parser:
// 500) reaches openai-go and anthropic-sdk-go, with their default retries,
// as their API error with that status after one attempt, and never
// reaches upstream; go-openai reads it as its API error too.
func TestTransportRefusals(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("upstream got %s %s", r.Method, r.URL.Path)
	})
	for _, c := range []struct {
		name   string
		opts   []Option
		status int
		says   string
	}{
		{"rejected controls", nil, http.StatusBadRequest, "reasoning_effort"},
		{"unknown parser", []Option{WithParser("qwen-4")}, http.StatusInternalServerError, "qwen-4"},
	} {
		counter := &countingTransport{next: NewTransport(nil, c.opts...)}
		httpClient := &http.Client{Transport: counter}

		client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"), option.WithHTTPClient(httpClient))
		_, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
			Model: "IFM/K2-Horizon-36B", ReasoningEffort: "none",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
		})
		var apiErr *openai.Error
		require.ErrorAs(t, err, &apiErr, c.name)
		assert.Equal(t, c.status, apiErr.StatusCode, c.name)
		assert.Contains(t, apiErr.Message, c.says, c.name)
		assert.Equal(t, "false", apiErr.Response.Header.Get("X-Should-Retry"), c.name)
		assert.EqualValues(t, 1, counter.n.Swap(0), "%s: openai-go's attempts", c.name)

		anthropicClient := anthropic.NewClient(anthropicoption.WithBaseURL(up.URL), anthropicoption.WithAPIKey("none"),
			anthropicoption.WithHTTPClient(httpClient))
		params := messagesParams
		params.Model = "IFM/K2-Horizon-36B"
		params.Thinking = anthropic.ThinkingConfigParamUnion{}
		params.OutputConfig = anthropic.OutputConfigParam{Effort: "none"}
		_, err = anthropicClient.Messages.New(context.Background(), params)
		var anthropicErr *anthropic.Error
		require.ErrorAs(t, err, &anthropicErr, c.name)
		assert.Equal(t, c.status, anthropicErr.StatusCode, c.name)
		assert.Contains(t, anthropicErr.Error(), c.says, c.name)
		assert.EqualValues(t, 1, counter.n.Swap(0), "%s: anthropic-sdk-go's attempts", c.name)

		cfg := goopenai.DefaultConfig("none")
		cfg.BaseURL = up.URL + "/v1"
		cfg.HTTPClient = httpClient
		_, err = goopenai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), goopenai.ChatCompletionRequest{
			Model: "IFM/K2-Horizon-36B", ReasoningEffort: "none", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
		})
		var goErr *goopenai.APIError
		require.ErrorAs(t, err, &goErr, c.name)
		assert.Equal(t, c.status, goErr.HTTPStatusCode, c.name)
		assert.EqualValues(t, 1, counter.n.Swap(0), "%s: go-openai's attempts", c.name)
	}
	assert.Zero(t, up.requests(), "never sent")
}

// TestTransportLeavesTheRequestAlone: a RoundTripper must not modify the
// request it is given; the rewritten one is a clone.
func TestTransportLeavesTheRequestAlone(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Empty(t, r.Header.Get("X-Not-Forwarded"))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"},"finish_reason":"stop"}]}`)
	})
	const sent = `{"model":"Qwen/Qwen3-8B","messages":[{"role":"assistant","content":"a","reasoning":"old"}]}`
	req, err := http.NewRequest(http.MethodPost, up.URL+"/v1/chat/completions", strings.NewReader(sent))
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "gzip")
	header, length, u := req.Header.Clone(), req.ContentLength, *req.URL
	resp, err := NewTransport(nil, WithThinkingDefaults(reasoning.ThinkingDefaults{Mode: reasoning.ThinkingEnabled})).RoundTrip(req)
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.JSONEq(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"c","reasoning":"r","reasoning_content":"r"},"finish_reason":"stop"}]}`, string(got))
	assert.Equal(t, header, req.Header)
	assert.Equal(t, length, req.ContentLength)
	assert.Equal(t, u, *req.URL)
	upstreamGot := up.lastBody(t)
	assert.Equal(t, []any{map[string]any{"role": "assistant", "content": "a"}}, upstreamGot["messages"])
	assert.Equal(t, true, upstreamGot["chat_template_kwargs"].(map[string]any)["enable_thinking"])

	// Other paths and methods go through untouched.
	resp, err = httpClient().Get(up.URL + "/v1/models")
	require.NoError(t, err)
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, modelsJSON, string(got))
}
