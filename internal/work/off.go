//go:build !reasoning_work

package work

// Counting reports whether this build counts work.
const Counting = false

// Add adds n units of work to the count.
func Add(n int) {}

// Total returns the work counted so far.
func Total() uint64 { return 0 }
