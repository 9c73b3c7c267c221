package marker

import (
	"strings"
	"testing"
)

// TestSlabJoin checks that joins are right, that strings handed out never
// change as later joins fill and replace buffers, and that joins do not
// allocate one by one.
func TestSlabJoin(t *testing.T) {
	var s Slab
	type kept struct{ got, want string }
	var all []kept
	for i := range 5000 {
		a := strings.Repeat(string(rune('a'+i%26)), i%7)
		b := strings.Repeat("é", i%5)
		c := strings.Repeat("z", i%3)
		got := s.Join(a, b, c)
		all = append(all, kept{got, a + b + c})
	}
	for i, k := range all {
		if k.got != k.want {
			t.Fatalf("join %d = %q, want %q", i, k.got, k.want)
		}
	}
	for _, tt := range []struct {
		parts []string
		want  string
	}{
		{nil, ""},
		{[]string{""}, ""},
		{[]string{"", "x", ""}, "x"},
		{[]string{strings.Repeat("x", slabMax), "y"}, strings.Repeat("x", slabMax) + "y"},
	} {
		if got := s.Join(tt.parts...); got != tt.want {
			t.Errorf("Join(%q) = %q, want %q", tt.parts, got, tt.want)
		}
	}
	// A join larger than the first buffer gets a buffer that holds it, not
	// one that then grows: one allocation.
	if n := testing.AllocsPerRun(100, func() {
		var fresh Slab
		fresh.Join(strings.Repeat("x", 1000), "y")
	}); n > 1+1 { // + the Repeat
		t.Errorf("a fresh Slab's 1001-byte join allocates %v times, want 2 with the Repeat", n)
	}
	var w Slab
	w.Join("warm", "up")
	if n := testing.AllocsPerRun(1000, func() { w.Join("ab", "cd") }); n > 0.01 {
		t.Errorf("Join allocates %v times per call, want amortized ~0", n)
	}
}

// TestSlabCopies checks that copies of a Slab sharing a buffer never
// overwrite each other's strings.
func TestSlabCopies(t *testing.T) {
	var a Slab
	x := a.Join("x", "1")
	b := a
	y := b.Join("y", "2")
	z := a.Join("z", "3")
	if x != "x1" || y != "y2" || z != "z3" {
		t.Errorf("got %q %q %q, want x1 y2 z3", x, y, z)
	}
}

// TestSlabAppend checks Append as a stream uses it, a held tail grown by
// each delta and partly handed out: results are right, strings handed out
// never change, a str that does not end the slab's last write (a caller's
// string, an earlier result, a copy's write in between) is copied, and a
// tail grown in place does not allocate.
func TestSlabAppend(t *testing.T) {
	var s Slab
	type kept struct{ got, want string }
	var all []kept
	held, want := "", ""
	for i := range 5000 {
		d := strings.Repeat(string(rune('a'+i%26)), i%9)
		held = s.Append(held, d)
		want += d
		if held != want {
			t.Fatalf("append %d = %q, want %q", i, held, want)
		}
		if cut := i % 4; cut <= len(held) { // hand out a prefix, hold the rest
			all = append(all, kept{held[:cut], want[:cut]})
			held, want = held[cut:], want[cut:]
		}
		if i%97 == 0 {
			all = append(all, kept{s.Join("x", d), "x" + d}) // held is no longer the last write
		}
	}
	for i, k := range all {
		if k.got != k.want {
			t.Fatalf("string %d changed: %q, want %q", i, k.got, k.want)
		}
	}
	caller := strings.Repeat("q", 3)
	if got := s.Append(caller[:2], "r"); got != "qqr" || caller != "qqq" {
		t.Errorf("Append of a caller's string: %q (caller %q), want qqr (qqq)", got, caller)
	}
	first := s.Append("ab", "c")
	second := s.Append(first[:2], "x") // first[:2] does not end the last write
	if first != "abc" || second != "abx" {
		t.Errorf("got %q %q, want abc abx", first, second)
	}
	c := s
	x := s.Append("m", "n")
	c.Join("other", "write")
	if y := s.Append(x, "o"); x != "mn" || y != "mno" {
		t.Errorf("got %q %q, want mn mno", x, y)
	}
	// Short joins where the buffer has no room for them (256 bytes, the
	// first one's): the slab's last write grown in place, then a new buffer.
	var f Slab
	f.Copy(strings.Repeat("z", 251))
	last := f.Copy("abc")
	grown := f.Append(last, "de")
	fresh := f.Append("xy", "zw")
	if last != "abc" || grown != "abcde" || fresh != "xyzw" {
		t.Errorf("got %q %q %q, want abc abcde xyzw", last, grown, fresh)
	}
	// Joins of up to 16 bytes, cut at every place, after a write that
	// neither ends (put's words and bytes).
	var j Slab
	j.Copy("-")
	const src = "0123456789abcdefghijklmnopqrstuv"
	var joins []kept
	for n := 2; n <= 17; n++ {
		for cut := 1; cut < n; cut++ {
			j.Copy("-")
			str, more := src[:cut], src[16:16+n-cut]
			joins = append(joins, kept{j.Append(str, more), str + more})
		}
	}
	for i, k := range joins {
		if k.got != k.want {
			t.Fatalf("join %d: %q, want %q", i, k.got, k.want)
		}
	}
	var w Slab
	tail := w.Append("warm", "up")
	if n := testing.AllocsPerRun(1000, func() { tail = w.Append(tail[1:], "ab") }); n > 0.01 {
		t.Errorf("Append allocates %v times per call, want amortized ~0", n)
	}
}

// TestSlabAppendShort checks Append's joins of at most 8 bytes, each part
// of 1 to 7 bytes, in a slab with room for 8 and in one without.
func TestSlabAppendShort(t *testing.T) {
	const src = "abcdefgh"
	var s Slab
	for a := 1; a < 8; a++ {
		for m := 1; a+m <= 8; m++ {
			str, more := src[:a], strings.ToUpper(src[8-m:])
			s.Join("x", strings.Repeat("y", 200)) // a slab's room, 8 bytes or less, varies
			for range 40 {
				if got := s.Append(str, more); got != str+more {
					t.Fatalf("Append(%q, %q) = %q", str, more, got)
				}
			}
		}
	}
}
