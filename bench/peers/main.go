package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

func main() {
	count := flag.Int("count", 5, "rounds; each figure is the median of one sample per round")
	budget := flag.Duration("time", 500*time.Millisecond, "CPU time of one sample")
	flag.Parse()
	if err := run(os.Stdout, *count, *budget); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// The table's columns of figures.
const (
	colBytes4 = iota
	colTokens
	colExtract
	columns
)

var columnNames = [columns]string{"~4-byte deltas", "one-token deltas", "whole output"}

func run(out io.Writer, count int, budget time.Duration) error {
	root, err := findRoot()
	if err != nil {
		return err
	}
	vocab := vocabDir(root)
	workloads := map[string]*workload{}
	for name := range shapes {
		if workloads[name], err = buildWorkload(root, vocab, name); err != nil {
			return err
		}
		if workloads[name].tokens == nil {
			fmt.Fprintf(os.Stderr, "peers: no vocabulary %s in %s (set REASONING_VOCAB_DIR, or make vocab): no one-token figures for %s\n",
				vocabs[name], vocab, name)
		}
	}

	runtime.GC()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	rs := rows()
	notes := make([]string, len(rs))
	cells := make([][columns]*cell, len(rs))
	for i, r := range rs {
		w := workloads[r.workload]
		if !r.floor {
			notes[i] = compare(r, w)
		}
		if !r.ids {
			cells[i][colBytes4] = streamCell(r, w, w.bytes4)
		}
		if w.tokens != nil {
			deltas := w.tokens
			if !r.ids {
				deltas = textOnly(deltas)
			}
			cells[i][colTokens] = streamCell(r, w, deltas)
		}
		if r.extract != nil {
			cells[i][colExtract] = extractCell(r, w)
		}
	}
	for round := range count {
		fmt.Fprintf(os.Stderr, "peers: round %d of %d\n", round+1, count)
		for i := range rs {
			for _, c := range cells[i] {
				if c != nil {
					runtime.GC() // no row pays for the garbage of the one before
					c.samples = append(c.samples, c.sample(budget))
				}
			}
		}
	}
	t := table{rs, workloads, cells, notes, count, budget, mem.HeapAlloc}
	t.print(out)
	return nil
}

// A table is a finished run: its rows, their cells (nil where a row has no
// figure) and the notes on their splits, and how it was measured.
type table struct {
	rows      []row
	workloads map[string]*workload
	cells     [][columns]*cell
	notes     []string
	count     int
	budget    time.Duration
	heap      uint64 // live heap bytes while measuring
}

// print writes t as Markdown: the machine, the table, how it was measured
// and how noisy it was, and how each row's split differs from ours.
func (t table) print(out io.Writer) {
	rs, workloads, cells, notes, count, budget, heap := t.rows, t.workloads, t.cells, t.notes, t.count, t.budget, t.heap
	fmt.Fprintf(out, "Machine: %s, %s/%s, GOMAXPROCS=%d, %s, %s; Ollama %s.\n\n",
		cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version(),
		time.Now().UTC().Format("2006-01-02"), moduleVersion("github.com/ollama/ollama"))
	fmt.Fprintln(out, "| CPU time | ns/delta, ~4 B | allocs/delta, ~4 B | ns/delta, 1 token | allocs/delta, 1 token | whole output, MB/s |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|")
	var floorNs [columns]float64
	var spreads []float64
	var worst struct {
		spread float64
		where  string
	}
	group := ""
	for i, r := range rs {
		w := workloads[r.workload]
		if r.workload != group {
			group = r.workload
			fmt.Fprintf(out, "| *%s* | | | | | |\n", describe(w))
		}
		cols := make([]string, 0, 5)
		for col, c := range cells[i] {
			if c == nil {
				if col == colExtract {
					cols = append(cols, "—")
				} else {
					cols = append(cols, "—", "—")
				}
				continue
			}
			sp := c.spread()
			spreads = append(spreads, sp)
			if sp > worst.spread {
				worst.spread, worst.where = sp, fmt.Sprintf("%s, %s", r.label, columnNames[col])
			}
			m := c.median()
			if col == colExtract {
				cols = append(cols, fmt.Sprintf("%.0f", m))
				continue
			}
			ns := fmt.Sprintf("%.1f", m)
			if r.floor {
				floorNs[col] = m
			} else if floorNs[col] > 0 {
				ns += fmt.Sprintf(" (%.1f×)", m/floorNs[col])
			}
			cols = append(cols, ns, fmt.Sprintf("%.3f", c.allocs))
		}
		fmt.Fprintf(out, "| %s | %s |\n", r.label, strings.Join(cols, " | "))
	}
	fmt.Fprintf(out, "\nEach figure is the median of %d samples of %v of process CPU time, the rounds taking the rows in turn; "+
		"(N×) is the multiple of the floor on the same deltas. The garbage collector's work is included, and its cost per allocation "+
		"depends on the live heap: %.0f MB here (the vocabularies, when loaded, are most of it). Streams start and finish outside the clock; "+
		"a whole output is a new parser and one call. Noise: the samples of half the figures span at most %.0f%% of their median, "+
		"and the widest span %.0f%% (%s).\n",
		count, budget, float64(heap)/1e6, 100*median(spreads), 100*worst.spread, worst.where)
	fmt.Fprintln(out, "\nSplits, against this library's `Extract` of the same output (`qwen3`, `openai_gptoss`):")
	for i, r := range rs {
		if r.floor {
			continue
		}
		note := notes[i]
		if note == "" {
			note = "the same reasoning and content, on every input"
		}
		fmt.Fprintf(out, "- %s: %s.\n", r.label, note)
	}
}

// describe names a workload in the table: its size in bytes, deltas and
// tokens.
func describe(w *workload) string {
	s := fmt.Sprintf("%s output: %d bytes, %d ~4-byte deltas", map[string]string{"qwen3": "Qwen3", "harmony": "gpt-oss Harmony"}[w.name], len(w.output), len(w.bytes4))
	if w.tokens != nil {
		s += fmt.Sprintf(", %d %s tokens", len(w.tokens), w.vocab)
	}
	return s
}

// cpuModel returns the processor's model name as Linux reports it, else the
// architecture.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// moduleVersion returns the version of the named module built into this
// program.
func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == path {
				return m.Version
			}
		}
	}
	return "(unknown version)"
}
