//go:build reasoning_work

package work

import "sync/atomic"

// Counting reports whether this build counts work.
const Counting = true

var total atomic.Uint64 // atomic: parsers on other goroutines count too

// Add adds n units of work to the count.
func Add(n int) { total.Add(uint64(n)) }

// Total returns the work counted so far.
func Total() uint64 { return total.Load() }
