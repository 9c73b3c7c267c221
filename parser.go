package reasoning

import (
	"maps"
	"strconv"
	"strings"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// Parser splits one model response into reasoning and content.
// A Parser holds the streaming state of one response: make one per request and choice with New.
// Extract does not touch that state. Methods are not safe for concurrent use on one Parser.
type Parser interface {
	// Extract splits a complete output (vLLM extract_reasoning). A section that is one piece of output
	// may be a substring of it, sharing its memory as strings.Cut's results do.
	Extract(output string) Message
	// ExtractStreaming takes the next delta and returns what to emit for it (vLLM extract_reasoning_streaming).
	// A zero Message means "emit nothing for this delta". Text that could still be the start of a marker
	// may be held back and is emitted by a later call or by Finish.
	ExtractStreaming(d Delta) Message
	// Finish ends the stream and returns whatever was held back. After Finish the Parser is spent.
	Finish() Message
	// IsReasoningEnd reports whether the token IDs (prompt and/or output) show that reasoning has ended,
	// so that a grammar may start constraining (vLLM is_reasoning_end).
	IsReasoningEnd(ids []int) bool
	// IsReasoningEndStreaming is IsReasoningEnd for the newest delta, looking only at what it must.
	IsReasoningEndStreaming(ids, delta []int) bool
	// ExtractContentIDs returns the IDs of the content after the end of reasoning (vLLM extract_content_ids).
	// Decode them together, not one by one: the first may be part of a character split across tokens.
	ExtractContentIDs(ids []int) []int
	// CountReasoningTokens counts the reasoning tokens in ids, nesting-aware where the family nests.
	CountReasoningTokens(ids []int) int
}

// Config is what a parser is built from: the request's switches and what the
// caller knows of the prompt. Options set it; New passes it to the family's
// Factory.
type Config struct {
	ChatTemplateKwargs map[string]any // request's chat_template_kwargs: enable_thinking, thinking, ...
	PromptText         string         // the rendered generation prompt, if known
	PromptIDs          []int          // its token IDs, if known
	StreamReasoning    bool           // default true; false holds reasoning back and emits it in one piece when it ends
	ForceReasoning     *bool          // nil: the family's default; true: the response starts inside reasoning without an opening marker
	NonEmptyContent    bool           // a finished response with no content returns its reasoning as content; reasoning is then held back while streaming
}

// An Option sets one field of a Config.
type Option func(*Config)

// WithChatTemplateKwargs adds the request's chat_template_kwargs. Keys set by
// an earlier option are kept unless kw sets them again; kw is copied.
func WithChatTemplateKwargs(kw map[string]any) Option {
	return func(c *Config) {
		if len(kw) == 0 {
			return
		}
		c.ChatTemplateKwargs = merged(c.ChatTemplateKwargs, kw)
	}
}

// WithThinking sets the chat_template_kwargs keys enable_thinking and
// thinking, the two switches most families read.
func WithThinking(enabled bool) Option {
	return WithChatTemplateKwargs(map[string]any{"enable_thinking": enabled, "thinking": enabled})
}

// WithPrompt lets a parser see that the prompt already opened (or closed)
// reasoning. Either text or ids may be empty; with a tokenizer, ids win.
func WithPrompt(text string, ids []int) Option {
	return func(c *Config) { c.PromptText, c.PromptIDs = text, ids }
}

// WithStreamReasoning sets whether reasoning is emitted as it arrives (the
// default) or held back and emitted in one piece when it ends.
func WithStreamReasoning(stream bool) Option {
	return func(c *Config) { c.StreamReasoning = stream }
}

// WithForceReasoning says whether the response starts inside reasoning
// without an opening marker (SGLang and Dynamo force_reasoning). It overrides
// both the family's default and what the prompt shows.
func WithForceReasoning(on bool) Option {
	return func(c *Config) { c.ForceReasoning = &on }
}

// WithNonEmptyContent makes a finished response with no content return its
// reasoning as content instead (SGLang force_nonempty_content). Streaming
// gives what Extract gives: reasoning is held back, as with
// WithStreamReasoning(false), until content follows it, and Finish emits it
// as content when none came. chat_template_kwargs["force_nonempty_content"]
// set to true turns it on too, as SGLang and vLLM's Nemotron read it.
func WithNonEmptyContent(on bool) Option {
	return func(c *Config) { c.NonEmptyContent = on }
}

// Factory builds a Parser of one family for one response. tok may be nil:
// the parser then works on text alone. A Factory returns an error when tok
// cannot express one of the family's delimiters.
type Factory func(tok tokenizer.Tokenizer, cfg Config) (Parser, error)

// Kwarg returns the chat_template_kwargs value of key. A key whose value is
// nil counts as absent, as does the string "auto".
func (c Config) Kwarg(key string) (any, bool) {
	v, ok := c.ChatTemplateKwargs[key]
	if !ok || v == nil {
		return nil, false
	}
	if s, isString := v.(string); isString && strings.EqualFold(strings.TrimSpace(s), "auto") {
		return nil, false
	}
	return v, true
}

// Thinking reads a thinking switch made of one or more chat_template_kwargs
// keys, read as aliases: set reports whether any of them is present, and on
// whether any present one is true. Booleans are themselves; numbers are true
// unless zero; strings are parsed as "true"/"false", "yes"/"no", "on"/"off",
// "1"/"0", "enabled"/"disabled" (any case); other values are true.
func (c Config) Thinking(keys ...string) (on, set bool) {
	for _, k := range keys {
		v, ok := c.Kwarg(k)
		if !ok {
			continue
		}
		set = true
		if truthy(v) {
			on = true
		}
	}
	return on, set
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "false", "0", "no", "off", "disabled", "none":
			return false
		}
		return true
	case int:
		return v != 0
	case int64:
		return v != 0
	case float64:
		return v != 0
	case float32:
		return v != 0
	case interface{ String() string }: // json.Number and friends
		f, err := strconv.ParseFloat(v.String(), 64)
		return err != nil || f != 0
	}
	return true
}

func merged(a, b map[string]any) map[string]any {
	m := make(map[string]any, len(a)+len(b))
	maps.Copy(m, a)
	maps.Copy(m, b)
	return m
}
