package parsers_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/internal/conformance"
	_ "github.com/reasoning-go/reasoning/parsers"
)

// TestCases runs every golden case file in testdata/cases through the
// conformance harness: one subtest per file, then per case.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("../testdata/cases/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no case files in testdata/cases")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			conformance.Run(t, path)
		})
	}
}
