// Command benchtable turns the output of the parsers package's
// BenchmarkTable (go test -bench Table) into the README's performance
// table: per registered name, streaming cost at ~4-byte deltas and at one
// real token per delta, and Extract throughput. It reads the benchmark
// output on standard input and writes Markdown to standard output. When a
// result repeats (go test -count N), the table keeps its best run: the
// least ns/delta, the most MB/s, and the most allocs/delta of any run, so
// that one run slowed by the rest of the machine does not stand for a name.
//
// Usage:
//
//	go test -run '^$' -bench Table ./parsers | go run ./internal/benchtable
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// noParse names the parsers that never look for a marker, whatever the
// request: they are listed but are not the yardstick the others are held
// to (their cost is the call itself).
var noParse = map[string]string{
	"identity":                "returns the output as content",
	"minimax_m2_append_think": "returns \"<think>\" and the output as content",
}

type row struct {
	name          string
	b4ns, b4alloc float64
	tkns, tkalloc float64
	vocab         string
	mbps          float64
	hasTk         bool
}

// line matches one result line of BenchmarkTable, as
// "BenchmarkTable/qwen3/bytes4-2   100   12 ns/op   0.1 B/delta ...".
var line = regexp.MustCompile(`^BenchmarkTable/([^/]+)/(extract|bytes4|token=([^\s]+?))(?:-(\d+))?\s+\d+\s+(.*)$`)

// floorLine matches one result line of BenchmarkTableFloor, the floor of
// the streaming columns: "BenchmarkTableFloor/bytes4-2   100   ...".
var floorLine = regexp.MustCompile(`^BenchmarkTableFloor/(bytes4|token=[^\s]+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	rows := map[string]*row{}
	var order []string
	cpu, procs := "", ""
	var floor row // the floor's ns/delta, in the columns of a row
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		text := sc.Text()
		if c, ok := strings.CutPrefix(text, "cpu: "); ok {
			cpu = strings.TrimSpace(c) // go test pads some CPU names
		}
		if f := floorLine.FindStringSubmatch(text); f != nil {
			if ns := parseMetrics(f[2])["ns/delta"]; f[1] == "bytes4" {
				floor.b4ns = least(floor.b4ns, ns)
			} else {
				floor.tkns, floor.hasTk = least(floor.tkns, ns), true
			}
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		name, kind, vocab := m[1], m[2], m[3]
		if m[4] != "" {
			procs = m[4]
		}
		r := rows[name]
		if r == nil {
			r = &row{name: name}
			rows[name] = r
			order = append(order, name)
		}
		metrics := parseMetrics(m[5])
		switch {
		case kind == "extract":
			r.mbps = max(r.mbps, metrics["MB/s"])
		case kind == "bytes4":
			r.b4ns, r.b4alloc = least(r.b4ns, metrics["ns/delta"]), max(r.b4alloc, metrics["allocs/delta"])
		default:
			r.tkns, r.tkalloc = least(r.tkns, metrics["ns/delta"]), max(r.tkalloc, metrics["allocs/delta"])
			r.vocab, r.hasTk = vocab, true
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no BenchmarkTable results on standard input")
	}
	slices.Sort(order)

	fmt.Fprintf(out, "Machine: %s/%s, %s, GOMAXPROCS=%s, %s.\n\n", runtime.GOOS, runtime.GOARCH, orUnknown(cpu), orUnknown(procs), runtime.Version())
	fmt.Fprintln(out, "| name | ns/delta, ~4 B | allocs/delta, ~4 B | ns/delta, 1 token | allocs/delta, 1 token | vocabulary | Extract MB/s |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---|---:|")
	for _, name := range order {
		r := rows[name]
		tkns, tkalloc, vocab := "—", "—", "none serves it"
		if r.hasTk {
			tkns, tkalloc, vocab = fmt.Sprintf("%.1f", r.tkns), fmt.Sprintf("%.3f", r.tkalloc), r.vocab
		}
		label := "`" + name + "`"
		if why, ok := noParse[name]; ok {
			label += " (" + why + ")"
		}
		fmt.Fprintf(out, "| %s | %.1f | %.3f | %s | %s | %s | %.0f |\n", label, r.b4ns, r.b4alloc, tkns, tkalloc, vocab, r.mbps)
	}
	fmt.Fprintln(out)
	summary(out, rows, order, "~4-byte deltas", floor.b4ns, func(r *row) (float64, bool) { return r.b4ns, r.b4ns > 0 })
	summary(out, rows, order, "one-token deltas", floor.tkns, func(r *row) (float64, bool) { return r.tkns, r.hasTk })
	return nil
}

// summary prints the fastest and slowest parsing name for one column and
// the ratio between them, and each one's ratio to the floor when there is
// one (floor > 0).
func summary(out io.Writer, rows map[string]*row, order []string, what string, floor float64, ns func(*row) (float64, bool)) {
	var fast, slow *row
	for _, name := range order {
		r := rows[name]
		v, ok := ns(r)
		if _, skip := noParse[name]; skip || !ok {
			continue
		}
		if fv, _ := ns(orRow(fast, r)); fast == nil || v < fv {
			fast = r
		}
		if sv, _ := ns(orRow(slow, r)); slow == nil || v > sv {
			slow = r
		}
	}
	if fast == nil {
		return
	}
	f, _ := ns(fast)
	s, _ := ns(slow)
	fmt.Fprintf(out, "%s: fastest parsing name `%s` %.1f ns/delta, slowest `%s` %.1f ns/delta (%.2f×)", what, fast.name, f, slow.name, s, s/f)
	if floor > 0 {
		fmt.Fprintf(out, "; the floor (a call and `strings.IndexByte` per delta) %.1f ns/delta, the fastest %.1f× it, the slowest %.1f×", floor, f/floor, s/floor)
	}
	fmt.Fprintln(out, ".")
}

// least is the lesser of a time kept so far (0: none yet) and another.
func least(kept, v float64) float64 {
	if kept == 0 {
		return v
	}
	return min(kept, v)
}

func orRow(r, other *row) *row {
	if r == nil {
		return other
	}
	return r
}

// parseMetrics reads "value unit" pairs.
func parseMetrics(s string) map[string]float64 {
	f := strings.Fields(s)
	m := map[string]float64{}
	for i := 0; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseFloat(f[i], 64); err == nil {
			m[f[i+1]] = v
		}
	}
	return m
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
