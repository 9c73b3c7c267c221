// Package reasoning splits the output of a reasoning model into its chain of
// thought (reasoning) and its answer (content), for a finished output and
// delta by delta while streaming, and answers token-level questions such as
// "has reasoning ended?" that gate structured-output grammars.
//
// Every model family marks its reasoning differently: <think> tags whose
// opener is often already in the prompt, Harmony channels, plain-text
// phrases, tool-call sections that end reasoning implicitly. A family is
// reached by the name vLLM gives its parser (--reasoning-parser NAME), or by
// SGLang's or Dynamo's name for the same behaviour.
//
// Families live in package parsers and register themselves when imported,
// the way database/sql drivers and image formats do:
//
//	import _ "github.com/reasoning-go/reasoning/parsers"
//
// The _ imports the package only for its registrations. For each response,
// make one Parser with New, then call
//
//	Extract | {ExtractStreaming} Finish
//
// Extract splits a whole output; ExtractStreaming takes one Delta at a time
// and returns what to emit for it, holding back only text that may still
// start a marker; Finish returns what was held back. For any way of cutting
// an output into deltas, the concatenation of what ExtractStreaming and
// Finish return equals what Extract returns (see Collect), and no byte of
// the output is lost or invented: reasoning and content together are the
// output minus its markers.
//
// The ID-level methods (IsReasoningEnd, IsReasoningEndStreaming,
// ExtractContentIDs, CountReasoningTokens) work on token IDs when New was
// given the model's tokenizer; see package tokenizer. Parsers share nothing
// mutable: any number may run concurrently, one per response.
//
// A third-party family registers the same way, with Register and a Factory;
// NewRegistry gives a registry of one's own.
package reasoning
