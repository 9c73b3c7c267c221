package tokenizer

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dlclark/regexp2"
	"golang.org/x/text/unicode/norm"
)

// A normalizer rewrites text before it is split into words.
type normalizer interface {
	// normalize returns s rewritten.
	normalize(s string) string
	// normalizeKey rewrites a single vocabulary entry for lookup: like
	// normalize, but without adding text around it (Prepend).
	normalizeKey(s string) string
}

type unicodeForm struct{ form norm.Form }

func (n unicodeForm) normalize(s string) string    { return n.form.String(s) }
func (n unicodeForm) normalizeKey(s string) string { return n.form.String(s) }

type lowercase struct{}

func (lowercase) normalize(s string) string    { return strings.ToLower(s) }
func (lowercase) normalizeKey(s string) string { return strings.ToLower(s) }

type replaceString struct{ old, new string }

func (n replaceString) normalize(s string) string    { return strings.ReplaceAll(s, n.old, n.new) }
func (n replaceString) normalizeKey(s string) string { return n.normalize(s) }

type replaceRegex struct {
	re      *regexp2.Regexp
	content string
}

func (n replaceRegex) normalize(s string) string {
	// The content is literal text: "$1" in it means "$1", as in Hugging Face.
	out, err := n.re.ReplaceFunc(s, func(regexp2.Match) string { return n.content }, -1, -1)
	if err != nil { // only a match timeout, which is never set
		return s
	}
	return out
}
func (n replaceRegex) normalizeKey(s string) string { return n.normalize(s) }

type prepend struct{ prefix string }

func (n prepend) normalize(s string) string {
	if s == "" {
		return s
	}
	return n.prefix + s
}
func (prepend) normalizeKey(s string) string { return s }

type strip struct{ left, right bool }

func (n strip) normalize(s string) string {
	if n.left {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
	}
	if n.right {
		s = strings.TrimRightFunc(s, unicode.IsSpace)
	}
	return s
}
func (strip) normalizeKey(s string) string { return s }

type normalizerSeq []normalizer

func (seq normalizerSeq) normalize(s string) string {
	for _, n := range seq {
		s = n.normalize(s)
	}
	return s
}

func (seq normalizerSeq) normalizeKey(s string) string {
	for _, n := range seq {
		s = n.normalizeKey(s)
	}
	return s
}

// buildNormalizer turns the "normalizer" of a tokenizer.json into a
// normalizer; nil when there is none.
func buildNormalizer(raw []byte) (normalizer, error) {
	c, ok, err := parseComponent("normalizer", raw)
	if err != nil || !ok {
		return nil, err
	}
	switch c.Type {
	case "NFC":
		return unicodeForm{norm.NFC}, nil
	case "NFD":
		return unicodeForm{norm.NFD}, nil
	case "NFKC":
		return unicodeForm{norm.NFKC}, nil
	case "NFKD":
		return unicodeForm{norm.NFKD}, nil
	case "Lowercase":
		return lowercase{}, nil
	case "Prepend":
		if c.Prepend == nil {
			return nil, fmt.Errorf("normalizer Prepend: no prepend")
		}
		return prepend{*c.Prepend}, nil
	case "Strip":
		return strip{left: boolOr(c.StripLeft, true), right: boolOr(c.StripRight, true)}, nil
	case "Replace":
		if c.Pattern == nil || c.Content == nil {
			return nil, fmt.Errorf("normalizer Replace: no pattern or content")
		}
		if c.Pattern.String != nil {
			if *c.Pattern.String == "" {
				return nil, fmt.Errorf("normalizer Replace: empty pattern")
			}
			return replaceString{*c.Pattern.String, *c.Content}, nil
		}
		if c.Pattern.Regex != nil {
			re, err := compileRegex(*c.Pattern.Regex)
			if err != nil {
				return nil, fmt.Errorf("normalizer Replace: %w", err)
			}
			return replaceRegex{re, *c.Content}, nil
		}
		return nil, fmt.Errorf("normalizer Replace: pattern is neither String nor Regex")
	case "Sequence":
		var seq normalizerSeq
		for _, sub := range c.Normalizers {
			n, err := buildNormalizer(sub)
			if err != nil {
				return nil, err
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		if len(seq) == 0 {
			return nil, nil
		}
		return seq, nil
	}
	return nil, unsupportedf("unsupported normalizer %q", c.Type)
}
