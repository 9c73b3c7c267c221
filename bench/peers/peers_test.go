package main

import (
	"os"
	"strings"
	"testing"
)

// TestSplits checks that the comparison is of equal work: on every input,
// each peer splits the workloads as this library does, up to whitespace
// around the markers, and this library's streams give exactly its Extract.
// Without the vocabularies the one-token inputs are left out, unless
// REASONING_REQUIRE_VOCAB=1 (as CI sets it) makes that a failure.
func TestSplits(t *testing.T) {
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	workloads := map[string]*workload{}
	for name := range shapes {
		if workloads[name], err = buildWorkload(root, vocabDir(root), name); err != nil {
			t.Fatal(err)
		}
		if workloads[name].tokens == nil && os.Getenv("REASONING_REQUIRE_VOCAB") == "1" {
			t.Fatalf("no vocabulary %s in %s, and REASONING_REQUIRE_VOCAB=1", vocabs[name], vocabDir(root))
		}
	}
	for _, r := range rows() {
		if r.floor {
			continue
		}
		t.Run(r.workload+"/"+r.label, func(t *testing.T) {
			w := workloads[r.workload]
			want := mustNew(reference[w.name], nil).Extract(w.output)
			if want.Reasoning == "" || want.Content == "" {
				t.Fatalf("this library's split of the %s workload has an empty side: %d bytes of reasoning, %d of content",
					w.name, len(want.Reasoning), len(want.Content))
			}
			for _, s := range splits(r, w) {
				same := func(a, b string) bool { return a == b || !r.library && strings.TrimSpace(a) == strings.TrimSpace(b) }
				if !same(want.Reasoning, s.reasoning) || !same(want.Content, s.content) || s.odd > 0 {
					t.Errorf("%s: reasoning %s; content %s; %d tool calls or errors", s.input,
						difference(want.Reasoning, s.reasoning), difference(want.Content, s.content), s.odd)
				}
			}
		})
	}
}

func TestDifference(t *testing.T) {
	tests := []struct {
		ours, theirs, want string
	}{
		{"same", "same", ""},
		{"\nplan\n", "plan", `leading whitespace "\n" here, nothing there, trailing whitespace "\n" here, nothing there`},
		{"\n\nanswer", "answer", `leading whitespace "\n\n" here, nothing there`},
		{"plan one", "plan two", `from byte 5 of 8: "one" here, "two" there`},
		{"ab", "abc", `from byte 2 of 2: nothing here, "c" there`},
		{strings.Repeat("x", 50), "", `from byte 0 of 50: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (50 bytes) here, nothing there`},
	}
	for _, tt := range tests {
		if got := difference(tt.ours, tt.theirs); got != tt.want {
			t.Errorf("difference(%q, %q) = %s, want %s", tt.ours, tt.theirs, got, tt.want)
		}
	}
}
