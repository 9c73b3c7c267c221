package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// shortSkip is why -short (make test's -race run) skips a test: it sweeps
// many inputs on one goroutine, where the race detector can find nothing,
// and the plain go test run has it.
const shortSkip = "a sweep on one goroutine: the plain go test run has it"

func TestRewriteClassIntersections(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: `\p{L}+`, want: `\p{L}+`},
		{in: `[\p{Lu}\p{M}&&[^\p{Han}]]+`, want: `[\p{Lu}\p{M}-[\p{Han}]]+`},
		{in: `[\p{L}&&[\p{Latin}]]`, want: `[\p{L}-[^\p{Latin}]]`},
		{in: `a&&b`, err: true},            // outside a class
		{in: `[a&&b]`, err: true},          // not a nested class
		{in: `[a&&[b]c]`, err: true},       // the intersected class is not last
		{in: `[[a]&&[b]&&[c]]`, err: true}, // a class nested before &&
		{in: `[\&&[b]]`, want: `[\&&[b]]`}, // \& is one ampersand: no && left
		{in: `x[^\r&&[^\n]]y`, want: `x[^\r-[\n]]y`},
	}
	for _, tt := range tests {
		got, err := rewriteClassIntersections(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("rewriteClassIntersections(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err == nil && got != tt.want {
			t.Errorf("rewriteClassIntersections(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestKimiClassesExhaustive checks, for every code point, that the rewritten
// classes of Kimi's pattern hold exactly the characters of the originals:
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]] and [\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]].
func TestKimiClassesExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	all := make([]rune, 0, unicode.MaxRune+1)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r < 0xD800 || r > 0xDFFF {
			all = append(all, r)
		}
	}
	classes := []struct {
		rust string
		in   []*unicode.RangeTable
	}{
		{`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]`, []*unicode.RangeTable{unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M}},
		{`[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]`, []*unicode.RangeTable{unicode.Ll, unicode.Lm, unicode.Lo, unicode.M}},
	}
	for _, c := range classes {
		pattern, err := rewriteClassIntersections(c.rust + "+")
		if err != nil {
			t.Fatal(err)
		}
		re, err := compileRegex(pattern)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]bool, len(all))
		m, _ := re.FindRunesMatch(all)
		for m != nil {
			for i := m.Index; i < m.Index+m.Length; i++ {
				got[i] = true
			}
			m, _ = re.FindNextMatch(m)
		}
		bad := 0
		for i, r := range all {
			want := unicode.In(r, c.in...) && !unicode.Is(unicode.Han, r)
			if got[i] != want {
				if bad++; bad <= 5 {
					t.Errorf("%s (as %s): U+%04X in class = %v, want %v", c.rust, pattern, r, got[i], want)
				}
			}
		}
	}
}

// TestKimiPatternMatchesV8 splits texts with the rewritten Kimi pattern and
// compares with the original pattern as V8 evaluates it (RegExp v mode,
// which has &&), on 1,500 random strings over an alphabet that exercises
// every class of the pattern. See testdata/README.md.
func TestKimiPatternMatchesV8(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "kimi_pattern.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Pattern string `json:"pattern"`
		Cases   []struct {
			Text   string   `json:"text"`
			Pieces []string `json:"pieces"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Pattern != kimiPattern {
		t.Fatalf("testdata pattern differs from kimiPattern:\n%s\n%s", f.Pattern, kimiPattern)
	}
	pattern, err := rewriteClassIntersections(kimiPattern)
	if err != nil {
		t.Fatal(err)
	}
	re, err := compileRegex(pattern)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		var got []string
		for _, sp := range regexSpans(nil, re, c.Text, false) {
			if !sp.match {
				t.Errorf("%q: %q is not matched", c.Text, c.Text[sp.start:sp.end])
			}
			got = append(got, c.Text[sp.start:sp.end])
		}
		if diff := cmp.Diff(c.Pieces, got); diff != "" {
			t.Errorf("split of %q (-V8 +ours):\n%s", c.Text, diff)
		}
	}
}

func TestExpandFoldGroups(t *testing.T) {
	tests := []struct{ in, want string }{
		{`(?i:'s|'t|'re|'ve|'m|'ll|'d)|\p{L}+`, `(?:'[sſS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|\p{L}+`},
		{`(?i:'k)`, "(?:'[k\u212aK])"}, // U+212A KELVIN SIGN
		{`(?i:a+)`, `(?i:a+)`},         // not plain letters: left to regexp2
		{`\(?i:'s)`, `\(?i:'s)`},       // an escaped parenthesis
		{`x(?i:'s)y(?i:'d)`, `x(?:'[sſS])y(?:'[dD])`},
	}
	for _, tt := range tests {
		if got := expandFoldGroups(tt.in); got != tt.want {
			t.Errorf("expandFoldGroups(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitLongRuns(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want []string
	}{
		{"", 3, []string{""}},
		{"abc", 3, []string{"abc"}},
		{"abcd", 3, []string{"abc", "d"}},
		{"ab  cdefgh", 3, []string{"ab  cde", "fgh"}},
		{"a    b", 3, []string{"a   ", " b"}},
		{"\x1c\x1c\x1c\x1cx", 3, []string{"\x1c\x1c\x1c", "\x1cx"}}, // Python's isspace counts \x1c..\x1f
		{"ééééé", 2, []string{"éé", "éé", "é"}},
	}
	for _, tt := range tests {
		if got := splitLongRuns(tt.in, tt.max); !cmp.Equal(got, tt.want) {
			t.Errorf("splitLongRuns(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
	if head, tail := cutRunes("aéb", 2); head != "aé" || tail != "b" {
		t.Errorf("cutRunes = %q, %q", head, tail)
	}
}
