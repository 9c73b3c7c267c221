package tokenizer

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/dlclark/regexp2"
	"github.com/pkoukk/tiktoken-go"
	"golang.org/x/text/unicode/norm"
)

// Tiktoken is a tokenizer over a tiktoken rank file (OpenAI's format: one
// base64 token and its rank per line), as Kimi K2 and Hunyuan use. The
// byte-pair encoding itself is github.com/pkoukk/tiktoken-go's; this type
// adds special tokens matched whole, a per-word cache and the file loading.
// A Tiktoken is immutable and safe for concurrent use.
type Tiktoken struct {
	enc       *tiktoken.Tiktoken
	ranks     map[string]int // token bytes → ID (shared with enc)
	special   map[string]int // special token → ID
	specialID map[int]string
	trie      *tokenTrie // special tokens, by index into names
	names     []string
	re        *regexp2.Regexp
	nfc       bool
	splitRuns bool
	cache     *wordCache
	config    map[string]any // tokenizer_config.json, when Load read one
}

// TiktokenConfig says how to read a tiktoken rank file beyond its ranks.
type TiktokenConfig struct {
	// Special maps special tokens to their IDs, which must not be ranks.
	Special map[string]int
	// Pattern is the regular expression that splits text into words, in the
	// syntax of tiktoken (Rust regex with look-around). Character class
	// intersections of the form [A&&[^B]] and [A&&[B]] are accepted.
	Pattern string
	// NFC normalizes text to Unicode NFC before encoding (Hunyuan).
	NFC bool
	// SplitLongRuns cuts the text before encoding as Kimi K2's tokenizer
	// does: into pieces of at most 400,000 characters, then wherever more
	// than 25,000 whitespace or 25,000 other characters follow each other.
	// Each piece is encoded on its own, so this only changes texts with such
	// long runs.
	SplitLongRuns bool
}

// LoadTiktoken reads a tiktoken rank file, plain or gzip-compressed, with
// the given special tokens and word pattern. It never uses the network.
func LoadTiktoken(path string, special map[string]int, pattern string) (*Tiktoken, error) {
	return LoadTiktokenConfig(path, TiktokenConfig{Special: special, Pattern: pattern})
}

// LoadTiktokenConfig is [LoadTiktoken] with every option.
func LoadTiktokenConfig(path string, cfg TiktokenConfig) (*Tiktoken, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, loadError(path, err)
	}
	t, err := newTiktoken(data, cfg)
	if err != nil {
		return nil, loadError(path, err)
	}
	return t, nil
}

func newTiktoken(data []byte, cfg TiktokenConfig) (*Tiktoken, error) {
	ranks, err := parseRanks(data)
	if err != nil {
		return nil, err
	}
	return newTiktokenRanks(ranks, cfg)
}

func newTiktokenRanks(ranks map[string]int, cfg TiktokenConfig) (*Tiktoken, error) {
	pattern, err := rewriteClassIntersections(cfg.Pattern)
	if err != nil {
		return nil, err
	}
	if pattern == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	re, err := compileRegex(pattern)
	if err != nil {
		return nil, err
	}
	byRank := make(map[int]bool, len(ranks))
	for _, id := range ranks {
		byRank[id] = true
	}
	t := &Tiktoken{
		ranks:     ranks,
		special:   make(map[string]int, len(cfg.Special)),
		specialID: make(map[int]string, len(cfg.Special)),
		trie:      newTokenTrie(),
		re:        re,
		nfc:       cfg.NFC,
		splitRuns: cfg.SplitLongRuns,
		cache:     newWordCache(),
	}
	for name := range cfg.Special {
		t.names = append(t.names, name)
	}
	sort.Strings(t.names)
	for i, name := range t.names {
		id := cfg.Special[name]
		switch {
		case name == "":
			return nil, fmt.Errorf("special token with id %d: empty name", id)
		case byRank[id]:
			return nil, fmt.Errorf("special token %q: id %d is also a rank", name, id)
		}
		if other, dup := t.specialID[id]; dup {
			return nil, fmt.Errorf("special tokens %q and %q share id %d", other, name, id)
		}
		t.special[name] = id
		t.specialID[id] = name
		t.trie.add(name, i)
	}
	core, err := tiktoken.NewCoreBPE(ranks, t.special, pattern)
	if err != nil {
		return nil, fmt.Errorf("tiktoken: %w", err)
	}
	t.enc = tiktoken.NewTiktoken(core, &tiktoken.Encoding{
		PatStr:         pattern,
		MergeableRanks: ranks,
		SpecialTokens:  t.special,
	}, nil)
	return t, nil
}

// parseRanks reads the lines of a rank file: a base64 token, a space, its
// rank. Blank lines are skipped.
func parseRanks(data []byte) (map[string]int, error) {
	ranks := make(map[string]int, bytes.Count(data, []byte("\n"))+1)
	seen := make(map[int]bool, len(ranks))
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 {
			continue
		}
		tok64, rank64, ok := bytes.Cut(line, []byte(" "))
		if !ok {
			return nil, fmt.Errorf("line %d: not a base64 token and a rank", n)
		}
		tok, err := base64.StdEncoding.DecodeString(string(tok64))
		if err != nil {
			return nil, fmt.Errorf("line %d: token: %w", n, err)
		}
		rank, err := strconv.Atoi(string(rank64))
		if err != nil || rank < 0 {
			return nil, fmt.Errorf("line %d: rank %q is not a non-negative integer", n, rank64)
		}
		if seen[rank] {
			return nil, fmt.Errorf("line %d: rank %d appears twice", n, rank)
		}
		if _, dup := ranks[string(tok)]; dup {
			return nil, fmt.Errorf("line %d: token %q appears twice", n, tok)
		}
		seen[rank] = true
		ranks[string(tok)] = rank
	}
	if len(ranks) == 0 {
		return nil, fmt.Errorf("no ranks")
	}
	return ranks, nil
}

// Config returns the fields of the model folder's tokenizer_config.json
// when [Load] read the tokenizer, else nil (see [Configured]). The map is
// shared: do not modify it.
func (t *Tiktoken) Config() map[string]any { return t.config }

// TokenID returns the ID of a special token, or of the rank whose bytes are
// token.
func (t *Tiktoken) TokenID(token string) (int, bool) {
	if id, ok := t.special[token]; ok {
		return id, true
	}
	id, ok := t.ranks[token]
	return id, ok
}

// Encode returns the IDs of text. Special tokens written in text are
// encoded as themselves (tiktoken's allowed_special="all"). Bytes that are
// not valid UTF-8 are read as U+FFFD, as tiktoken reads text.
func (t *Tiktoken) Encode(text string) []int {
	if t.nfc {
		text = norm.NFC.String(text)
	}
	ids := make([]int, 0, len(text)/3+1)
	if !t.splitRuns {
		return t.encodeSpecial(ids, text)
	}
	for len(text) > 0 {
		var chunk string
		chunk, text = cutRunes(text, kimiMaxEncodeChars)
		for _, piece := range splitLongRuns(chunk, kimiMaxRun) {
			ids = t.encodeSpecial(ids, piece)
		}
	}
	return ids
}

// Kimi K2's tokenizer cuts text into pieces of at most kimiMaxEncodeChars
// characters, and within them cuts runs longer than kimiMaxRun characters
// (tokenization_kimi.py, after Meta's Llama 3 tokenizer).
const (
	kimiMaxEncodeChars = 400_000
	kimiMaxRun         = 25_000
)

// cutRunes splits s after its first n characters.
func cutRunes(s string, n int) (head, tail string) {
	for i := range s {
		if n == 0 {
			return s[:i], s[i:]
		}
		n--
	}
	return s, ""
}

// splitLongRuns cuts s so that no piece has more than max whitespace, or
// max other, characters in a row (Python's str.isspace decides).
func splitLongRuns(s string, max int) []string {
	var pieces []string
	start, run, inSpace := 0, 0, false
	for i, r := range s {
		space := unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f
		if i == 0 {
			inSpace = space
		}
		if space != inSpace {
			run, inSpace = 1, space
			continue
		}
		if run++; run > max {
			pieces = append(pieces, s[start:i])
			start, run = i, 1
		}
	}
	return append(pieces, s[start:])
}

// encodeSpecial appends the IDs of text, special tokens included.
func (t *Tiktoken) encodeSpecial(ids []int, text string) []int {
	pos := 0
	for pos < len(text) {
		start, end, idx := t.trie.find(text, pos)
		ids = t.encodeOrdinary(ids, text[pos:start])
		if idx < 0 {
			break
		}
		ids = append(ids, t.special[t.names[idx]])
		pos = end
	}
	return ids
}

// encodeOrdinary appends the IDs of text, which holds no special token.
func (t *Tiktoken) encodeOrdinary(ids []int, text string) []int {
	if text == "" {
		return ids
	}
	var buf [64]span
	for _, sp := range regexSpans(buf[:0], t.re, text, false) {
		word := text[sp.start:sp.end]
		if !sp.match {
			// Text the pattern skips is not encoded, as in tiktoken. None of
			// the known patterns skips any.
			continue
		}
		if id, ok := t.ranks[word]; ok {
			ids = append(ids, id)
			continue
		}
		if cached, ok := t.cache.get(word); ok {
			for _, id := range cached {
				ids = append(ids, int(id))
			}
			continue
		}
		// A word the pattern matched is matched whole again on its own, so
		// tiktoken-go's encoder makes exactly this word's byte pairs.
		enc := t.enc.EncodeOrdinary(word)
		cached := make([]int32, len(enc))
		for i, id := range enc {
			cached[i] = int32(id)
		}
		t.cache.put(word, cached)
		ids = append(ids, enc...)
	}
	return ids
}

// Decode returns the text of ids, special tokens included. IDs outside the
// vocabulary are skipped.
func (t *Tiktoken) Decode(ids []int) string {
	return t.enc.Decode(ids)
}

// VocabSize returns one more than the largest ID, special tokens included.
func (t *Tiktoken) VocabSize() int {
	n := 0
	for _, id := range t.ranks {
		n = max(n, id+1)
	}
	for id := range t.specialID {
		n = max(n, id+1)
	}
	return n
}

// rewriteClassIntersections rewrites the class intersections of Rust regex
// syntax, which regexp2 lacks, into .NET class subtractions, which it has:
// [A&&[^B]] becomes [A-[B]], and [A&&[B]] becomes [A-[^B]]. Any other use
// of && inside a class is an error, never a silent change of meaning (for
// regexp2, "&&" in a class would be two ampersands).
func rewriteClassIntersections(pattern string) (string, error) {
	if !strings.Contains(pattern, "&&") {
		return pattern, nil
	}
	var out strings.Builder
	depth := 0 // nesting of character classes
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			out.WriteString(pattern[i : i+2])
			i++
			continue
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case c == '&' && strings.HasPrefix(pattern[i:], "&&"):
			if depth != 1 || !strings.HasPrefix(pattern[i:], "&&[") {
				return "", unsupportedf("pattern %q: unsupported use of && at offset %d", pattern, i)
			}
			// The intersected class must be the last thing in the outer one.
			inner, rest, ok := cutClass(pattern[i+2:])
			if !ok || !strings.HasPrefix(rest, "]") {
				return "", unsupportedf("pattern %q: unsupported use of && at offset %d", pattern, i)
			}
			if strings.HasPrefix(inner, "[^") {
				out.WriteString("-[" + inner[2:])
			} else {
				out.WriteString("-[^" + inner[1:])
			}
			i += 2 + len(inner) - 1
			continue
		}
		out.WriteByte(c)
	}
	return out.String(), nil
}

// cutClass splits s, which starts with a character class "[...]", into that
// class and the rest.
func cutClass(s string) (class, rest string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return s[:i+1], s[i+1:], true
			}
		}
	}
	return "", s, false
}
