package tokenizer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// benchText is about 256 KiB of mixed text: English prose, code, JSON,
// Chinese, Korean, emoji and reasoning markup, built from the reference
// texts of qwen3 with a counter so that not every word repeats.
func benchText(b *testing.B) string {
	b.Helper()
	var texts []string
	for _, c := range readExpected(b, "qwen3").Cases {
		texts = append(texts, c.Text)
	}
	prose := "The model weighs each option in turn, then writes its answer; " +
		"it double-checks the arithmetic (17 * 23 = 391) before it commits.\n"
	var sb strings.Builder
	for i := 0; sb.Len() < 256<<10; i++ {
		sb.WriteString(prose)
		sb.WriteString(texts[i%len(texts)])
		sb.WriteString(" ")
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString("\n")
	}
	return sb.String()
}

func BenchmarkEncode(b *testing.B) {
	text := benchText(b)
	for _, family := range families {
		b.Run(family, func(b *testing.B) {
			tok := testvocab.Load(b, family)
			tok.Encode(text) // warm the word cache, as a long-running server would be
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				tok.Encode(text)
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	text := benchText(b)
	tok := testvocab.Load(b, "qwen3")
	ids := tok.Encode(text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		tok.Decode(ids)
	}
}

func BenchmarkLoadHF(b *testing.B) {
	path := filepath.Join(testvocab.Path(b, "qwen3"), "tokenizer.json.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tokenizer.LoadHF(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolve resolves every delimiter a family's parsers use; each
// op is one family's whole set.
func BenchmarkResolve(b *testing.B) {
	markers := map[string][]string{
		"qwen3":   {"<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_start|>", "<|im_end|>"},
		"llama3":  {"<think>", "</think>", "<|eot_id|>"},
		"kimi-k2": {"<think>", "</think>", "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|im_end|>"},
		"granite": {"Here is my thought process:", "Here is my response:", "Here's my thought process:", "Here's my response:"},
	}
	for family, ms := range markers {
		b.Run(family, func(b *testing.B) {
			tok := testvocab.Load(b, family)
			b.ReportAllocs()
			for b.Loop() {
				for _, m := range ms {
					if _, err := tokenizer.Resolve(tok, m); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
