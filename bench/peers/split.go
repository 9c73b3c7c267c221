package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/reasoning-go/reasoning"
)

// collect streams deltas through a new stream of r and returns everything
// it emitted, and how many tool calls and errors it reported.
func collect(r row, w *workload, deltas []reasoning.Delta) (reasoningText, content string, odd int) {
	s := r.stream(w)
	s.feed(deltas, true)
	s.finish(true)
	return s.result()
}

// A split is what a row made of one input: its reasoning and content.
type split struct {
	input              string // "~4-byte deltas", "one-token deltas", "whole output"
	reasoning, content string
	odd                int
}

// splits returns what r makes of w's output, cut each way r takes it.
func splits(r row, w *workload) []split {
	var out []split
	if !r.ids {
		rr, cc, odd := collect(r, w, w.bytes4)
		out = append(out, split{"~4-byte deltas", rr, cc, odd})
	}
	if w.tokens != nil {
		deltas := w.tokens
		if !r.ids {
			deltas = textOnly(deltas)
		}
		rr, cc, odd := collect(r, w, deltas)
		out = append(out, split{"one-token deltas", rr, cc, odd})
	}
	if r.extract != nil {
		rr, cc := r.extract(w.output)
		out = append(out, split{"whole output", rr, cc, 0})
	}
	return out
}

// compare describes how r's splits of w's output differ from this library's
// Extract of it; it returns "" when every split equals it.
func compare(r row, w *workload) string {
	want := mustNew(reference[w.name], nil).Extract(w.output)
	var notes []string
	seen := map[string][]string{} // a difference → the inputs that show it
	for _, s := range splits(r, w) {
		var d []string
		if x := difference(want.Reasoning, s.reasoning); x != "" {
			d = append(d, "reasoning "+x)
		}
		if x := difference(want.Content, s.content); x != "" {
			d = append(d, "content "+x)
		}
		if s.odd > 0 {
			d = append(d, fmt.Sprintf("%d tool calls or errors", s.odd))
		}
		key := strings.Join(d, "; ")
		if key == "" {
			continue
		}
		if seen[key] == nil {
			notes = append(notes, key)
		}
		seen[key] = append(seen[key], s.input)
	}
	for i, key := range notes {
		notes[i] = strings.Join(seen[key], ", ") + ": " + key
	}
	return strings.Join(notes, ". ")
}

// difference describes where theirs differs from ours, or returns "" when
// the two are equal: the whitespace at either end when that is all, else
// the one stretch between their common prefix and common suffix.
func difference(ours, theirs string) string {
	if ours == theirs {
		return ""
	}
	if strings.TrimSpace(ours) == strings.TrimSpace(theirs) {
		var d []string
		lo, lt := leadingSpace(ours), leadingSpace(theirs)
		if lo != lt {
			d = append(d, fmt.Sprintf("leading whitespace %s here, %s there", clip(lo), clip(lt)))
		}
		to, tt := ours[len(lo)+len(strings.TrimSpace(ours)):], theirs[len(lt)+len(strings.TrimSpace(theirs)):]
		if to != tt {
			d = append(d, fmt.Sprintf("trailing whitespace %s here, %s there", clip(to), clip(tt)))
		}
		return strings.Join(d, ", ")
	}
	p := 0
	for p < len(ours) && p < len(theirs) && ours[p] == theirs[p] {
		p++
	}
	s := 0
	for s < len(ours)-p && s < len(theirs)-p && ours[len(ours)-1-s] == theirs[len(theirs)-1-s] {
		s++
	}
	return fmt.Sprintf("from byte %d of %d: %s here, %s there", p, len(ours), clip(ours[p:len(ours)-s]), clip(theirs[p:len(theirs)-s]))
}

// leadingSpace returns the whitespace s starts with.
func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))]
}

// clip quotes s, cut to its first 40 bytes when longer.
func clip(s string) string {
	if s == "" {
		return "nothing"
	}
	if len(s) <= 40 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:40], len(s))
}
