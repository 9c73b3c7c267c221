// Package fake builds what a raw-text upstream sends, for the tests of
// packages openai and openai/rewrite: chat completion chunks, Anthropic
// Messages events and Responses API events, with the members real servers
// write.
package fake

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Chunk builds one chat.completion.chunk with the fields a vLLM stream
// carries, plus unknown ones that must pass through.
func Chunk(choices ...string) string {
	return `{"id":"chatcmpl-7","object":"chat.completion.chunk","created":1750000000,"model":"m",` +
		`"system_fingerprint":"fp_1","x_vendor":{"trace":[1,2,3]},"choices":[` + strings.Join(choices, ",") + `]}`
}

// Delta builds one choice of a chunk: content text ("" for none),
// finish_reason ("" for null).
func Delta(index int, content, finish string) string {
	d := `{}`
	if content != "" {
		d = `{"content":` + quote(content) + `}`
	}
	f := `null`
	if finish != "" {
		f = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"index":%d,"delta":%s,"logprobs":null,"finish_reason":%s,"stop_reason":null}`, index, d, f)
}

// RoleChunkChoice is the choice of the first chunk vLLM sends.
const RoleChunkChoice = `{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}`

// UsageChunk is the chunk a stream with include_usage ends with.
const UsageChunk = `{"id":"chatcmpl-7","object":"chat.completion.chunk","created":1750000000,"model":"m","choices":[],` +
	`"usage":{"prompt_tokens":12,"total_tokens":40,"completion_tokens":28}}`

// quote returns s as a JSON string, without HTML escaping.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
