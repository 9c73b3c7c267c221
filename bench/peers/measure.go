package main

import (
	"runtime"
	"slices"
	"time"

	"github.com/reasoning-go/reasoning"
	"golang.org/x/sys/unix"
)

// cpuNow returns the CPU time the process has used so far, on all its
// threads: the garbage collector's work counts against the parser that made
// the garbage.
func cpuNow() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		panic("peers: no process CPU clock: " + err.Error())
	}
	return time.Duration(ts.Nano())
}

// A cell is one figure of the table: a row on one kind of input. Each
// sample adds one measurement to it.
type cell struct {
	samples []float64
	allocs  float64 // allocations per delta; streams only
	sample  func(budget time.Duration) float64
}

// median returns the median of the cell's samples.
func (c *cell) median() float64 { return median(c.samples) }

// median returns the median of xs.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread returns how far apart the cell's samples are, as a fraction of
// their median.
func (c *cell) spread() float64 {
	return (slices.Max(c.samples) - slices.Min(c.samples)) / c.median()
}

// streamCell measures r streaming deltas: CPU ns per delta over whole
// streams, each on a new parser, until the budget is spent. Starting and
// finishing a stream are left out: they happen once per response.
func streamCell(r row, w *workload, deltas []reasoning.Delta) *cell {
	c := &cell{allocs: streamAllocs(r, w, deltas)}
	c.sample = func(budget time.Duration) float64 {
		var spent time.Duration
		n := 0
		for spent < budget {
			s := r.stream(w)
			start := cpuNow()
			s.feed(deltas, false)
			spent += cpuNow() - start
			s.finish(false)
			n++
		}
		return float64(spent.Nanoseconds()) / float64(n*len(deltas))
	}
	return c
}

// streamAllocs returns the allocations per delta of r streaming deltas,
// over a few whole streams; it also warms r up.
func streamAllocs(r row, w *workload, deltas []reasoning.Delta) float64 {
	const streams = 4
	var before, after runtime.MemStats
	var mallocs uint64
	for range streams {
		s := r.stream(w)
		runtime.ReadMemStats(&before)
		s.feed(deltas, false)
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		s.finish(false)
	}
	return float64(mallocs) / float64(streams*len(deltas))
}

// extractCell measures r splitting the whole output (a new parser and one
// call, as one response takes), in MB/s of CPU time.
func extractCell(r row, w *workload) *cell {
	const batch = 64 // calls per clock reading: the clock costs a system call
	r.extract(w.output)
	return &cell{sample: func(budget time.Duration) float64 {
		var spent time.Duration
		n := 0
		for spent < budget {
			start := cpuNow()
			for range batch {
				r.extract(w.output)
			}
			spent += cpuNow() - start
			n += batch
		}
		return float64(n*len(w.output)) / spent.Seconds() / 1e6
	}}
}
