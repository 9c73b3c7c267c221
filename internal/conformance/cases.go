// Package conformance runs the project's golden cases and registry-wide
// sweeps through the public conformance kit, reasoningtest. It maps a
// registered name and its catalog entry to a reasoningtest.Config
// (KitConfig) and the name to a Factory built on reasoning.New (Factory),
// reads the case files of testdata/cases, and keeps the few names the
// parser tests call: Run and CheckCase for cases, CheckInvariants for the
// generated corpus, Fuzz for the fuzz targets.
package conformance

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// A File is testdata/cases/<name>.json: the golden cases of one parser name.
type File struct {
	Parser   string         `json:"parser"`    // registered name the cases run under
	ToyVocab map[string]int `json:"toy_vocab"` // named tokens of the in-memory vocabulary the ID cases use by default
	Cases    []Case         `json:"cases"`
	IDCases  []IDCase       `json:"id_cases"`
}

// Options are the request settings a case runs with.
type Options struct {
	Kwargs          map[string]any `json:"kwargs,omitempty"`            // chat_template_kwargs
	Prompt          *string        `json:"prompt,omitempty"`            // the generation prompt, given with WithPrompt
	ForceReasoning  *bool          `json:"force_reasoning,omitempty"`   // WithForceReasoning
	StreamReasoning *bool          `json:"stream_reasoning,omitempty"`  // WithStreamReasoning
	NonEmptyContent bool           `json:"non_empty_content,omitempty"` // WithNonEmptyContent
}

// A Case is one output and the split it must get.
type Case struct {
	Name   string `json:"name"`             // provenance first: "vllm:deepseekr1/...", "bug:B2", "ours:..."
	Source string `json:"source,omitempty"` // upstream test file, spec section or issue
	Note   string `json:"note,omitempty"`   // why the expectation is what it is, when it differs from upstream
	Options
	Output string            `json:"output"`
	Deltas []string          `json:"deltas,omitempty"` // an upstream chunking, checked besides the harness's own
	Vocab  string            `json:"vocab,omitempty"`  // a real vocabulary to stream per token with, by folder name
	Want   reasoning.Message `json:"want"`
	// WantSegments are the segments a Segmenter gives (Harmony tool calls),
	// merged, when the case checks them.
	WantSegments []reasoning.Segment `json:"want_segments,omitempty"`
	// StreamWant is what Collect gives when the family's spec lists a
	// difference from Extract on purpose; it must say why in Note.
	StreamWant *reasoning.Message `json:"stream_want,omitempty"`
}

// An IDCase checks the ID-level methods on one sequence of tokens.
type IDCase struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"`
	Note   string `json:"note,omitempty"`
	Options
	Vocab string `json:"vocab,omitempty"` // a real vocabulary by folder name; else the file's toy vocabulary
	// Tokens spell the IDs: each is one vocabulary entry when the vocabulary
	// has it, else the encoding of its text.
	Tokens []string `json:"tokens"`
	// Delta is how many of the last tokens form the newest delta, for
	// IsReasoningEndStreaming.
	Delta                   int   `json:"delta,omitempty"`
	IsReasoningEnd          *bool `json:"is_reasoning_end,omitempty"`
	IsReasoningEndStreaming *bool `json:"is_reasoning_end_streaming,omitempty"`
	// ContentTokens is what ExtractContentIDs returns, spelled like Tokens:
	// absent, not checked; null, nil; [], an empty non-nil slice.
	ContentTokens   json.RawMessage `json:"content_tokens,omitempty"`
	ReasoningTokens *int            `json:"reasoning_tokens,omitempty"`
	NoTokenizer     bool            `json:"no_tokenizer,omitempty"` // build the parser without a tokenizer
}

// Load reads a case file.
func Load(path string) (File, error) {
	var f File
	b, err := os.ReadFile(path)
	if err != nil {
		return f, fmt.Errorf("conformance: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("conformance: %s: %w", path, err)
	}
	if f.Parser == "" {
		return f, fmt.Errorf("conformance: %s: no parser name", path)
	}
	return f, nil
}

// opts turns a case's settings into options; prompt IDs come from tok.
func (o Options) opts(tok tokenizer.Tokenizer) []reasoning.Option {
	var opts []reasoning.Option
	if o.Kwargs != nil {
		opts = append(opts, reasoning.WithChatTemplateKwargs(o.Kwargs))
	}
	if o.Prompt != nil {
		var ids []int
		if tok != nil {
			ids = tok.Encode(*o.Prompt)
		}
		opts = append(opts, reasoning.WithPrompt(*o.Prompt, ids))
	}
	if o.ForceReasoning != nil {
		opts = append(opts, reasoning.WithForceReasoning(*o.ForceReasoning))
	}
	if o.StreamReasoning != nil {
		opts = append(opts, reasoning.WithStreamReasoning(*o.StreamReasoning))
	}
	if o.NonEmptyContent {
		opts = append(opts, reasoning.WithNonEmptyContent(true))
	}
	return opts
}

// setting turns a case's settings into the kit's, named name; the kit
// gives the prompt with its IDs in the tokenizer at hand.
func (o Options) setting(name string) reasoningtest.Setting {
	s := reasoningtest.Setting{Name: name}
	if o.Kwargs != nil {
		s.Options = append(s.Options, reasoning.WithChatTemplateKwargs(o.Kwargs))
	}
	if o.Prompt != nil {
		s.Prompt = *o.Prompt
	}
	if o.ForceReasoning != nil {
		s.Options = append(s.Options, reasoning.WithForceReasoning(*o.ForceReasoning))
	}
	if o.StreamReasoning != nil {
		s.Options = append(s.Options, reasoning.WithStreamReasoning(*o.StreamReasoning))
	}
	if o.NonEmptyContent {
		s.Options = append(s.Options, reasoning.WithNonEmptyContent(true))
	}
	return s
}

// spell turns tokens into IDs with tok.
func spell(tok tokenizer.Tokenizer, tokens []string) []int {
	ids := []int{}
	for _, s := range tokens {
		if id, ok := tok.TokenID(s); ok {
			ids = append(ids, id)
		} else {
			ids = append(ids, tok.Encode(s)...)
		}
	}
	return ids
}
