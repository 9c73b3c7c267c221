package parsers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
)

func TestThinkTagFactoryErrors(t *testing.T) {
	ok := ThinkTag{Name: "x", Open: []string{"<r>"}, Close: []string{"</r>"}}
	for _, tc := range []struct {
		name string
		edit func(*ThinkTag)
		want string // in the error
	}{
		{"no name", func(s *ThinkTag) { s.Name = "" }, "no name"},
		{"no closer", func(s *ThinkTag) { s.Close = nil }, "no closing marker"},
		{"empty marker", func(s *ThinkTag) { s.Tools = []string{""} }, "empty"},
		{"duplicate marker", func(s *ThinkTag) { s.Tools = []string{"</r>"} }, `"</r>"`},
		{"marker inside another", func(s *ThinkTag) { s.Tools = []string{"<r>x"} }, `"<r>" is inside "<r>x"`},
		{"start out of range", func(s *ThinkTag) { s.Start = 9 }, "Start(9)"},
		{"repeats out of range", func(s *ThinkTag) { s.Repeats = 9 }, "Repeats(9)"},
		{"off out of range", func(s *ThinkTag) { s.Thinking.Off = 9 }, "Off(9)"},
		{"too many markers", func(s *ThinkTag) {
			for i := range 70 {
				s.Tools = append(s.Tools, "<t"+strings.Repeat("x", i)+"|")
			}
		}, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ok
			tc.edit(&s)
			f, err := s.Factory()
			if err == nil || f != nil {
				t.Fatalf("Factory() = %v, %v; want an error", f != nil, err)
			}
			if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want one wrapping ErrSpec that says %q", err, tc.want)
			}
			if s.Name != "" && !strings.Contains(err.Error(), `"`+s.Name+`"`) {
				t.Errorf("error %q does not name the family", err)
			}
		})
	}
	if _, err := ok.Factory(); err != nil {
		t.Fatalf("a valid spec: %v", err)
	}
}

// TestThinkTagIsInTree checks that a spec written by a third party builds
// the same parser as the in-tree family it copies: same markers, same
// table, same answers.
func TestThinkTagIsInTree(t *testing.T) {
	spec := ThinkTag{
		Name:       "qwen3",
		Open:       []string{"<think>"},
		Close:      []string{"</think>"},
		Tools:      []string{"<tool_call>"},
		Repeats:    RepeatsDropStray,
		Thinking:   Switch{Keys: []string{"enable_thinking"}, Default: true},
		Boundaries: []string{"<|im_start|>", "<|im_end|>"},
	}
	f, err := compileTag(spec)
	if err != nil {
		t.Fatal(err)
	}
	in := qwen3Family
	if !slices.Equal(f.markers, in.markers) || f.act != in.act || f.moves != in.moves {
		t.Fatalf("the spec compiles to another table than qwen3's")
	}
	factory, _ := spec.Factory()
	for _, kw := range []map[string]any{nil, {"enable_thinking": false}} {
		mine, err := factory(nil, reasoning.Config{ChatTemplateKwargs: kw, StreamReasoning: true})
		if err != nil {
			t.Fatal(err)
		}
		theirs, _ := reasoning.New("qwen3", nil, reasoning.WithChatTemplateKwargs(kw))
		out := "a<think>b</think>c</think><tool_call>d"
		if got, want := mine.Extract(out), theirs.Extract(out); got != want {
			t.Errorf("kwargs %v: Extract = %+v, qwen3 gives %+v", kw, got, want)
		}
	}
}

// TestCutSet checks a family's trims against strings.TrimLeft, whose cutset
// is runes: a set of ASCII characters is looked up by byte, any other by
// rune, and a spec's non-ASCII TrimContent trims whole characters.
func TestCutSet(t *testing.T) {
	texts := []string{"", "x", "\n\nx", "  \t\r\nx ", " 0:[1,2]>, x", "。。x", "\u00a0\u00a0x", "\u00a1x", "\xa0x", "\xc2\xa0x", "\xe3\x80x"}
	for _, chars := range []string{"", "\n", spaces, cohereCiteSources.chars, "。 ", "\u00a0\n", "\xc2"} {
		c := newCutSet(chars)
		for _, s := range texts {
			if got, want := c.trimLeft(s), strings.TrimLeft(s, chars); got != want {
				t.Errorf("newCutSet(%q).trimLeft(%q) = %q, want %q", chars, s, got, want)
			}
			if c.ascii && s[c.span(s):] != strings.TrimLeft(s, chars) {
				t.Errorf("newCutSet(%q).span(%q) = %d", chars, s, c.span(s))
			}
		}
	}
	factory, err := ThinkTag{Name: "x", Open: []string{"<r>"}, Close: []string{"</r>"}, TrimContent: "。\n", TrimOpen: "。"}.Factory()
	if err != nil {
		t.Fatal(err)
	}
	p, err := factory(nil, reasoning.Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := reasoning.Message{Reasoning: "\xe3a", Content: "\xe3\x80b"}
	if got := p.Extract("<r>。。\xe3a</r>。\n。\xe3\x80b"); got != want {
		t.Errorf("Extract = %+v, want %+v", got, want)
	}
}

// specOf builds a ThinkTag from the bits of b: any start, repeats, off
// mode, trims, tool opener, second spellings, and a switch or none. Its
// markers never overlap, so every b gives a valid spec.
func specOf(b uint32) ThinkTag {
	s := ThinkTag{
		Name:    "fuzzed",
		Open:    []string{"<r>"},
		Close:   []string{"</r>"},
		Start:   Start(b % uint32(starts)),
		Repeats: Repeats(b / 4 % uint32(repeats)),
	}
	b /= 32
	bit := func() bool { on := b&1 != 0; b >>= 1; return on }
	if bit() {
		s.Open = append(s.Open, "[R]")
		s.Close = append(s.Close, "[/R]")
	}
	if bit() {
		s.Tools = []string{"<call>"}
	}
	if bit() {
		s.Open = nil // a family that writes only its closer
	}
	s.TrimReasoning = bit()
	if bit() {
		s.TrimContent = "\n"
	}
	if bit() {
		s.TrimOpen = " \n"
	}
	if bit() {
		s.Thinking = Switch{Keys: []string{"enable_thinking"}, Default: bit(), Off: Off(b % uint32(offs))}
	}
	return s
}

// FuzzSpec checks that every ThinkTag a third party can write keeps the
// library's guarantees (reasoningtest.CheckOutput) on any output: the spec
// is fuzzed along with the output.
func FuzzSpec(f *testing.F) {
	for i, out := range []string{"plan</r>answer", "<r>a</r>b<r>c</r>", "x [R] y [/R]\n\nz<call>{}", "</r></r><r><r>", "  <r> \n a \n</r>\n\nb"} {
		f.Add(uint32(i*2654435761), out, uint64(i))
	}
	f.Fuzz(func(t *testing.T, bits uint32, out string, seed uint64) {
		spec := specOf(bits)
		factory, err := spec.Factory()
		if err != nil {
			t.Fatalf("spec %+v: %v", spec, err)
		}
		info := spec.Info()
		c := reasoningtest.Config{Markers: info.Markers, StripsSpace: spec.TrimReasoning || spec.TrimContent != "" || spec.TrimOpen != ""}
		for _, s := range reasoningtest.DefaultSettings(info.Markers) {
			if err := reasoningtest.CheckOutput(factory, c, s, out, seed); err != nil {
				t.Fatalf("spec %+v, setting %q: %v", spec, s.Name, err)
			}
		}
	})
}
