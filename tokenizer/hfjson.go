package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// hfFile is the part of a tokenizer.json that encoding and decoding use.
// The post-processor is not read: Encode never adds BOS or EOS tokens.
type hfFile struct {
	AddedTokens  []hfAddedToken  `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Decoder      json.RawMessage `json:"decoder"`
	Model        *bpeConfig      `json:"model"`
}

type hfAddedToken struct {
	ID         int32  `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// mergeList reads the merges of a BPE model in either form tokenizer.json
// uses: "a b" strings (older files) or ["a", "b"] pairs (newer files, which
// allow spaces inside tokens).
type mergeList [][2]string

func (ml *mergeList) UnmarshalJSON(data []byte) error {
	rest := bytes.TrimLeft(data, " \t\r\n")
	if bytes.Equal(rest, []byte("null")) {
		*ml = nil
		return nil
	}
	if len(rest) == 0 || rest[0] != '[' {
		return errors.New("merges: not a list")
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) > 0 && rest[0] == '"' {
		var lines []string
		if err := json.Unmarshal(data, &lines); err != nil {
			return fmt.Errorf("merges: %w", err)
		}
		out := make(mergeList, len(lines))
		for i, line := range lines {
			a, b, ok := strings.Cut(line, " ")
			if !ok {
				return fmt.Errorf("merges: entry %d %q is not two tokens separated by a space", i, line)
			}
			out[i] = [2]string{a, b}
		}
		*ml = out
		return nil
	}
	var pairs [][2]string
	if err := json.Unmarshal(data, &pairs); err != nil {
		return fmt.Errorf("merges: %w", err)
	}
	*ml = pairs
	return nil
}

// component is the common shape of normalizers, pre-tokenizers and
// decoders: a type name and its fields.
type component struct {
	Type string `json:"type"`

	// Sequence
	Normalizers   []json.RawMessage `json:"normalizers"`
	PreTokenizers []json.RawMessage `json:"pretokenizers"`
	Decoders      []json.RawMessage `json:"decoders"`

	// Replace, Split
	Pattern *hfPattern `json:"pattern"`
	Content *string    `json:"content"`
	// Split
	Behavior string `json:"behavior"`
	Invert   bool   `json:"invert"`
	// Prepend
	Prepend *string `json:"prepend"`
	// Strip (normalizer)
	StripLeft  *bool `json:"strip_left"`
	StripRight *bool `json:"strip_right"`
	// Strip (decoder)
	Start int `json:"start"`
	Stop  int `json:"stop"`
	// ByteLevel
	AddPrefixSpace *bool `json:"add_prefix_space"`
	UseRegex       *bool `json:"use_regex"`
	// Metaspace
	Replacement   *string `json:"replacement"`
	PrependScheme *string `json:"prepend_scheme"`
	Split         *bool   `json:"split"`
}

// hfPattern is {"String": "..."} or {"Regex": "..."}.
type hfPattern struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

// parseComponent decodes one component; kind names the part for errors
// ("normalizer", "pre_tokenizer", "decoder"). A JSON null gives ok false.
func parseComponent(kind string, raw json.RawMessage) (c component, ok bool, err error) {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return c, false, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, false, fmt.Errorf("%s: %w", kind, err)
	}
	if c.Type == "" {
		return c, false, fmt.Errorf("%s: no type", kind)
	}
	return c, true, nil
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

func stringOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
