package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestInvariants checks the guarantees of the design for every registered
// name, on a corpus built from the family's own markers, so that a family
// added later is covered without anyone remembering.
func TestInvariants(t *testing.T) {
	for _, name := range reasoning.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conformance.CheckInvariants(t, name)
		})
	}
}
