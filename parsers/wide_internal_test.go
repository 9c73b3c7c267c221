package parsers

import "testing"

// TestWideMarkers checks which marker sets Extract's scanner may watch
// whole (wideMarkers): few, one first byte, and no marker ending in what
// another begins with, where one taken for text would hide one that
// counts.
func TestWideMarkers(t *testing.T) {
	for _, c := range []struct {
		markers []string
		want    bool
	}{
		{[]string{"<think>", "</think>"}, true},
		{[]string{"<think>"}, true},
		{[]string{"<think>", "</think>", "<seed:think>", "</seed:think>"}, true},
		{[]string{"<think>", "</think>", "<a>", "<b>", "<c>"}, false}, // more than wideMax
		{[]string{"<think>", "[THINK]"}, false},                       // two first bytes
		{[]string{"<a<", "<b>"}, false},                               // "<a<" ends in what "<b>" begins with
		{[]string{"<b>", "<a<"}, false},                               // in either order
		{[]string{"<ab", "<b>x"}, true},                               // "b" begins no marker
		{[]string{"<x|", "<|y"}, true},                                // "|" is inside both, but neither ends in the other's start
	} {
		if got := wideMarkers(c.markers); got != c.want {
			t.Errorf("wideMarkers(%q) = %t, want %t", c.markers, got, c.want)
		}
	}
}
