package tokenizer_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// delimiterTable is the part of the shared delimiters.json the tests read:
// for every family and delimiter, whether it is one vocabulary entry, and
// its ID.
type delimiterTable map[string]struct {
	Delimiters map[string]struct {
		SingleEntry bool `json:"single_entry"`
		ID          int  `json:"id"`
	} `json:"delimiters"`
}

func readDelimiters(t *testing.T) delimiterTable {
	t.Helper()
	dir, ok := testvocab.Dir()
	if !ok {
		testvocab.Path(t, "qwen3") // skips or fails with the usual message
	}
	data, err := os.ReadFile(filepath.Join(dir, "delimiters.json"))
	if os.IsNotExist(err) {
		t.Skipf("no delimiters.json in %s", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var table delimiterTable
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	return table
}

// TestResolveDelimiters resolves every delimiter of delimiters.json in every
// family: a single entry must resolve to its one ID, any other string to
// several tokens that decode back to it.
func TestResolveDelimiters(t *testing.T) {
	table := readDelimiters(t)
	for _, family := range families {
		t.Run(family, func(t *testing.T) {
			tok := testvocab.Load(t, family)
			delims := table[family].Delimiters
			if len(delims) == 0 {
				t.Fatalf("no delimiters for %s", family)
			}
			for text, want := range delims {
				d, err := tokenizer.Resolve(tok, text)
				if family == "gemma3" && strings.Contains(text, "▁") {
					// Gemma spells spaces "▁", so a written "▁" decodes as a
					// space: such a delimiter cannot be told apart in IDs.
					if !errors.Is(err, tokenizer.ErrUnencodable) {
						t.Errorf("Resolve(%q) = %v, %v; want ErrUnencodable", text, d.IDs, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("Resolve(%q): %v", text, err)
					continue
				}
				switch {
				case want.SingleEntry && (!d.Single() || d.IDs[0] != want.ID):
					t.Errorf("Resolve(%q) = %v, want the single ID %d", text, d.IDs, want.ID)
				case !want.SingleEntry && d.Single():
					t.Errorf("Resolve(%q) = %v, want several tokens (not one vocabulary entry)", text, d.IDs)
				case !want.SingleEntry && tok.Decode(d.IDs) != text:
					t.Errorf("Resolve(%q) = %v, which decodes to %q", text, d.IDs, tok.Decode(d.IDs))
				}
			}
		})
	}
}

// TestResolveKnown spells out the cases parsers depend on most.
func TestResolveKnown(t *testing.T) {
	tests := []struct {
		family, text string
		single       bool
		id           int
	}{
		{"qwen3", "<think>", true, 151667},
		{"qwen3", "</think>", true, 151668},
		{"qwen3", "<tool_call>", true, 151657},
		{"deepseek-v3", "<think>", false, 0},
		{"deepseek-v3", "<｜tool▁calls▁begin｜>", true, 128806},
		{"llama3", "<think>", false, 0},
		{"llama3", "<|eot_id|>", true, 128009},
		{"gpt-oss", "<|channel|>", true, 200005},
		{"gpt-oss", "<|message|>", true, 200008},
		{"gemma3", "<start_of_turn>", true, 105},
		{"gemma3", "<think>", false, 0},
		{"mistral-nemo", "[THINK]", false, 0},
		{"olmo", "<|im_end|>", true, 100265},
		{"granite", "Here is my thought process:", false, 0},
		{"granite", "<|start_of_role|>", true, 49152},
		{"kimi-k2", "<think>", false, 0},
		{"kimi-k2", "<|tool_calls_section_begin|>", true, 163595},
		{"kimi-k2", "<|im_middle|>", true, 163601},
		{"hunyuan-a13b", "<answer>", false, 0},
		{"hunyuan-a13b", "<|eos|>", true, 127960},
		{"hunyuan-a13b", "<|extra_0|>", true, 127962},
	}
	for _, tt := range tests {
		t.Run(tt.family+"/"+tt.text, func(t *testing.T) {
			tok := testvocab.Load(t, tt.family)
			d, err := tokenizer.Resolve(tok, tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if d.Single() != tt.single || tt.single && d.IDs[0] != tt.id {
				t.Errorf("Resolve(%q) = %v, want single=%v id=%d", tt.text, d.IDs, tt.single, tt.id)
			}
			if !tt.single && len(d.IDs) < 2 {
				t.Errorf("Resolve(%q) = %v, want several tokens", tt.text, d.IDs)
			}
			if got := tok.Decode(d.IDs); got != tt.text {
				t.Errorf("Decode(%v) = %q, want %q", d.IDs, got, tt.text)
			}
		})
	}
}

// TestRoundTrip checks Decode(Encode(s)) == s on the reference texts for
// the byte-level vocabularies (after NFC where the family normalizes) and
// the tiktoken ones.
func TestRoundTrip(t *testing.T) {
	nfc := map[string]bool{"qwen3": true, "hunyuan-a13b": true}
	for _, family := range families {
		if family == "gemma3" { // SentencePiece-style: a written "▁" decodes as a space
			continue
		}
		t.Run(family, func(t *testing.T) {
			tok := testvocab.Load(t, family)
			for _, c := range readExpected(t, family).Cases {
				want := c.Text
				if nfc[family] {
					want = norm.NFC.String(want)
				}
				if got := tok.Decode(tok.Encode(c.Text)); got != want {
					t.Errorf("Decode(Encode(%q)) = %q", c.Text, got)
				}
			}
		})
	}
}

// TestConcurrentEncode encodes from many goroutines at once with one
// tokenizer (run it with -race) and compares with sequential results.
func TestConcurrentEncode(t *testing.T) {
	for _, family := range []string{"qwen3", "kimi-k2"} {
		t.Run(family, func(t *testing.T) {
			tok := testvocab.Load(t, family)
			cases := readExpected(t, family).Cases
			want := make([]string, len(cases))
			for i, c := range cases {
				want[i] = fmt.Sprint(c.IDs)
			}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range cases {
						j := (i + g*31) % len(cases)
						if got := fmt.Sprint(tok.Encode(cases[j].Text)); got != want[j] && !(got == "[]" && want[j] == "[]") {
							t.Errorf("goroutine %d: Encode(%q) = %s, want %s", g, cases[j].Text, got, want[j])
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// FuzzRoundTrip checks that any bytes, valid UTF-8 or not, come back from
// Decode(Encode(s)) unchanged with a byte-level vocabulary without a
// normalizer.
func FuzzRoundTrip(f *testing.F) {
	tok := testvocab.Load(f, "llama3")
	for _, s := range []string{"", " ", "<think>\n\n</think>\n\n", "x</think>y", "你好 👩‍👩‍👧", "\xff\xfe", "a\xc3", "'S 'ſ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := tok.Decode(tok.Encode(s)); got != s {
			t.Errorf("Decode(Encode(%q)) = %q", s, got)
		}
	})
}

// TestKimiKnownAnswer is the known answer of the daulet/tokenizers module
// that ships Kimi K2's rank file (SOURCES.md).
func TestKimiKnownAnswer(t *testing.T) {
	tok := testvocab.Load(t, "kimi-k2")
	want := []int{19180, 11, 2695, 0, 220, 33845, 378, 2243, 856}
	if got := tok.Encode("Hello, world! 你好，世界！"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
}

// TestDecodeOneID checks that Decode of one ID, which the parsers' token
// walks ask for a token at a time and which takes a shorter way for some
// decoders, gives what Decode of a list holding that one token gives: for
// every ID of every Hugging Face vocabulary, and a few outside it, the
// list made with an ID outside the vocabulary, which Decode skips.
func TestDecodeOneID(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, family := range families {
		t.Run(family, func(t *testing.T) {
			hf, ok := testvocab.Load(t, family).(*tokenizer.HF)
			if !ok {
				t.Skip("not a Hugging Face tokenizer")
			}
			for id := -2; id < hf.VocabSize()+2; id++ {
				if one, list := hf.Decode([]int{id}), hf.Decode([]int{id, -1}); one != list {
					t.Fatalf("Decode([%d]) = %q, Decode([%d, -1]) = %q", id, one, id, list)
				}
			}
		})
	}
}
