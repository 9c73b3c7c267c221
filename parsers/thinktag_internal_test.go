package parsers

import "testing"

// TestTagStateKey checks key, which reads a state's structure as bytes of
// it, against the structure's fields, in every state: each combination of
// the phase and every flag, so that a field moved or added in tagState
// that key would misread fails here.
func TestTagStateKey(t *testing.T) {
	for i := range 1 << 12 {
		b := func(j int) bool { return i&(1<<j) != 0 }
		s := tagState{phase: phase(i & 1), opened: b(1), seen: b(2), begun: b(3), trimming: b(4), inTool: b(5),
			inTail: b(6), labeling: b(7), gap: b(8), answer: b(9), wrapped: b(10), leading: b(11)}
		want := uint8(s.phase) | bit(s.opened)<<1 | bit(s.seen)<<2 | bit(s.begun)<<3 | bit(s.inTool)<<4
		if got := s.key(); got != want {
			t.Fatalf("%+v: key %d, want %d", s, got, want)
		}
		if f := fromKey(want); f.key() != want {
			t.Fatalf("fromKey(%d).key() = %d", want, f.key())
		}
	}
}
