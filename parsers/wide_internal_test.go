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

// TestKeepsSet checks when the driver leaves its scanner's set as it is
// for the markers that count (keepsSet): where the set is those markers
// already, or is wide and some marker still counts; not where a narrow set
// differs, nor where a wide one watches for markers none of which counts
// (it narrows to none). Output does not show the set, only the work of
// searching it, so no stream test tells these apart.
func TestKeepsSet(t *testing.T) {
	for _, c := range []struct {
		active uint64
		wide   bool
		m      uint64
		want   bool
	}{
		{0b01, false, 0b01, true},
		{0b01, false, 0b11, false},
		{0b01, false, 0b10, false},
		{0b01, false, 0, false},
		{0, false, 0, true},
		{0b11, true, 0b01, true},
		{0b11, true, 0b11, true},
		{0b11, true, 0, false},
	} {
		var d driver
		d.sc.Reset([]string{"<a>", "<b>"})
		d.sc.SetActive(c.active)
		d.wide = c.wide
		if got := d.keepsSet(c.m); got != c.want {
			t.Errorf("set %#b (wide %t): keepsSet(%#b) = %t, want %t", c.active, c.wide, c.m, got, c.want)
		}
	}
}
