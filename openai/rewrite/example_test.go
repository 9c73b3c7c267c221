package rewrite_test

import (
	"fmt"
	"log"

	"github.com/reasoning-go/reasoning/openai/rewrite"
)

// A gateway on another HTTP stack (fasthttp, a custom pipeline) uses a
// Rewriter per request: the request body in, the body to send upstream
// out; then each server-sent event of the answer (or Response for a whole
// body), and End if the stream stops without [DONE].
func ExampleRewriter() {
	rw, err := rewrite.New("/v1/chat/completions")
	if err != nil {
		log.Fatal(err)
	}
	body, err := rw.Request([]byte(`{"model":"deepseek-ai/DeepSeek-R1","stream":true,"messages":[]}`))
	if err != nil {
		log.Fatal(err) // the client's error: answer 400
	}
	fmt.Printf("send upstream: %s (parser %s)\n", body, rw.Parser())

	upstreamEvents := []string{ // the data of each event upstream sends
		`{"choices":[{"index":0,"delta":{"content":"Add.</th"},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"content":"ink>4"},"finish_reason":null}]}`,
	} // ... and the stream stops without [DONE]
	for _, data := range upstreamEvents {
		for _, e := range rw.Event(rewrite.Event{Data: []byte(data)}) {
			fmt.Printf("send: %s\n", e.Data) // e.Append(dst) writes it in SSE framing
		}
	}
	for _, e := range rw.End() {
		fmt.Printf("send: %s\n", e.Data)
	}
	// Output:
	// send upstream: {"model":"deepseek-ai/DeepSeek-R1","stream":true,"messages":[]} (parser deepseek_r1)
	// send: {"choices":[{"index":0,"delta":{"reasoning":"Add.","reasoning_content":"Add."},"finish_reason":null}]}
	// send: {"choices":[{"index":0,"delta":{"content":"4"},"finish_reason":null}]}
}
