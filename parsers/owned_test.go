package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestExtractOwned holds the shell's extractOwned to its Extract, for
// every name whose parser is a shell, on outputs drawn from its markers
// and text: the content Extract joins from several pieces comes in own,
// with the same bytes, in a buffer of its own (writing it changes no
// later result), and any other content as Extract returns it.
func TestExtractOwned(t *testing.T) {
	owned := 0
	for _, name := range reasoning.Names() {
		p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sh, ok := p.(*shell)
		if !ok {
			continue
		}
		pieces := []string{"a", "text ", " ", "\n", "<", "main . py "}
		for _, mk := range sh.spec.markers {
			pieces = append(pieces, mk, mk, mk[:len(mk)-1])
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for i := range 300 {
			var b strings.Builder
			for range 1 + rng.IntN(12) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			out := b.String()
			want := sh.Extract(out)
			got, own := sh.extractOwned(out)
			if own != nil {
				owned++
				if got.Content != "" || string(own) != want.Content || within(want.Content, out) {
					t.Fatalf("%s: output %d %q: extractOwned gave %+v and own %q, want content %q joined in own", name, i, out, got, own, want.Content)
				}
				got.Content = want.Content
				for k := range own {
					own[k] = 'X'
				}
			}
			if got != want {
				t.Fatalf("%s: output %d %q: extractOwned %+v, Extract %+v", name, i, out, got, want)
			}
			if again := sh.Extract(out); again != want {
				t.Fatalf("%s: output %d %q: Extract after extractOwned's buffer was written %+v, want %+v", name, i, out, again, want)
			}
		}
	}
	if owned == 0 {
		t.Fatal("no output had content joined from several pieces")
	}
}
