package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Load reads the tokenizer of a model folder. Every file may also be
// gzip-compressed, with ".gz" added to its name. In order:
//
//  1. tokenizer.json: a Hugging Face tokenizer, read with [LoadHF]. It wins
//     over vocab.json and merges.txt, which lack the added tokens and the
//     pre-tokenizer.
//  2. A tiktoken rank file, tiktoken.model or *.tiktoken, with a
//     tokenizer_config.json whose tokenizer_class names a known
//     tokenizer: "TikTokenTokenizer" (Kimi K2) or "HYTokenizer" (Hunyuan).
//     The class fixes the word pattern and how special tokens are numbered;
//     see [LoadTiktoken].
//  3. A single other *.json file holding a tokenizer.json under another
//     name (OLMo's allenai_dolma2.json), read with [LoadHF]. The usual
//     companions (tokenizer_config.json, config.json, vocab.json, ...)
//     are not candidates.
//
// Anything else is an error that says what the folder lacks.
//
// The tokenizer returned implements [Configured] when the folder holds a
// tokenizer_config.json: its Config gives the file's fields (a malformed
// file is an error). Without one, Config returns nil.
func Load(dir string) (Tokenizer, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: load %s: %w", dir, err)
	}
	files := map[string]string{} // name without .gz → name on disk
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".gz")
		if _, dup := files[name]; dup {
			return nil, fmt.Errorf("tokenizer: load %s: both %s and %s.gz (%w)", dir, name, name, ErrMalformed)
		}
		files[name] = e.Name()
		names = append(names, name)
	}
	sort.Strings(names)
	path := func(name string) string { return filepath.Join(dir, files[name]) }

	// loadHF reads a Hugging Face tokenizer with the folder's metadata.
	loadHF := func(name string) (Tokenizer, error) {
		h, err := LoadHF(path(name))
		if err != nil {
			return nil, err
		}
		if _, ok := files["tokenizer_config.json"]; ok {
			if h.config, err = readConfig(path("tokenizer_config.json")); err != nil {
				return nil, err
			}
		}
		return h, nil
	}
	if _, ok := files["tokenizer.json"]; ok {
		return loadHF("tokenizer.json")
	}
	var ranks []string
	for _, name := range names {
		if name == "tiktoken.model" || strings.HasSuffix(name, ".tiktoken") {
			ranks = append(ranks, name)
		}
	}
	switch len(ranks) {
	case 0:
	case 1:
		if _, ok := files["tokenizer_config.json"]; !ok {
			return nil, fmt.Errorf("tokenizer: load %s: rank file %s without tokenizer_config.json (%w)", dir, files[ranks[0]], fs.ErrNotExist)
		}
		return loadTiktokenModel(path(ranks[0]), path("tokenizer_config.json"))
	default:
		return nil, fmt.Errorf("tokenizer: load %s: several rank files: %s (%w)", dir, strings.Join(ranks, ", "), ErrMalformed)
	}
	var other []string
	for _, name := range names {
		if strings.HasSuffix(name, ".json") && !companionFiles[name] {
			other = append(other, name)
		}
	}
	switch len(other) {
	case 1:
		return loadHF(other[0])
	case 0:
		return nil, fmt.Errorf("tokenizer: load %s: no tokenizer.json, tiktoken rank file or other tokenizer JSON (%w)", dir, fs.ErrNotExist)
	}
	return nil, fmt.Errorf("tokenizer: load %s: no tokenizer.json, and several JSON files could be one: %s (%w)", dir, strings.Join(other, ", "), ErrMalformed)
}

// companionFiles are JSON files of a model folder that are not tokenizers.
var companionFiles = map[string]bool{
	"tokenizer_config.json":    true,
	"special_tokens_map.json":  true,
	"added_tokens.json":        true,
	"vocab.json":               true,
	"config.json":              true,
	"generation_config.json":   true,
	"preprocessor_config.json": true,
	"chat_template.json":       true,
}

// tiktokenClass describes a tokenizer_class that reads a tiktoken rank file.
type tiktokenClass struct {
	pattern   string
	nfc       bool
	splitRuns bool
	// special numbers the special tokens, given the number of ranks and the
	// tokenizer_config.json.
	special func(nRanks int, cfg *tokenizerConfig) map[string]int
}

type tokenizerConfig struct {
	TokenizerClass     string `json:"tokenizer_class"`
	AddedTokensDecoder map[string]struct {
		Content string `json:"content"`
	} `json:"added_tokens_decoder"`
}

// kimiPattern is pat_str of Kimi K2's tokenization_kimi.py. It uses class
// intersections ([...&&[^\p{Han}]]), which LoadTiktoken rewrites.
const kimiPattern = `[\p{Han}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// hunyuanPattern is the pattern of Hunyuan's tokenization_hy.py.
const hunyuanPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var tiktokenClasses = map[string]tiktokenClass{
	// Kimi K2: 256 special slots after the ranks, named by the config's
	// added_tokens_decoder, the others <|reserved_token_{id}|>.
	"TikTokenTokenizer": {
		pattern:   kimiPattern,
		splitRuns: true,
		special: func(n int, cfg *tokenizerConfig) map[string]int {
			special := make(map[string]int, 256)
			for id := n; id < n+256; id++ {
				name := fmt.Sprintf("<|reserved_token_%d|>", id)
				if at, ok := cfg.AddedTokensDecoder[fmt.Sprint(id)]; ok && at.Content != "" {
					name = at.Content
				}
				special[name] = id
			}
			return special
		},
	},
	// Hunyuan: text is NFC-normalized; the special tokens follow the ranks
	// in a fixed order.
	"HYTokenizer": {
		pattern: hunyuanPattern,
		nfc:     true,
		special: func(n int, _ *tokenizerConfig) map[string]int {
			names := []string{"<|endoftext|>", "<|startoftext|>", "<|bos|>", "<|eos|>", "<|pad|>"}
			for i := range 205 {
				names = append(names, fmt.Sprintf("<|extra_%d|>", i))
			}
			special := make(map[string]int, len(names))
			for i, name := range names {
				special[name] = n + i
			}
			return special
		},
	},
}

func loadTiktokenModel(ranksPath, configPath string) (Tokenizer, error) {
	data, err := readFile(configPath)
	if err != nil {
		return nil, loadError(configPath, err)
	}
	fields, err := parseConfig(data)
	if err != nil {
		return nil, loadError(configPath, err)
	}
	var cfg tokenizerConfig
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, loadError(configPath, fmt.Errorf("parse JSON: %w", err))
	}
	class, ok := tiktokenClasses[cfg.TokenizerClass]
	if !ok {
		known := make([]string, 0, len(tiktokenClasses))
		for name := range tiktokenClasses {
			known = append(known, name)
		}
		sort.Strings(known)
		return nil, loadError(configPath, unsupportedf("unsupported tokenizer_class %q for a tiktoken rank file (known: %s)",
			cfg.TokenizerClass, strings.Join(known, ", ")))
	}
	data, err = readFile(ranksPath)
	if err != nil {
		return nil, loadError(ranksPath, err)
	}
	ranks, err := parseRanks(data)
	if err != nil {
		return nil, loadError(ranksPath, err)
	}
	if len(ranks) == 0 {
		return nil, loadError(ranksPath, errors.New("no ranks"))
	}
	t, err := newTiktokenRanks(ranks, TiktokenConfig{
		Special:       class.special(len(ranks), &cfg),
		Pattern:       class.pattern,
		NFC:           class.nfc,
		SplitLongRuns: class.splitRuns,
	})
	if err != nil {
		return nil, loadError(ranksPath, err)
	}
	t.config = fields
	return t, nil
}
