package parsers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
)

// TestShellStepHeld streams outputs whose markers arrive cut over deltas
// where the grammar takes text itself (no stance.direct: whitespace
// trimmed between markers, a citation's sources), so that the delta after
// a marker's first bytes goes on with the marker the scanner holds, at
// fixed chunk sizes (1 to 13 bytes). What the deltas collect must be
// Extract's and, where prefix says so, every delta's message what each
// prefix of the deltas as one delta adds to the one before (the driver's
// feed), and Finish's that of the whole as one delta.
func TestShellStepHeld(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		prefix    bool // the messages of the prefixes as one delta grow by the next delta's
	}{
		{"cohere_command3", "<|START_THINKING|>The plan.<|END_THINKING|>\n<|START_RESPONSE|>It was <co>March</co: 0:[0]>, for <co>the Fair</co: 0:[0,1]>. Done.<|END_RESPONSE|>" +
			"<|START_THINKING|> more <|END_THINKING|> \n <|START_ACTION|>[{\"a\": 1}]<|END_ACTION|>\n<|START_RESPONSE|> x<|END_RESPONSE|>", true},
		{"cohere_command4", "The plan. <|END_THINKING|>\n\n<|START_TEXT|>Answer <co>A</co: 1:[2]>.<|END_TEXT|>\n<|START_THINKING|>\n<|END_THINKING|><|START_TEXT|>B", true},
		{"hunyuan_a13b", "<think>\nA\n</think>\n<answer>\nB\n</answer>\n<think> C </think>\n\n<answer>D", false},
		{"qwen3", "<think>\n\n</think>\n\n<think>a</think>\n<think>", true},
		{"inkling", "A\n<|end_message|>\n<|end_message|> B", true},
	} {
		want := newParser(t, tc.name, nil).Extract(tc.out)
		for size := 1; size <= 13; size++ {
			var deltas []reasoning.Delta
			for i := 0; i < len(tc.out); i += size {
				deltas = append(deltas, reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+size)]})
			}
			p := newParser(t, tc.name, nil)
			var got []reasoning.Message
			for _, d := range deltas {
				got = append(got, p.ExtractStreaming(d))
			}
			got = append(got, p.Finish())
			if c := reasoning.Collect(newParser(t, tc.name, nil), deltas); c != want {
				t.Errorf("%s, %d-byte deltas: collected %+v, Extract %+v", tc.name, size, c, want)
			}
			if !tc.prefix {
				continue
			}
			if ref := prefixMessages(t, tc.name, deltas); !slices.Equal(got, ref) {
				t.Errorf("%s, %d-byte deltas %q: messages\n%q\nwant (each prefix as one delta)\n%q", tc.name, size, tc.out, got, ref)
			}
		}
	}
}

// prefixMessages returns the messages of deltas as each prefix of them fed
// as one delta tells them: what the prefix's message adds to the one
// before, then Finish's after all of them.
func prefixMessages(t *testing.T, name string, deltas []reasoning.Delta) []reasoning.Message {
	t.Helper()
	var ref []reasoning.Message
	var r, c, text string
	for i, d := range deltas {
		text += d.Text
		q := newParser(t, name, nil)
		m := q.ExtractStreaming(reasoning.Delta{Text: text})
		if !strings.HasPrefix(m.Reasoning, r) || !strings.HasPrefix(m.Content, c) {
			t.Fatalf("%s: %q as one delta gives %+v, less of it gave %q and %q", name, text, m, r, c)
		}
		ref = append(ref, reasoning.Message{Reasoning: m.Reasoning[len(r):], Content: m.Content[len(c):]})
		r, c = m.Reasoning, m.Content
		if i == len(deltas)-1 {
			ref = append(ref, q.Finish())
		}
	}
	return ref
}
