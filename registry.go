package reasoning

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// The errors of this package. Returned errors wrap them with the name or
// value that failed; match them with errors.Is.
var (
	// ErrUnknownParser is wrapped by New for a name no parser was
	// registered under. The message lists the known names; a missing
	// import of the parsers package is the usual cause.
	ErrUnknownParser = errors.New("reasoning: unknown parser")

	// ErrNameTaken is wrapped by Register for a name or alias that is
	// already registered (after normalisation): pick another name.
	ErrNameTaken = errors.New("reasoning: parser name already registered")

	// ErrInvalidRegistration is wrapped by Register for an empty name or
	// alias, or a nil factory.
	ErrInvalidRegistration = errors.New("reasoning: invalid registration")

	// ErrUnsupportedConfig is wrapped by New when the named family cannot
	// serve the Config it was given: a chat_template_kwargs value it does
	// not know (k2_horizon's reasoning_effort "extreme"), or model metadata it
	// cannot use (hf's response_template without a thinking field). The fix
	// is in the request or the model's files, as the message says. It is
	// also wrapped by ThinkingMode's UnmarshalText for an unknown mode.
	ErrUnsupportedConfig = errors.New("reasoning: unsupported configuration")
)

// A Registry maps parser names to the factories that build them. Names match
// case-insensitively, with '-' and '_' equal, so "deepseek-r1" finds
// "deepseek_r1". Aliases are further names for the same factory.
//
// A Registry is safe for concurrent use; lookups never lock.
type Registry struct {
	mu   sync.Mutex               // serialises Register
	snap atomic.Pointer[snapshot] // replaced, never mutated, by Register
}

// snapshot is one immutable state of a Registry.
type snapshot struct {
	byKey map[string]entry // normalised name or alias → entry
	names []string         // canonical names, sorted
	// bools are the boolean thinking switches: thinking, enable_thinking
	// and every name's SwitchKeys but thinking_mode and reasoning_effort,
	// sorted, each once.
	bools []string
	// models are every name's Models patterns, most specific first (see
	// ForModel).
	models []modelEntry
}

type entry struct {
	name    string // canonical name
	factory Factory
	info    *Info // shared by the name's keys; never mutated
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return new(Registry) }

// Default is the registry the package-level functions use and the parsers
// package registers its families in.
var Default = NewRegistry()

// normalize folds case and maps '-' to '_'.
func normalize(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
}

func (r *Registry) load() *snapshot {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

// emptySnapshot is the state of a Registry nothing was registered in.
var emptySnapshot = &snapshot{bools: []string{kwEnableThinking, kwThinking}}

// Register adds a factory under a canonical name and any aliases. It is an
// error to register an empty name or a nil factory (ErrInvalidRegistration),
// or a name or alias that is already taken after normalisation
// (ErrNameTaken). The name's Info has only Name and Aliases; RegisterInfo
// records a fuller one.
func (r *Registry) Register(name string, f Factory, aliases ...string) error {
	return r.register(Info{Name: name, Aliases: slices.Clone(aliases)}, f)
}

// register adds f under info's names; info is the Registry's to keep.
func (r *Registry) register(info Info, f Factory) error {
	name, aliases := info.Name, info.Aliases
	if f == nil {
		return fmt.Errorf("%w: Register %q: nil factory", ErrInvalidRegistration, name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	next := &snapshot{byKey: make(map[string]entry, len(old.byKey)+1+len(aliases))}
	for k, e := range old.byKey {
		next.byKey[k] = e
	}
	e := entry{name: name, factory: f, info: &info}
	for _, n := range append([]string{name}, aliases...) {
		key := normalize(n)
		if key == "" {
			return fmt.Errorf("%w: Register %q: empty name or alias", ErrInvalidRegistration, name)
		}
		if prev, taken := next.byKey[key]; taken {
			if prev.name == name {
				return fmt.Errorf("%w: Register called twice for %q", ErrNameTaken, n)
			}
			return fmt.Errorf("%w: Register %q: %q is taken by %q", ErrNameTaken, name, n, prev.name)
		}
		next.byKey[key] = e
	}
	next.names = append(slices.Clone(old.names), name)
	slices.Sort(next.names)
	next.bools = slices.Clone(old.bools)
	for _, k := range info.SwitchKeys {
		if k != "" && k != kwThinkingMode && k != kwEffort && !slices.Contains(next.bools, k) {
			next.bools = append(next.bools, k)
		}
	}
	slices.Sort(next.bools)
	next.models = slices.Clone(old.models)
	for _, p := range info.Models {
		next.models = append(next.models, modelEntry{pattern: normalizeModelID(p), name: name})
	}
	sortModels(next.models)
	r.snap.Store(next)
	return nil
}

// Names returns the canonical names, sorted.
func (r *Registry) Names() []string { return slices.Clone(r.load().names) }

// Canonical returns the canonical name that name or alias resolves to.
func (r *Registry) Canonical(name string) (string, bool) {
	e, ok := r.load().byKey[normalize(name)]
	return e.name, ok
}

// New builds a parser by name for one response. tok may be nil: the parser
// then works on text alone, and its ID methods answer as if the IDs held no
// marker. An unknown name is an error wrapping ErrUnknownParser that lists
// the known names; a factory's error is wrapped with the parser's name.
func (r *Registry) New(name string, tok tokenizer.Tokenizer, opts ...Option) (Parser, error) {
	s := r.load()
	e, ok := s.byKey[normalize(name)]
	if !ok {
		return nil, unknown(name, s.names)
	}
	cfg := Config{StreamReasoning: true}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	// SGLang and vLLM's Nemotron read this request switch from the kwargs.
	if on, _ := cfg.Thinking("force_nonempty_content"); on {
		cfg.NonEmptyContent = true
	}
	p, err := e.factory(nilIfTypedNil(tok), cfg)
	if err != nil {
		return nil, fmt.Errorf("reasoning: parser %q: %w", e.name, err)
	}
	if p == nil {
		return nil, fmt.Errorf("%w: parser %q: its factory returned no parser and no error", ErrInvalidRegistration, e.name)
	}
	return shape(p, cfg), nil
}

func unknown(name string, known []string) error {
	const hint = "forgotten import of github.com/reasoning-go/reasoning/parsers?"
	if len(known) == 0 {
		return fmt.Errorf("%w %q (no parsers are registered; %s)", ErrUnknownParser, name, hint)
	}
	return fmt.Errorf("%w %q (known: %s; %s)", ErrUnknownParser, name, strings.Join(known, ", "), hint)
}

// nilIfTypedNil turns a Tokenizer interface holding a nil pointer into a nil
// interface, so that factories need only check tok == nil.
func nilIfTypedNil(tok tokenizer.Tokenizer) tokenizer.Tokenizer {
	if tok == nil {
		return nil
	}
	switch v := reflect.ValueOf(tok); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		if v.IsNil() {
			return nil
		}
	}
	return tok
}

// Register adds a factory to Default under name and aliases. It panics on an
// empty name, a nil factory or a name already taken: all init-time bugs.
func Register(name string, f Factory, aliases ...string) {
	if err := Default.Register(name, f, aliases...); err != nil {
		panic(err)
	}
}

// New builds a parser from Default; see Registry.New.
func New(name string, tok tokenizer.Tokenizer, opts ...Option) (Parser, error) {
	return Default.New(name, tok, opts...)
}

// Names returns the canonical names registered in Default, sorted.
func Names() []string { return Default.Names() }

// Canonical returns the canonical name that name resolves to in Default.
func Canonical(name string) (string, bool) { return Default.Canonical(name) }
