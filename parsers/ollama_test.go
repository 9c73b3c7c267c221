package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/parsers"
)

// TestFromOllama: every Ollama name maps to a registered canonical name,
// once, and FromOllama finds it whatever its case, with thinking off for a
// name that never thinks.
func TestFromOllama(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range parsers.OllamaNames() {
		if seen[o.Ollama] {
			t.Errorf("Ollama name %q listed twice", o.Ollama)
		}
		seen[o.Ollama] = true
		if c, ok := reasoning.Canonical(o.Name); !ok || c != o.Name {
			t.Errorf("Ollama %q maps to %q, not a registered canonical name", o.Ollama, o.Name)
		}
		name, opts, ok := parsers.FromOllama(" " + o.Ollama + " ")
		if !ok || name != o.Name || (len(opts) > 0) != o.ThinkingOff {
			t.Errorf("FromOllama(%q) = %q, %d options, %v", o.Ollama, name, len(opts), ok)
		}
	}
	name, opts, ok := parsers.FromOllama("Gemma4-No-Thinking")
	if !ok || name != "gemma4" {
		t.Fatalf("FromOllama(Gemma4-No-Thinking) = %q, %v", name, ok)
	}
	var cfg reasoning.Config
	for _, o := range opts {
		o(&cfg)
	}
	if on, set := cfg.Thinking("enable_thinking"); !set || on {
		t.Errorf("FromOllama(Gemma4-No-Thinking) options leave thinking %v (set %v), want off", on, set)
	}
	// Ollama's qwen3 never thinks; ours does.
	if name, _, _ := parsers.FromOllama("qwen3"); name != "identity" {
		t.Errorf("FromOllama(qwen3) = %q, want identity", name)
	}
	if _, _, ok := parsers.FromOllama("no-such-parser"); ok {
		t.Error("FromOllama knows no-such-parser")
	}
}
