package tokenizer_test

import (
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestLoadConfig checks that Load keeps a folder's tokenizer_config.json as
// the tokenizer's metadata, and that the single-file loaders have none.
func TestLoadConfig(t *testing.T) {
	hf := hfWith("")
	ranks := []byte("YQ== 0\nYg== 1\n")
	const meta = `{"tokenizer_class": "TikTokenTokenizer", "response_template": {"fields": {}}}`
	tests := []struct {
		name  string
		files map[string][]byte
		want  string // the config's tokenizer_class; "" for no config
		err   string // in the error, when Load must fail
	}{
		{"tokenizer.json with config", map[string][]byte{"tokenizer.json": hf, "tokenizer_config.json": []byte(meta)}, "TikTokenTokenizer", ""},
		{"gzipped config", map[string][]byte{"tokenizer.json": hf, "tokenizer_config.json.gz": gzipped([]byte(meta))}, "TikTokenTokenizer", ""},
		{"tokenizer.json alone", map[string][]byte{"tokenizer.json": hf}, "", ""},
		{"other json with config", map[string][]byte{"dolma.json": hf, "tokenizer_config.json": []byte(meta)}, "TikTokenTokenizer", ""},
		{"tiktoken", map[string][]byte{"tiktoken.model": ranks, "tokenizer_config.json": []byte(meta)}, "TikTokenTokenizer", ""},
		{"malformed config", map[string][]byte{"tokenizer.json": hf, "tokenizer_config.json": []byte(`{"a": `)}, "", "tokenizer_config.json: parse JSON"},
		{"config not an object", map[string][]byte{"tokenizer.json": hf, "tokenizer_config.json": []byte(`null`)}, "", "not an object"},
		{"tiktoken config not an object", map[string][]byte{"tiktoken.model": ranks, "tokenizer_config.json": []byte(`[1]`)}, "", "tokenizer_config.json: parse JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				writeFile(t, dir, name, data)
			}
			tok, err := tokenizer.Load(dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("Load error = %v, want one naming %s and containing %q", err, dir, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c, ok := tok.(tokenizer.Configured)
			if !ok {
				t.Fatalf("Load gave %T, which does not implement Configured", tok)
			}
			cfg := c.Config()
			if tt.want == "" {
				if cfg != nil {
					t.Errorf("Config() = %v, want nil without a tokenizer_config.json", cfg)
				}
				return
			}
			if got, _ := cfg["tokenizer_class"].(string); got != tt.want {
				t.Errorf("Config()[tokenizer_class] = %q, want %q", got, tt.want)
			}
			if _, ok := cfg["response_template"].(map[string]any); !ok {
				t.Errorf("Config()[response_template] = %#v, want the decoded object", cfg["response_template"])
			}
		})
	}

	// The single-file loaders read no metadata.
	dir := t.TempDir()
	h, err := tokenizer.LoadHF(writeFile(t, dir, "tokenizer.json", hf))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "tokenizer_config.json", []byte(meta))
	if cfg := h.Config(); cfg != nil {
		t.Errorf("LoadHF: Config() = %v, want nil", cfg)
	}
	tt, err := tokenizer.LoadTiktoken(writeFile(t, dir, "a.tiktoken", ranks), nil, `\w+`)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := tt.Config(); cfg != nil {
		t.Errorf("LoadTiktoken: Config() = %v, want nil", cfg)
	}
}

func TestWithConfig(t *testing.T) {
	v, err := tokenizer.NewVocab(map[string]int{"<think>": 1})
	if err != nil {
		t.Fatal(err)
	}
	if cfg := tokenizer.ConfigOf(v); cfg != nil {
		t.Errorf("ConfigOf(Vocab) = %v, want nil", cfg)
	}
	if cfg := tokenizer.ConfigOf(nil); cfg != nil {
		t.Errorf("ConfigOf(nil) = %v, want nil", cfg)
	}
	meta := map[string]any{"tokenizer_class": "X"}
	tok := tokenizer.WithConfig(v, meta)
	if got := tokenizer.ConfigOf(tok); got["tokenizer_class"] != "X" {
		t.Errorf("ConfigOf(WithConfig(v, meta)) = %v", got)
	}
	// It still encodes and decodes as the tokenizer it wraps.
	ids := tok.Encode("a<think>b")
	if want := v.Encode("a<think>b"); len(ids) != len(want) || ids[1] != 1 || tok.Decode(ids) != "a<think>b" {
		t.Errorf("Encode = %v (want %v), Decode = %q", ids, want, tok.Decode(ids))
	}
	if id, ok := tok.TokenID("<think>"); !ok || id != 1 {
		t.Errorf("TokenID(<think>) = %d, %v", id, ok)
	}
	if tokenizer.WithConfig(nil, meta) != nil {
		t.Error("WithConfig(nil, meta) != nil")
	}
}

// TestRealConfig reads the metadata of a real model folder.
func TestRealConfig(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for family, class := range map[string]string{"gemma3": "GemmaTokenizer", "kimi-k2": "TikTokenTokenizer"} {
		t.Run(family, func(t *testing.T) {
			tok := testvocab.Load(t, family)
			cfg := tokenizer.ConfigOf(tok)
			if got, _ := cfg["tokenizer_class"].(string); got != class {
				t.Errorf("tokenizer_class = %q, want %q", got, class)
			}
		})
	}
}
