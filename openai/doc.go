// Package openai splits reasoning out of the responses of servers that
// return a reasoning model's raw text (llama.cpp's llama-server, a vLLM
// started without --reasoning-parser, Ollama's OpenAI endpoint), for Go
// programs and gateways on net/http:
//
//   - NewTransport wraps the http.RoundTripper of any Go client
//     (openai-go, go-openai, anthropic-sdk-go): the program changes only
//     its HTTP client.
//   - NewHandler is a reverse proxy, for a gateway built on net/http.
//
// Both rewrite POST requests to paths ending in /chat/completions,
// /v1/messages (Anthropic Messages) and /responses (the Responses API), and
// their responses, plain and streamed, through package rewrite, which
// says what each API gets and works on bytes alone for any other stack.
// Their options are package rewrite's (Option is the same type), with
// WithErrorLog and WithUpstreamTransport for the Handler.
//
// Fields: in chat completions, reasoning is written to both reasoning and
// reasoning_content by default, whether the package split the text or
// upstream did, because clients differ in the one they read (go-openai and
// LangChain read only reasoning_content; vLLM 0.16 and later and Ollama
// write reasoning); WithField picks one.
//
// Limits: a request body and a plain response body are read whole up to 64
// MiB (beyond, the Handler answers 413 and a response passes through).
package openai
