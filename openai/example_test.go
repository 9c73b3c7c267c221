package openai_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	reasoningopenai "github.com/reasoning-go/reasoning/openai"
)

// rawTextServer is an OpenAI-compatible server that returns a reasoning
// model's raw text, as a vLLM without --reasoning-parser does: a plain
// chat completion, or the same text streamed in pieces that cut the
// markers; a plain Responses API response; a streamed Messages response.
func rawTextServer() *httptest.Server {
	const text = "<think>2 + 2 is 4.</think>The answer is 4."
	pieces := []string{"<think>2 + 2", " is 4.</th", "ink>The answer is 4."}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		stream := strings.Contains(string(body), `"stream":true`)
		switch {
		case r.URL.Path == "/v1/responses":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"resp_1","object":"response","status":"completed","model":"Qwen/Qwen3-8B","output":[`+
				`{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":%q,"annotations":[]}]}]}`, text)
		case r.URL.Path == "/v1/messages":
			w.Header().Set("Content-Type", "text/event-stream")
			event := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
			event("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"Qwen/Qwen3-8B"}}`)
			event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			for _, piece := range pieces {
				event("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, piece))
			}
			event("content_block_stop", `{"type":"content_block_stop","index":0}`)
			event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}`)
			event("message_stop", `{"type":"message_stop"}`)
		case !stream:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"Qwen/Qwen3-8B","choices":[`+
				`{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, text)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			for _, piece := range pieces {
				fmt.Fprintf(w, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", piece)
			}
			io.WriteString(w, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
		}
	}))
}

// A Go program reads split reasoning through openai-go by changing only
// its HTTP client (go-openai takes the same client as
// ClientConfig.HTTPClient). openai-go has no typed field for reasoning: it
// is in the message's ExtraFields, as raw JSON.
func ExampleNewTransport() {
	server := rawTextServer() // e.g. vllm serve Qwen/Qwen3-8B, without --reasoning-parser
	defer server.Close()

	httpClient := &http.Client{Transport: reasoningopenai.NewTransport(http.DefaultTransport)}
	client := openai.NewClient(option.WithBaseURL(server.URL+"/v1"), option.WithHTTPClient(httpClient))
	completion, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "Qwen/Qwen3-8B", // picks the qwen3 parser; reasoningopenai.WithParser names one
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is 2+2?")},
	})
	if err != nil {
		log.Fatal(err)
	}
	message := completion.Choices[0].Message
	var reasoning string // ExtraFields holds the member's raw JSON, a quoted string
	if field, ok := message.JSON.ExtraFields["reasoning"]; ok {
		if err := json.Unmarshal([]byte(field.Raw()), &reasoning); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("reasoning:", reasoning)
	fmt.Println("content:", message.Content)
	// Output:
	// reasoning: 2 + 2 is 4.
	// content: The answer is 4.
}

// A gateway serves the Handler in front of the raw-text server; here a
// client streams through it. Each choice's reasoning is written to both
// fields (WithField picks one), and the text a parser held back goes out
// before the chunk that finishes its choice.
func ExampleNewHandler() {
	server := rawTextServer()
	defer server.Close()
	upstream, _ := url.Parse(server.URL)

	gateway := httptest.NewServer(reasoningopenai.NewHandler(upstream, reasoningopenai.WithField(reasoningopenai.FieldReasoning)))
	defer gateway.Close()
	resp, err := http.Post(gateway.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"Qwen/Qwen3-8B","stream":true,"messages":[{"role":"user","content":"What is 2+2?"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if lines.Text() != "" {
			fmt.Println(lines.Text())
		}
	}
	// Output:
	// data: {"id":"c1","choices":[{"index":0,"delta":{"reasoning":"2 + 2"},"finish_reason":null}]}
	// data: {"id":"c1","choices":[{"index":0,"delta":{"reasoning":" is 4."},"finish_reason":null}]}
	// data: {"id":"c1","choices":[{"index":0,"delta":{"content":"The answer is 4."},"finish_reason":null}]}
	// data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}
	// data: [DONE]
}

// Anthropic Messages through the Handler: the raw text block becomes a
// thinking block (its signature empty: nobody but Anthropic can sign)
// and a text block, events and indexes as the API streams them.
func ExampleNewHandler_messages() {
	server := rawTextServer() // e.g. vllm serve Qwen/Qwen3-8B, which serves /v1/messages too
	defer server.Close()
	upstream, _ := url.Parse(server.URL)

	gateway := httptest.NewServer(reasoningopenai.NewHandler(upstream))
	defer gateway.Close()
	resp, err := http.Post(gateway.URL+"/v1/messages", "application/json", strings.NewReader(
		`{"model":"Qwen/Qwen3-8B","max_tokens":1024,"stream":true,"thinking":{"type":"enabled","budget_tokens":512},`+
			`"messages":[{"role":"user","content":"What is 2+2?"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
			fmt.Println(data)
		}
	}
	// Output:
	// {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"Qwen/Qwen3-8B"}}
	// {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}
	// {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"2 + 2"}}
	// {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" is 4."}}
	// {"type":"content_block_stop","index":0}
	// {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}
	// {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"The answer is 4."}}
	// {"type":"content_block_stop","index":1}
	// {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}
	// {"type":"message_stop"}
}

// The Responses API through the Transport, with openai-go: the raw
// message item becomes a reasoning item, whose content is reasoning_text,
// before the message item.
func ExampleNewTransport_responses() {
	server := rawTextServer()
	defer server.Close()

	httpClient := &http.Client{Transport: reasoningopenai.NewTransport(http.DefaultTransport)}
	client := openai.NewClient(option.WithBaseURL(server.URL+"/v1"), option.WithHTTPClient(httpClient))
	response, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "Qwen/Qwen3-8B",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("What is 2+2?")},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, item := range response.Output {
		fmt.Println(item.Type, item.ID)
	}
	fmt.Println("reasoning:", response.Output[0].AsReasoning().Content[0].Text)
	fmt.Println("text:", response.OutputText())
	// Output:
	// reasoning rs_1
	// message msg_1
	// reasoning: 2 + 2 is 4.
	// text: The answer is 4.
}
