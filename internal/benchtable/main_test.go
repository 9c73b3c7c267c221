package main

import (
	"bytes"
	"strings"
	"testing"
)

const sampleOutput = `goos: linux
goarch: amd64
pkg: github.com/reasoning-go/reasoning/parsers
cpu: Test CPU @ 1GHz
BenchmarkTable/identity/extract-2         	 1000	      1 ns/op	1000000.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkTable/identity/bytes4-2          	  100	  70000 ns/op	         0 B/delta	         0 allocs/delta	         4.000 ns/delta
BenchmarkTable/identity/token=qwen3-2     	  100	  80000 ns/op	         0 B/delta	         0 allocs/delta	         4.100 ns/delta
BenchmarkTable/qwen3/extract-2            	  100	 340000 ns/op	3000.60 MB/s	 1191496 B/op	      19 allocs/op
BenchmarkTable/qwen3/bytes4-2             	  100	 590000 ns/op	         0.1650 B/delta	         0.001200 allocs/delta	        30.00 ns/delta
BenchmarkTable/qwen3/token=qwen3-2        	  100	 630000 ns/op	         0 B/delta	         0 allocs/delta	        33.00 ns/delta
BenchmarkTable/poolside_v1/extract-2      	  100	   4617 ns/op	227111.98 MB/s	    1240 B/op	       4 allocs/op
BenchmarkTable/poolside_v1/bytes4-2       	  100	 909287 ns/op	         0 B/delta	         0 allocs/delta	        60.00 ns/delta
--- SKIP: BenchmarkTable/poolside_v1/token=qwen3
BenchmarkTableFloor/bytes4-2              	  100	  50000 ns/op	         0 allocs/delta	         3.000 ns/delta
BenchmarkTableFloor/token=qwen3-2         	  100	  50000 ns/op	         0 allocs/delta	         3.300 ns/delta
PASS
`

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(sampleOutput), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Test CPU @ 1GHz, GOMAXPROCS=2",
		"| `identity` (returns the output as content) | 4.0 | 0.000 | 4.1 | 0.000 | qwen3 | 1000000 |",
		"| `poolside_v1` | 60.0 | 0.000 | — | — | none serves it | 227112 |",
		"| `qwen3` | 30.0 | 0.001 | 33.0 | 0.000 | qwen3 | 3001 |",
		// identity does not parse, so it is not the yardstick.
		"~4-byte deltas: fastest parsing name `qwen3` 30.0 ns/delta, slowest `poolside_v1` 60.0 ns/delta (2.00×); the floor (a call and `strings.IndexByte` per delta) 3.0 ns/delta, the fastest 10.0× it, the slowest 20.0×.",
		"one-token deltas: fastest parsing name `qwen3` 33.0 ns/delta, slowest `qwen3` 33.0 ns/delta (1.00×); the floor (a call and `strings.IndexByte` per delta) 3.3 ns/delta, the fastest 10.0× it, the slowest 10.0×.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// Rows come sorted by name.
	if i, j := strings.Index(got, "`identity`"), strings.Index(got, "`qwen3`"); i > j {
		t.Errorf("rows out of order:\n%s", got)
	}
}

// TestRunRepeats checks that of a result repeated by -count, the table
// keeps the best time and the worst allocation count.
func TestRunRepeats(t *testing.T) {
	const repeated = `cpu: Test CPU @ 1GHz
BenchmarkTable/qwen3/extract-2            	  100	 340000 ns/op	3000.60 MB/s	 1191496 B/op	      19 allocs/op
BenchmarkTable/qwen3/extract-2            	  100	 300000 ns/op	3400.20 MB/s	 1191496 B/op	      19 allocs/op
BenchmarkTable/qwen3/bytes4-2             	  100	 590000 ns/op	         0 B/delta	         0 allocs/delta	        30.00 ns/delta
BenchmarkTable/qwen3/bytes4-2             	  100	 590000 ns/op	         0.1650 B/delta	         0.001200 allocs/delta	        40.00 ns/delta
BenchmarkTable/qwen3/bytes4-2             	  100	 590000 ns/op	         0 B/delta	         0 allocs/delta	        35.00 ns/delta
BenchmarkTable/qwen3/token=qwen3-2        	  100	 630000 ns/op	         0 B/delta	         0 allocs/delta	        33.00 ns/delta
BenchmarkTable/qwen3/token=qwen3-2        	  100	 630000 ns/op	         0 B/delta	         0 allocs/delta	        31.00 ns/delta
BenchmarkTableFloor/bytes4-2              	  100	  50000 ns/op	         0 allocs/delta	         3.500 ns/delta
BenchmarkTableFloor/bytes4-2              	  100	  50000 ns/op	         0 allocs/delta	         3.000 ns/delta
BenchmarkTableFloor/token=qwen3-2         	  100	  50000 ns/op	         0 allocs/delta	         3.300 ns/delta
`
	var out bytes.Buffer
	if err := run(strings.NewReader(repeated), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"| `qwen3` | 30.0 | 0.001 | 31.0 | 0.000 | qwen3 | 3400 |",
		"the floor (a call and `strings.IndexByte` per delta) 3.0 ns/delta, the fastest 10.0× it",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestRunNoResults(t *testing.T) {
	if err := run(strings.NewReader("PASS\n"), &bytes.Buffer{}); err == nil {
		t.Error("run on output without BenchmarkTable results succeeded")
	}
}
