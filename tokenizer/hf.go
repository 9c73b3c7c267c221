package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HF is a Hugging Face tokenizer read from a tokenizer.json: a BPE model
// with its normalizer, pre-tokenizer, decoder and added tokens. It encodes
// as the Hugging Face tokenizers library does with add_special_tokens=False:
// added tokens written in the text are matched whole, and no BOS or EOS is
// added. An HF is immutable and safe for concurrent use.
type HF struct {
	added     []hfAddedToken   // in file order
	byContent map[string]int32 // added token content → ID
	byID      map[int32]string // added token ID → content
	rawTrie   *tokenTrie       // added tokens matched in the input as written
	normTrie  *tokenTrie       // added tokens matched after normalization

	norm  normalizer // nil: none
	pre   *preTokenizer
	model *bpe
	dec   decoder // nil: tokens are joined with spaces, as Hugging Face does

	config map[string]any // tokenizer_config.json, when Load found one
}

// LoadHF reads a Hugging Face tokenizer.json, plain or gzip-compressed.
//
// The model must be BPE. Supported parts: the normalizers NFC, NFD, NFKC,
// NFKD, Lowercase, Strip, Replace, Prepend and Sequence; the pre-tokenizers
// ByteLevel, Split, Metaspace and Sequence; the decoders ByteLevel,
// ByteFallback, Fuse, Replace, Strip, Metaspace and Sequence. Any other part
// is an error that names it; the post-processor is not read.
func LoadHF(path string) (*HF, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, loadError(path, err)
	}
	h, err := parseHF(data)
	if err != nil {
		return nil, loadError(path, err)
	}
	return h, nil
}

func parseHF(data []byte) (*HF, error) {
	var f hfFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	if f.Model == nil {
		return nil, errors.New("no model")
	}
	h := &HF{
		byContent: make(map[string]int32, len(f.AddedTokens)),
		byID:      make(map[int32]string, len(f.AddedTokens)),
		rawTrie:   newTokenTrie(),
		normTrie:  newTokenTrie(),
	}
	var err error
	if h.norm, err = buildNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if h.pre, err = buildPreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	if h.model, err = newBPE(f.Model, h.pre.byteLevel); err != nil {
		return nil, err
	}
	if h.dec, err = buildDecoder(f.Decoder); err != nil {
		return nil, err
	}
	h.added = f.AddedTokens
	for i, at := range h.added {
		if at.Content == "" {
			return nil, fmt.Errorf("added token %d: empty content", at.ID)
		}
		if at.ID < 0 {
			return nil, fmt.Errorf("added token %q: negative id %d", at.Content, at.ID)
		}
		h.byContent[at.Content] = at.ID
		h.byID[at.ID] = at.Content
		switch {
		case !at.Normalized:
			h.rawTrie.add(at.Content, i)
		case h.norm == nil:
			h.normTrie.add(at.Content, i)
		default:
			// A normalized token is matched, and decoded, in its normalized
			// form, as Hugging Face does ("<x>" after a Prepend("▁")
			// normalizer is "▁<x>", and decodes with the space).
			content := h.norm.normalize(at.Content)
			h.normTrie.add(content, i)
			h.byID[at.ID] = content
		}
	}
	return h, nil
}

// TokenID returns the ID of an added token, or of a model token given as the
// text it stands for: " the", not the byte-level spelling "Ġthe" (which is
// also accepted when it is not valid text of its own), nor "▁the" in a
// SentencePiece-style vocabulary, where spaces are spelled "▁".
func (h *HF) TokenID(token string) (int, bool) {
	if id, ok := h.byContent[token]; ok {
		return int(id), true
	}
	key := token
	if h.norm != nil {
		key = h.norm.normalizeKey(key)
	}
	if h.pre.metaspace != "" {
		key = strings.ReplaceAll(key, " ", h.pre.metaspace)
	}
	if id, ok := h.model.tokenID(key); ok {
		return int(id), true
	}
	return 0, false
}

// Encode returns the IDs of text. Added tokens written in text, special or
// not, are encoded as themselves; nothing is added around the text.
func (h *HF) Encode(text string) []int {
	ids := make([]int, 0, len(text)/3+1)
	h.splitAdded(text, h.rawTrie,
		func(seg string, first bool) {
			if h.norm != nil {
				seg = h.norm.normalize(seg)
			}
			h.splitAdded(seg, h.normTrie,
				func(seg string, first2 bool) {
					h.pre.words(seg, first && first2, func(w string) { ids = h.model.encode(w, ids) })
				},
				func(id int32) { ids = append(ids, int(id)) })
		},
		func(id int32) { ids = append(ids, int(id)) })
	return ids
}

// splitAdded finds the added tokens of trie in text and calls tok for each,
// and seg for the text between them; first says whether a segment starts
// text. Matching is leftmost-longest; the single_word, lstrip and rstrip
// flags of a token are honoured as Hugging Face does.
func (h *HF) splitAdded(text string, trie *tokenTrie, seg func(s string, first bool), tok func(id int32)) {
	pos := 0
	for from := 0; from < len(text); {
		start, end, idx := trie.find(text, from)
		if idx < 0 {
			break
		}
		from = end
		at := &h.added[idx]
		if at.SingleWord && (endsWithWordChar(text[:start]) || startsWithWordChar(text[end:])) {
			continue
		}
		if at.LStrip {
			start = max(len(strings.TrimRightFunc(text[:start], unicode.IsSpace)), pos)
		}
		if at.RStrip {
			end = len(text) - len(strings.TrimLeftFunc(text[end:], unicode.IsSpace))
		}
		if pos < start {
			seg(text[pos:start], pos == 0)
		}
		tok(at.ID)
		pos = end
	}
	if pos < len(text) {
		seg(text[pos:], pos == 0)
	}
}

func isWordChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

func endsWithWordChar(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && isWordChar(r)
}

func startsWithWordChar(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && isWordChar(r)
}

// Decode returns the text of ids, added and special tokens included. IDs
// outside the vocabulary are skipped.
func (h *HF) Decode(ids []int) string {
	if one, ok := h.dec.(oneDecoder); ok && len(ids) == 1 {
		s, _ := h.token(ids[0])
		if text, ok := one.decodeOne(s); ok {
			return text
		}
	}
	toks := make([]string, 0, len(ids))
	for _, id := range ids {
		if s, ok := h.token(id); ok {
			toks = append(toks, s)
		}
	}
	if h.dec == nil {
		return strings.Join(toks, " ")
	}
	return strings.Join(h.dec.decodeChain(toks), "")
}

// token returns the token of id as the vocabulary writes it, added tokens
// included.
func (h *HF) token(id int) (string, bool) {
	if s, ok := h.byID[int32(id)]; ok && id == int(int32(id)) {
		return s, true
	}
	return h.model.token(id)
}

// Config returns the fields of the model folder's tokenizer_config.json
// when [Load] read the tokenizer, else nil (see [Configured]). The map is
// shared: do not modify it.
func (h *HF) Config() map[string]any { return h.config }

// VocabSize returns one more than the largest ID of the vocabulary, added
// tokens included.
func (h *HF) VocabSize() int {
	n := len(h.model.tokens)
	for id := range h.byID {
		n = max(n, int(id)+1)
	}
	return n
}
