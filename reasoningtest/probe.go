package reasoningtest

import (
	"errors"
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
)

// A probe is one check of one output: run gets the output and its deltas
// (cut by chunker; the whole output in one delta when chunker is unset)
// and returns what is wrong, if anything.
type probe struct {
	check, setting string
	chunker        chunker
	fixed          bool // the output belongs to a case: only its chunking may shrink
	run            func(output string, ds []reasoning.Delta) error
}

var whole = chunker{"", func(s string) ([]reasoning.Delta, bool) { return texts(s), true }}

// probe runs p on output, unless p's check failed already; a failure is
// shrunk and recorded.
func (k *kit) probe(p probe, output string) {
	if k.failed[p.check] {
		return
	}
	if p.chunker.cut == nil {
		p.chunker = whole
	}
	ds, ok := p.chunker.cut(output)
	if !ok {
		return
	}
	err := safely(func() error { return p.run(output, ds) })
	if err == nil || k.failed[p.kind(err)] {
		return
	}
	out, ds, err := shrink(p, output, ds, err)
	f := &failure{check: p.kind(err), setting: p.setting, chunking: p.chunker.name, output: out, deltas: ds, from: len(output), err: err}
	var other *otherCheck
	if errors.As(err, &other) {
		f.err = other.err
	}
	k.record(f)
}

// kind names the guarantee err breaks: p's, unless err says otherwise.
func (p probe) kind(err error) string {
	var other *otherCheck
	if errors.As(err, &other) {
		return other.check
	}
	return p.check
}

// An otherCheck is a failure of a guarantee other than the one its probe
// is named after, found on the way (a delta after Finish that emitted, in
// a streaming check).
type otherCheck struct {
	check string
	err   error
}

func (o *otherCheck) Error() string { return o.err.Error() }

// maxShrinkRuns bounds the runs shrink makes of one failing check.
const maxShrinkRuns = 4000

// shrink makes a failing input smaller while the same guarantee still
// fails: it
// deletes ever shorter runs of the output's bytes (recutting it with the
// probe's chunker), then drops whole deltas and joins neighbouring ones.
// A case's output (fixed) keeps its bytes; only its chunking shrinks.
func shrink(p probe, out string, ds []reasoning.Delta, err error) (string, []reasoning.Delta, error) {
	runs, kind := 0, p.kind(err)
	fails := func(o string, d []reasoning.Delta) error { // a failure of the same guarantee, else nil
		if runs >= maxShrinkRuns {
			return nil
		}
		runs++
		if e := safely(func() error { return p.run(o, d) }); e != nil && p.kind(e) == kind {
			return e
		}
		return nil
	}
	if !p.fixed {
		for size := len(out); size >= 1; size /= 2 {
			for i := 0; i+size <= len(out); {
				cand := out[:i] + out[i+size:]
				if d, ok := p.chunker.cut(cand); ok {
					if e := fails(cand, d); e != nil {
						out, ds, err = cand, d, e
						continue
					}
				}
				i += size
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := 0; !p.fixed && i < len(ds); {
			cand := slices.Delete(slices.Clone(ds), i, i+1)
			o := joined(cand)
			if e := fails(o, cand); e != nil {
				out, ds, err, changed = o, cand, e, true
				continue
			}
			i++
		}
		for i := 0; i+1 < len(ds); {
			cand := slices.Clone(ds)
			a, b := cand[i], cand[i+1]
			var ids []int
			if a.IDs != nil || b.IDs != nil {
				ids = slices.Concat(a.IDs, b.IDs)
			}
			cand = slices.Replace(cand, i, i+2, reasoning.Delta{Text: a.Text + b.Text, IDs: ids})
			if e := fails(out, cand); e != nil {
				ds, err, changed = cand, e, true
				continue
			}
			i++
		}
	}
	return out, ds, err
}

func joined(ds []reasoning.Delta) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Text)
	}
	return b.String()
}

// Collect streams deltas through p, then Finish, and returns everything
// emitted, joined only after the last call (so that a string a parser
// returned and then changed, a buffer reused too early, shows), and, for a
// reasoning.Segmenter, the segments it produced along the way, merged.
func Collect(p reasoning.Parser, deltas []reasoning.Delta) (reasoning.Message, []reasoning.Segment) {
	return collect(p, deltas, true)
}

// CollectAtEnd is Collect, taking a reasoning.Segmenter's segments only
// after Finish, so that a segment's text gathers across deltas as a
// caller that reads segments once at the end sees it.
func CollectAtEnd(p reasoning.Parser, deltas []reasoning.Delta) (reasoning.Message, []reasoning.Segment) {
	return collect(p, deltas, false)
}

// collect is Collect (each) or CollectAtEnd.
func collect(p reasoning.Parser, deltas []reasoning.Delta, each bool) (reasoning.Message, []reasoning.Segment) {
	seg, _ := p.(reasoning.Segmenter)
	var msgs []reasoning.Message
	var pieces []reasoning.Segment
	add := func(m reasoning.Message, last bool) {
		msgs = append(msgs, m)
		if seg != nil && (each || last) {
			pieces = append(pieces, seg.Segments()...)
		}
	}
	for _, d := range deltas {
		add(p.ExtractStreaming(d), false)
	}
	add(p.Finish(), true)
	var r, c strings.Builder
	for _, m := range msgs {
		r.WriteString(m.Reasoning)
		c.WriteString(m.Content)
	}
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}, MergeSegments(pieces)
}

// MergeSegments joins the consecutive pieces of each segment, in order.
func MergeSegments(pieces []reasoning.Segment) []reasoning.Segment {
	var out []reasoning.Segment
	for _, s := range pieces {
		if n := len(out); n > 0 && out[n-1].Index == s.Index {
			out[n-1].Text += s.Text
			out[n-1].Done = out[n-1].Done || s.Done
			continue
		}
		out = append(out, s)
	}
	return out
}

// segmentsOf returns the segments of a whole output for a parser that has
// them, else nil.
func segmentsOf(p reasoning.Parser, output string) []reasoning.Segment {
	if seg, ok := p.(reasoning.Segmenter); ok {
		return MergeSegments(seg.ExtractSegments(output))
	}
	return nil
}
