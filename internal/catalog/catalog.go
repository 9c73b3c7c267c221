// Package catalog records, for the project's own tests, what each registered
// parser is made of: its markers and the whitespace it strips. The parsers
// package fills it when it registers a name; the registry-wide tests read it
// so that a family added later is covered without anyone remembering, and
// fail for a name that has no entry.
package catalog

import (
	"slices"
	"sync"
)

// Entry describes one canonical parser name.
type Entry struct {
	Markers     []string // every marker the family recognises, in text
	Boundaries  []string // turn markers at which the ID-level end check stops (single tokens only)
	StripsSpace bool     // the family drops some whitespace next to its markers
	Prefix      string   // text the family puts before the content (minimax_m2_append_think's "<think>")
}

var (
	mu      sync.Mutex
	entries = map[string]Entry{}
)

// Add records the entry of a canonical name.
func Add(name string, e Entry) {
	mu.Lock()
	defer mu.Unlock()
	e.Markers = slices.Clone(e.Markers)
	e.Boundaries = slices.Clone(e.Boundaries)
	entries[name] = e
}

// Lookup returns the entry of a canonical name.
func Lookup(name string) (Entry, bool) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := entries[name]
	return e, ok
}
