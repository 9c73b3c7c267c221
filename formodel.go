package reasoning

import (
	"slices"
	"strings"
)

// ForModel returns the name of the parser for a model, given its Hugging
// Face ID ("Qwen/Qwen3-8B") or the name a server serves it under
// ("qwen3:8b", "deepseek-r1-distill-qwen-7b"), from the Models patterns of
// the names registered in Default (the parsers package declares them where
// it registers each family). ok is false for a model no pattern matches; a
// gateway then leaves the model's output untouched.
//
// Matching ignores case and treats '_' and ' ' as '-'; a pattern matches
// anywhere in the ID but only from the start of a word, and its '*' stands
// for any run of characters. When several match, the most specific wins:
// the one with the most characters besides '*' (then the earlier name), so
// that "Qwen3-8B" finds qwen3, "Qwen3-30B-A3B-Thinking-2507" finds
// qwen3_thinking ("qwen3*thinking"), "Qwen3-30B-A3B-Instruct-2507" (which
// never thinks) finds identity, and "DeepSeek-R1-0528-Qwen3-8B" finds
// deepseek_r1 ("deepseek-r1" over "qwen3"). Where engines disagree on the
// parser for a model, vLLM's choice wins, as it does for names (GLM-4.7 is
// glm45, Kimi K2.5 is kimi_k2).
func ForModel(modelID string) (name string, ok bool) { return Default.ForModel(modelID) }

// ForModel is the package's ForModel on r's names.
func (r *Registry) ForModel(modelID string) (name string, ok bool) {
	id := normalizeModelID(modelID)
	if id == "" {
		return "", false
	}
	for _, e := range r.load().models {
		if matchModel(id, e.pattern) {
			return e.name, true
		}
	}
	return "", false
}

// A modelEntry maps a pattern of model IDs to a parser name.
type modelEntry struct {
	pattern string // normalised (lower case, '-' for '_'), '*' for any run
	name    string // canonical parser name
}

// sortModels orders patterns most specific first: more characters besides
// '*', then by name and pattern, so that the order does not depend on the
// order of registration.
func sortModels(ms []modelEntry) {
	slices.SortStableFunc(ms, func(a, b modelEntry) int {
		la, lb := len(a.pattern)-strings.Count(a.pattern, "*"), len(b.pattern)-strings.Count(b.pattern, "*")
		if la != lb {
			return lb - la
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.pattern, b.pattern)
	})
}

// normalizeModelID folds case and spells '_' and ' ' as '-'.
func normalizeModelID(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	return strings.Map(func(r rune) rune {
		if r == '_' || r == ' ' {
			return '-'
		}
		return r
	}, id)
}

// matchModel reports whether pattern occurs in id starting at a word
// boundary, its '*' matching any run of characters.
func matchModel(id, pattern string) bool {
	first, rest, _ := strings.Cut(pattern, "*")
	for from := 0; ; {
		i := strings.Index(id[from:], first)
		if i < 0 {
			return false
		}
		i += from
		if i == 0 || !isWordByte(id[i-1]) {
			if matchRest(id[i+len(first):], rest) {
				return true
			}
		}
		from = i + 1
	}
}

// matchRest matches the '*'-separated pieces of rest, in order, anywhere
// in s.
func matchRest(s, rest string) bool {
	for rest != "" {
		var piece string
		piece, rest, _ = strings.Cut(rest, "*")
		i := strings.Index(s, piece)
		if i < 0 {
			return false
		}
		s = s[i+len(piece):]
	}
	return true
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
