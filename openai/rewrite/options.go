package rewrite

import (
	"fmt"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/settings"
)

// An Option configures a Rewriter (through New or NewConfig), and package
// openai's Transport and Handler, which take the same options. Its zero
// value sets nothing.
type Option struct {
	set func(*settings.Settings)
}

func init() {
	settings.NewOption = func(set func(*settings.Settings)) Option { return Option{set} }
	settings.Apply = apply
}

// apply returns what opts set.
func apply(opts []Option) settings.Settings {
	var s settings.Settings
	for _, o := range opts {
		if o.set != nil {
			o.set(&s)
		}
	}
	return s
}

// WithParser names the parser for every request (a canonical name or an
// alias). Without it, each request's model picks one through the
// registry's ForModel, and a model it does not know has its response only
// normalised (WithField), never split.
func WithParser(name string) Option { return Option{func(s *settings.Settings) { s.Parser = name }} }

// WithRegistry sets the registry parsers are looked up in, by name and by
// model, and whose thinking switches ResolveThinking writes; the default is
// reasoning.Default, where this package's import of the parsers package
// registers every family.
func WithRegistry(r *reasoning.Registry) Option {
	return Option{func(s *settings.Settings) { s.Registry = r }}
}

// WithThinkingDefaults sets the deployment's thinking defaults, which
// ResolveThinking weighs against each request's own controls; the result
// goes upstream as the request's chat_template_kwargs and builds its
// parsers.
func WithThinkingDefaults(d reasoning.ThinkingDefaults) Option {
	return Option{func(s *settings.Settings) { s.Defaults = d }}
}

// WithField sets the field or fields of a chat completion that reasoning
// is written to; the default is FieldBoth. Messages and the Responses API
// have one place for reasoning each, and ignore it.
func WithField(f Field) Option { return Option{func(s *settings.Settings) { s.Field = uint8(f) }} }

// WithHistory sets what happens to the reasoning of earlier assistant
// turns in a request whose response is split; the default is HistoryDrop.
func WithHistory(h History) Option {
	return Option{func(s *settings.Settings) { s.History = uint8(h) }}
}

// A Config is a set of options, checked once, that makes a Rewriter per
// request: a gateway builds one when it starts and calls New for each
// request. It is safe for concurrent use.
type Config struct {
	registry *reasoning.Registry
	parser   string // canonical parser name for every request; "" to look it up by model
	defaults reasoning.ThinkingDefaults
	field    Field
	history  History
}

// NewConfig applies opts and checks them: it fails for a parser name the
// registry does not know (the error lists the names it knows), and for
// deployment defaults that the parser rejects (wrapping
// reasoning.ErrUnsupportedConfig).
func NewConfig(opts ...Option) (*Config, error) {
	s := apply(opts)
	c := &Config{registry: s.Registry, parser: s.Parser, defaults: s.Defaults, field: Field(s.Field), history: History(s.History)}
	if c.registry == nil {
		c.registry = reasoning.Default
	}
	if c.field > FieldReasoningContent {
		return nil, fmt.Errorf("rewrite: %v: want FieldBoth, FieldReasoning or FieldReasoningContent", c.field)
	}
	if c.history > HistoryKeep {
		return nil, fmt.Errorf("rewrite: %v: want HistoryDrop, HistoryRender or HistoryKeep", c.history)
	}
	if c.parser != "" {
		name, ok := c.registry.Canonical(c.parser)
		if !ok {
			_, err := c.registry.New(c.parser, nil) // its error lists the known names
			return nil, err
		}
		c.parser = name
		kw, _ := c.registry.ResolveThinking(nil, "", c.defaults)
		if _, err := c.registry.New(name, nil, reasoning.WithChatTemplateKwargs(kw)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Field names the message field or fields that carry reasoning. Clients
// differ in the one they read: go-openai and LangChain read
// reasoning_content, vLLM 0.16 and later and Ollama write reasoning (the
// README's table lists more).
type Field uint8

const (
	FieldBoth             Field = iota // reasoning and reasoning_content, the same text: every client finds it
	FieldReasoning                     // reasoning only
	FieldReasoningContent              // reasoning_content only
)

var fieldNames = [...]string{FieldBoth: "both", FieldReasoning: "reasoning", FieldReasoningContent: "reasoning_content"}

// fieldKeys are the members each Field writes, in the order written.
var fieldKeys = [...][]string{
	FieldBoth:             {"reasoning", "reasoning_content"},
	FieldReasoning:        {"reasoning"},
	FieldReasoningContent: {"reasoning_content"},
}

// String returns "both", "reasoning" or "reasoning_content".
func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return fmt.Sprintf("Field(%d)", uint8(f))
}

// MarshalText returns the field's String, for flags and configuration files.
func (f Field) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "both", "reasoning" or "reasoning_content".
func (f *Field) UnmarshalText(text []byte) error {
	for i, name := range fieldNames {
		if string(text) == name {
			*f = Field(i)
			return nil
		}
	}
	return fmt.Errorf("rewrite: field %q: want both, reasoning or reasoning_content", text)
}

// History says what a request's earlier assistant turns keep of their
// reasoning (chat's reasoning and reasoning_content members, Messages'
// thinking and redacted_thinking blocks, the Responses API's reasoning
// items) when the response is split, that is, when upstream is taken to
// return raw text.
type History uint8

const (
	// HistoryDrop removes the reasoning: most chat templates render
	// earlier turns without their reasoning (DeepSeek R1's, Qwen3's before
	// the last user message), and a raw-text upstream does not read the
	// fields, blocks or items anyway.
	HistoryDrop History = iota
	// HistoryRender moves the reasoning into the text that follows it,
	// between the family's own opening and closing markers (its
	// reasoning.Info): "<think>plan</think>answer" as a chat message's
	// content, a Messages text block's text, a Responses message item's
	// text; a text block or message item of its own where no text
	// follows. A redacted_thinking block, which has no text, is dropped,
	// and so is the reasoning of a family with no closing marker (Harmony,
	// hf, identity).
	HistoryRender
	// HistoryKeep sends the messages as the client gave them.
	HistoryKeep
)

var historyNames = [...]string{HistoryDrop: "drop", HistoryRender: "render", HistoryKeep: "keep"}

// String returns "drop", "render" or "keep".
func (h History) String() string {
	if int(h) < len(historyNames) {
		return historyNames[h]
	}
	return fmt.Sprintf("History(%d)", uint8(h))
}

// MarshalText returns the policy's String.
func (h History) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads "drop", "render" or "keep".
func (h *History) UnmarshalText(text []byte) error {
	for i, name := range historyNames {
		if string(text) == name {
			*h = History(i)
			return nil
		}
	}
	return fmt.Errorf("rewrite: history %q: want drop, render or keep", text)
}
