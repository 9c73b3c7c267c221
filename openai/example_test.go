package openai_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	reasoningopenai "github.com/reasoning-go/reasoning/openai"
)

// rawTextServer is an OpenAI-compatible server that returns a reasoning
// model's raw text, as a vLLM without --reasoning-parser does: a plain
// completion, or the same text streamed in pieces that cut the markers.
func rawTextServer() *httptest.Server {
	const text = "<think>2 + 2 is 4.</think>The answer is 4."
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"stream":true`) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"Qwen/Qwen3-8B","choices":[`+
				`{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, text)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, piece := range []string{"<think>2 + 2", " is 4.</th", "ink>The answer is 4."} {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", piece)
		}
		io.WriteString(w, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
}

// A Go program reads split reasoning through openai-go by changing only
// its HTTP client (go-openai takes the same client as
// ClientConfig.HTTPClient). openai-go has no typed field for reasoning: it
// is in the message's ExtraFields.
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
	fmt.Println("reasoning:", message.JSON.ExtraFields["reasoning"].Raw())
	fmt.Println("content:", message.Content)
	// Output:
	// reasoning: "2 + 2 is 4."
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
