// Package openai splits reasoning out of the responses of OpenAI-compatible
// servers that return a reasoning model's raw text (llama.cpp's
// llama-server, a vLLM started without --reasoning-parser, Ollama's OpenAI
// endpoint), and writes it in the fields clients read. It has three entry
// points, one per kind of caller:
//
//   - NewTransport wraps the http.RoundTripper of any Go client
//     (openai-go, go-openai): the program changes only its HTTP client.
//   - NewHandler is a reverse proxy, for a gateway built on net/http.
//   - A Rewriter works on bytes alone, for any other stack (fasthttp, a
//     custom pipeline): one request body in, one response body or one
//     server-sent event at a time out.
//
// All three rewrite POST requests to a path ending in /chat/completions and
// their responses, plain and streamed: each choice's content goes through a
// parser of its own (reasoning.Parser), chosen by WithParser or by the
// request's model (the registry's ForModel); a stream's held text is sent
// before the chunk that finishes its choice, or before [DONE], or at the
// end of a stream that stops without it. Tool calls, usage, roles, unknown
// members and the bytes of everything not rewritten pass through as they
// came. A choice whose upstream already split it (a reasoning or
// reasoning_content member with text) is not split again.
//
// Fields: reasoning is written to both reasoning and reasoning_content by
// default, whether the package split the text or upstream did, because
// clients differ in the one they read (go-openai and LangChain read only
// reasoning_content; vLLM 0.16 and later and Ollama write reasoning);
// WithField picks one.
//
// Requests: the thinking decision (reasoning.ResolveThinking over the
// request's chat_template_kwargs and reasoning_effort, and
// WithThinkingDefaults) goes upstream as the request's
// chat_template_kwargs, so the chat template and the parser agree; earlier
// assistant messages lose their reasoning members (WithHistory) so that a
// raw-text upstream sees the turns its chat template expects.
//
// Limits: a request body and a plain response body are read whole up to 64
// MiB (beyond, the Handler answers 413 and a response passes through); a
// server-sent event is held up to its blank line, up to 64 MiB; a stream
// keeps a parser for choice indexes below 1024. Importing the package
// registers every family of package parsers in reasoning.Default.
package openai

import _ "github.com/reasoning-go/reasoning/parsers" // the families, for ForModel and WithParser
