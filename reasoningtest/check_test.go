package reasoningtest_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// thinkTags is what the kit is told about deepseek_r1, the family the
// broken parsers below are made from: it drops whitespace that only
// precedes the first <think> (spec vllm-main §1.1).
var thinkTags = reasoningtest.Config{Markers: []string{"<think>", "</think>"}, StripsSpace: true}

// broken wraps deepseek_r1's parsers in a parser with one bug.
func broken(wrap func(p reasoning.Parser) reasoning.Parser) reasoning.Factory {
	return func(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
		p, err := reasoning.New("deepseek_r1", tok, func(c *reasoning.Config) { *c = cfg })
		if err != nil {
			return nil, err
		}
		return wrap(p), nil
	}
}

// forgetful forgets a "<" that ends a delta, as a parser does that holds
// back what may start a marker and then drops it.
type forgetful struct{ reasoning.Parser }

func (p forgetful) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	d.Text = strings.TrimSuffix(d.Text, "<")
	return p.Parser.ExtractStreaming(d)
}

// shouting reads a shouted </THINK> as a marker in Extract only.
type shouting struct{ reasoning.Parser }

func (p shouting) Extract(output string) reasoning.Message {
	return p.Parser.Extract(strings.ReplaceAll(output, "</THINK>", "</think>"))
}

// fragile panics on invalid UTF-8.
type fragile struct{ reasoning.Parser }

func (p fragile) Extract(output string) reasoning.Message {
	if !utf8.ValidString(output) {
		panic("invalid UTF-8")
	}
	return p.Parser.Extract(output)
}

func (p fragile) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if !utf8.ValidString(d.Text) {
		panic("invalid UTF-8")
	}
	return p.Parser.ExtractStreaming(d)
}

// contrary says reasoning has ended when it has not, and the reverse.
type contrary struct{ reasoning.Parser }

func (p contrary) IsReasoningEnd(ids []int) bool { return !p.Parser.IsReasoningEnd(ids) }

// undead keeps emitting after Finish.
type undead struct {
	reasoning.Parser
	done bool
}

func (p *undead) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if p.done {
		return reasoning.Message{Content: d.Text}
	}
	return p.Parser.ExtractStreaming(d)
}

func (p *undead) Finish() reasoning.Message { p.done = true; return p.Parser.Finish() }

// textOnly drops the deltas' IDs, so that a marker typed as ordinary
// tokens counts.
type textOnly struct{ reasoning.Parser }

func (p textOnly) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	d.IDs = nil
	return p.Parser.ExtractStreaming(d)
}

// eager tells a Gate that reasoning has ended, always.
type eager struct{ reasoning.Parser }

func (eager) IsReasoningEndStreaming(_, _ []int) bool { return true }

// windowed builds deepseek_r1's parsers reading only the last 8 of the
// prompt's IDs, as a parser does that decodes a window of them.
func windowed(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	if n := len(cfg.PromptIDs); n > 8 {
		cfg.PromptIDs = cfg.PromptIDs[n-8:]
	}
	return reasoning.New("deepseek_r1", tok, func(c *reasoning.Config) { *c = cfg })
}

// TestCheckFindsBugs: for each broken parser, Check reports the guarantee
// it breaks, with an input shrunk to a few bytes.
func TestCheckFindsBugs(t *testing.T) {
	for _, tt := range []struct {
		name    string
		f       reasoning.Factory // else broken(wrap)
		wrap    func(reasoning.Parser) reasoning.Parser
		check   string // the guarantee reported
		output  string // the shrunk output, quoted
		longest int    // the most bytes a shrunk output may have
	}{
		{"loses text between deltas", nil, func(p reasoning.Parser) reasoning.Parser { return forgetful{p} },
			"streaming equals Extract", `output "<"`, 1},
		{"streaming differs from Extract", nil, func(p reasoning.Parser) reasoning.Parser { return shouting{p} },
			"streaming equals Extract", `output "</THINK>"`, 8},
		{"panics on invalid UTF-8", nil, func(p reasoning.Parser) reasoning.Parser { return fragile{p} },
			"panic: invalid UTF-8", "", 1},
		{"IsReasoningEnd disagrees with the split", nil, func(p reasoning.Parser) reasoning.Parser { return contrary{p} },
			"ID methods agree with the text split", "", 1},
		{"emits after Finish", nil, func(p reasoning.Parser) reasoning.Parser { return &undead{Parser: p} },
			"after Finish nothing is emitted", `output ""`, 0},
		{"IDs do not beat text", nil, func(p reasoning.Parser) reasoning.Parser { return textOnly{p} },
			"IDs beat text", `output "<think>"`, 7},
		{"a Gate constrains inside reasoning", nil, func(p reasoning.Parser) reasoning.Parser { return eager{p} },
			"a Gate never constrains while the split is in reasoning", `output ""`, 1},
		{"prompt IDs read through a window", windowed, nil,
			"prompt text and IDs give one start", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := thinkTags
			c.Settings = []reasoningtest.Setting{{Name: "default"}}
			f := tt.f
			if f == nil {
				f = broken(tt.wrap)
			}
			err := reasoningtest.Check(f, c)
			if err == nil {
				t.Fatal("Check passed a broken parser")
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.Contains(msg, tt.check) {
				t.Errorf("the error does not report %q", tt.check)
			}
			if !strings.Contains(msg, tt.output) {
				t.Errorf("the error does not show the shrunk %s", tt.output)
			}
			for _, line := range strings.Split(msg, "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "output "); ok {
					if s := unquote(t, rest); len(s) > tt.longest {
						t.Errorf("shrunk output %q has %d bytes, want at most %d", s, len(s), tt.longest)
					}
				}
			}
		})
	}
}

// unquote reads the %q output at the start of s.
func unquote(t *testing.T, s string) string {
	t.Helper()
	end := strings.Index(s, `" (shrunk`)
	if end < 0 {
		end = len(s) - 1
	}
	var out string
	if _, err := fmt.Sscanf(s[:end+1], "%q", &out); err != nil {
		t.Fatalf("output line %q: %v", s, err)
	}
	return out
}

// TestCheckOutputFindsBugs: the fuzz-target form finds a bug on the output
// that shows it.
func TestCheckOutputFindsBugs(t *testing.T) {
	f := broken(func(p reasoning.Parser) reasoning.Parser { return fragile{p} })
	if err := reasoningtest.CheckOutput(f, thinkTags, reasoningtest.Setting{}, "fine", 1); err != nil {
		t.Errorf("CheckOutput on valid UTF-8: %v", err)
	}
	err := reasoningtest.CheckOutput(f, thinkTags, reasoningtest.Setting{}, "ok<think>\xff</think>", 1)
	if err == nil || !strings.Contains(err.Error(), "panic") {
		t.Errorf("CheckOutput on invalid UTF-8 = %v, want a panic reported", err)
	}
}

// TestCheckCases: a case's expected split is checked, and a wrong one
// reported with its chunking shrunk.
func TestCheckCases(t *testing.T) {
	f := broken(func(p reasoning.Parser) reasoning.Parser { return p })
	c := thinkTags
	c.NoCorpus, c.Settings = true, []reasoningtest.Setting{}
	c.Cases = []reasoningtest.Case{{Name: "right", Output: "a</think>b", Want: reasoning.Message{Reasoning: "a", Content: "b"}}}
	if err := reasoningtest.Check(f, c); err != nil {
		t.Errorf("a right case: %v", err)
	}
	c.Cases[0].Want.Content = "c"
	err := reasoningtest.Check(f, c)
	if err == nil || !strings.Contains(err.Error(), `case "right": Extract`) || !strings.Contains(err.Error(), `case "right": streaming equals Extract`) {
		t.Fatalf("a wrong case: %v", err)
	}
}

// TestCheckFamilies: registered families pass, through the same mapping
// from catalog entry to Config the project's tests use.
func TestCheckFamilies(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep on one goroutine: the plain go test run has it")
	}
	for _, name := range []string{"deepseek_r1", "qwen3", "openai_gptoss", "hunyuan_a13b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, ok := catalog.Lookup(name)
			if !ok {
				t.Fatalf("%s has no catalog entry", name)
			}
			reasoningtest.Test(t, conformance.Factory(name), conformance.KitConfig(name, e))
		})
	}
}

// TestCheckNilFactory: a nil Factory is an error, not a panic.
func TestCheckNilFactory(t *testing.T) {
	if err := reasoningtest.Check(nil, thinkTags); err == nil {
		t.Error("Check(nil) = nil")
	}
}
