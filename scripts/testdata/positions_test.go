package parsers_test

// This file is not part of package parsers' tests: scripts/instr-positions.sh
// adds it to a checkout's parsers package with go test -overlay (with
// instr_test.go, valgrind.go and valgrind_amd64.s), and reads what
// TestInstrPositions writes. It lives under testdata so that go build,
// go vet and staticcheck ignore it.

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// cgToggleCollect switches callgrind's collection of events on or off
// without re-instrumenting code, which costs a few instructions a call.
const cgToggleCollect = 'C'<<24 | 'T'<<16 + 2

// toggleArgs is the toggle's request, in memory of its own: a composite
// literal passed to ValgrindRequest would be allocated at every call.
var toggleArgs = [6]uint64{cgToggleCollect}

// posDeltas returns BenchmarkTable's ~4-byte deltas of name's sample
// repeated to 64 KiB, the sample itself, and each delta's offset in the
// sample (deltas cut across the sample's end count at their start).
// With INSTR_CHUNK=token the deltas are instead the sample's real tokens
// with their IDs, in the vocabulary tok (BenchmarkTable's token column).
func posDeltas(t *testing.T, name string, tok tokenizer.Tokenizer) (deltas []reasoning.Delta, raw string, offs []int) {
	b, err := os.ReadFile("../testdata/samples/" + name + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	raw = string(b)
	small := strings.Repeat(raw, (64<<10)/len(raw)+1)[:64<<10]
	if os.Getenv("INSTR_CHUNK") == "token" {
		chs, err := conformance.TokenChunkings(tok, small)
		if err != nil {
			t.Fatal(err)
		}
		at := 0
		for _, d := range chs[0].Deltas {
			deltas = append(deltas, d)
			offs = append(offs, at%len(raw))
			at += len(d.Text)
		}
		return deltas, raw, offs
	}
	for i := 0; i < len(small); i += 4 {
		deltas = append(deltas, reasoning.Delta{Text: small[i:min(len(small), i+4)]})
		offs = append(offs, i%len(raw))
	}
	return deltas, raw, offs
}

// TestInstrPositions counts, for the name INSTR_POSITIONS names, the
// events of its ~4-byte stream (BenchmarkTable's bytes4) by the delta's
// offset in the sample, in order: one stream on a new parser per offset,
// collecting only around the deltas at that offset, then one profile. A
// sample whose length is not a multiple of 4 has deltas at more offsets
// (one per byte where its length is odd), each measured fewer times. A
// first profile holds 1000 empty measures (pairs of toggles), the cost
// the measure itself adds to each delta. It writes to INSTR_OUT one line
// per profile: the offset (-1 for the empty measures), the delta's text,
// and how many deltas it measured.
func TestInstrPositions(t *testing.T) {
	name, out := os.Getenv("INSTR_POSITIONS"), os.Getenv("INSTR_OUT")
	if name == "" || out == "" {
		t.Skip("INSTR_POSITIONS or INSTR_OUT not set: run by scripts/instr-positions.sh")
	}
	runtime.MemProfileRate = 0
	tok := conformance.Tokenizer(name, nil)
	if os.Getenv("INSTR_CHUNK") == "token" {
		tok, _ = vocabFor(t, name)
	}
	deltas, raw, offs := posDeltas(t, name, tok)
	var list strings.Builder
	parsers.ValgrindRequest(&[6]uint64{cgStartInstrumentation})
	parsers.ValgrindRequest(&[6]uint64{cgZeroStats})
	for range 1000 {
		parsers.ValgrindRequest(&toggleArgs)
		parsers.ValgrindRequest(&toggleArgs)
	}
	parsers.ValgrindRequest(&[6]uint64{cgDumpStats})
	fmt.Fprintf(&list, "-1\t%q\t1000\n", "")
	for _, at := range slices.Compact(slices.Sorted(slices.Values(offs))) {
		p, err := reasoning.New(name, tok, thinkingOn)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		parsers.ValgrindRequest(&[6]uint64{cgZeroStats})
		for i, d := range deltas {
			if offs[i] != at {
				p.ExtractStreaming(d)
				continue
			}
			parsers.ValgrindRequest(&toggleArgs)
			p.ExtractStreaming(d)
			parsers.ValgrindRequest(&toggleArgs)
			n++
		}
		parsers.ValgrindRequest(&[6]uint64{cgDumpStats})
		text := raw[at:min(len(raw), at+4)]
		if i := slices.Index(offs, at); os.Getenv("INSTR_CHUNK") == "token" {
			text = deltas[i].Text
		}
		fmt.Fprintf(&list, "%d\t%q\t%d\n", at, text, n)
		p.Finish()
	}
	if err := os.WriteFile(out, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
