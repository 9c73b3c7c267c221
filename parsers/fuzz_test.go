package parsers_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// One fuzz target per family (go test -fuzz takes one target at a time).
// TestFuzzTargets checks that every registered name has one here.

const casesDir = "../testdata/cases"

func FuzzBasic(f *testing.F)      { conformance.Fuzz(f, "basic", casesDir) }
func FuzzDeepSeekR1(f *testing.F) { conformance.Fuzz(f, "deepseek_r1", casesDir) }
func FuzzIdentity(f *testing.F)   { conformance.Fuzz(f, "identity", casesDir) }
func FuzzQwen3(f *testing.F)      { conformance.Fuzz(f, "qwen3", casesDir) }

// TestFuzzTargets fails for a registered name without a fuzz target in this
// file, so that a new family cannot be added without one.
func TestFuzzTargets(t *testing.T) {
	src, err := os.ReadFile("fuzz_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var fuzzed []string
	for _, m := range regexp.MustCompile(`conformance\.Fuzz\(f, "([a-z0-9_]+)"`).FindAllStringSubmatch(string(src), -1) {
		fuzzed = append(fuzzed, m[1])
	}
	for _, name := range reasoning.Names() {
		if !slices.Contains(fuzzed, name) {
			t.Errorf("registered parser %q has no fuzz target in fuzz_test.go", name)
		}
	}
}
