// Package rewrite splits reasoning out of the responses of servers that
// return a reasoning model's raw text, working on bytes alone: a request
// body in, the body to send upstream out; then a whole response body, or
// one server-sent event at a time. Neither its API nor its code uses
// net/http, for gateways on fasthttp, gin or any other stack (net/http is
// linked in only by the tiktoken vocabulary loader that package tokenizer
// depends on); package openai wraps it as an http.RoundTripper and an
// http.Handler, with the same options.
//
// Three APIs are rewritten, chosen by the request's path:
//
//   - Chat completions (/chat/completions): each choice's content goes
//     through a parser of its own; reasoning is written to reasoning and
//     reasoning_content (WithField), and a choice upstream already split
//     is only normalised to those fields.
//   - Anthropic Messages (/v1/messages): a text block with raw markers
//     becomes a thinking block, with an empty signature, before a text
//     block; streamed content_block_start, _delta and _stop events are
//     rewritten the same way, and every block index renumbered.
//   - The Responses API (/responses): a message item with raw markers
//     becomes a reasoning item, whose content is reasoning_text, before a
//     message item; streamed events are rewritten the same way, with
//     output_index, item_id and sequence_number renumbered.
//
// The parser is chosen by WithParser or by the request's model (the
// registry's ForModel); a model it does not know is not split. The
// thinking decision (reasoning.ResolveThinking over the request's own
// controls and WithThinkingDefaults) goes upstream as the request's
// chat_template_kwargs, so that the chat template and the parser agree,
// and earlier assistant turns lose their reasoning (WithHistory). A
// response whose upstream already split it is left alone. Text a parser
// holds back is sent before the event that ends its choice or block, or at
// the end of a stream that stops without it. Bytes the package does not
// rewrite pass through as they came.
//
// Limits: a stream keeps a parser for choice indexes below 1024, and Stream
// holds a server-sent event up to its blank line, up to 64 MiB. Importing
// the package registers every family of package parsers in
// reasoning.Default.
package rewrite

import _ "github.com/reasoning-go/reasoning/parsers" // the families, for ForModel and WithParser
