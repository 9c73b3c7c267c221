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
	Markers []string // every marker the family recognises, in text
	// Opens, Closes, Tools and SwitchKeys are what parsers/register.go
	// publishes in the name's reasoning.Info (with what it adds there).
	Opens       []string // of Markers, those that open reasoning (think-tag families)
	Closes      []string // of Markers, those that close it
	Tools       []string // of Markers, the tool-call openers that end reasoning and stay in content
	SwitchKeys  []string // the chat_template_kwargs keys the thinking switch reads
	Boundaries  []string // turn markers at which the ID-level end check stops (single tokens only)
	StripsSpace bool     // the family drops some whitespace next to its markers
	// MarkersAreText says the family matches its markers in text even when
	// deltas carry IDs (Hunyuan A13B's, which no vocabulary has as special
	// tokens): IDs change nothing.
	MarkersAreText bool
	// ToolBlocks are the family's tool-call blocks, each an opener and a
	// closer, inside which no marker but a closer counts.
	ToolBlocks [][2]string
	Prefix     string // text the family puts before the content (minimax_m2_append_think's "<think>")
	Headers    bool   // the family drops header text besides its markers (Harmony's roles, channels, recipients)
	// Tails are markers the family drops together with the run of
	// TailChars bytes after them and a TailEnd byte closing it (Cohere's
	// citation closer "</co: 0:[1]>"); each is in Markers too.
	Tails     []string
	TailChars string
	TailEnd   byte
	// Config is the tokenizer metadata (tokenizer.Configured) of a family
	// that cannot be built without it (hf reads its response_template): the
	// harness gives it to every tokenizer it builds the family with, and
	// uses a toy vocabulary where it would pass no tokenizer. Nil for most.
	Config map[string]any
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
	e.Tails = slices.Clone(e.Tails)
	e.Opens, e.Closes, e.Tools = slices.Clone(e.Opens), slices.Clone(e.Closes), slices.Clone(e.Tools)
	e.SwitchKeys = slices.Clone(e.SwitchKeys)
	entries[name] = e
}

// Lookup returns the entry of a canonical name.
func Lookup(name string) (Entry, bool) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := entries[name]
	return e, ok
}
