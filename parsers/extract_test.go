package parsers

import (
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// thinkingOn switches thinking on by each family's switch, so that names
// whose default is off parse rather than pass text through.
var thinkingOn = reasoning.WithChatTemplateKwargs(map[string]any{
	"enable_thinking": true, "thinking": true, "reasoning_effort": "high", "reasoning": true,
})

// TestExtractOneBlockAllocs checks that Extract of an output of one
// reasoning block and the answer after it, each section one piece of the
// output, allocates nothing for every think-tag family once its parser has
// run an Extract: both sections are substrings of the output, and the
// grammar is reused.
func TestExtractOneBlockAllocs(t *testing.T) {
	for _, name := range reasoning.Names() {
		p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, ok := p.(interface{ grammar(bool) grammar })
		if !ok {
			continue // no shell: identity, the wrappers
		}
		if _, ok := g.grammar(false).(*tagGrammar); !ok {
			continue // not a think-tag family
		}
		e, _ := catalog.Lookup(name)
		open := ""
		if len(e.Opens) > 0 {
			open = e.Opens[0]
		}
		out := open + "Work it out: 2 + 2 is 4." + e.Closes[0] + "The answer is 4."
		m := p.Extract(out)
		if !strings.Contains(m.Reasoning, "2 + 2") || !strings.Contains(m.Content, "answer") {
			t.Errorf("%s: Extract(%q) = %+v, want one block and its answer", name, out, m)
			continue
		}
		for _, s := range []string{m.Reasoning, m.Content} {
			if !within(s, out) {
				t.Errorf("%s: Extract(%q): %q is not a substring of the output", name, out, s)
			}
		}
		if n := testing.AllocsPerRun(100, func() { p.Extract(out) }); n != 0 {
			t.Errorf("%s: Extract(%q): %v allocations, want 0", name, out, n)
		}
	}
}

// within reports whether s lies in the memory of out.
func within(s, out string) bool {
	if s == "" {
		return true
	}
	b, o := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(out)))
	return b >= o && b+uintptr(len(s)) <= o+uintptr(len(out))
}

// TestResultsStay checks, for every name, that what a parser returns stays
// as returned while the parser goes on: Extract's sections after further
// Extracts of other outputs on the same parser (which reuse its room and
// its grammar), and each delta's message and segments after the rest of
// a long stream and Finish (which reuse the slabs' buffers). Each later
// Extract must also equal a new parser's: nothing of an earlier output
// carries over. The outputs are the name's sample, turned around at its
// middle, and in capitals.
func TestResultsStay(t *testing.T) {
	for _, name := range reasoning.Names() {
		raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
		if err != nil {
			t.Fatalf("no sample for %q: %v", name, err)
		}
		a := string(raw)
		outputs := []string{a, a[len(a)/2:] + a[:len(a)/2], strings.ToUpper(a), a}
		newParser := func() reasoning.Parser {
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return p
		}

		p := newParser()
		seg, _ := p.(reasoning.Segmenter)
		var k kept
		for i, out := range outputs {
			m := p.Extract(out)
			if want := newParser().Extract(out); m != want {
				t.Errorf("%s: Extract of output %d after %d others = %+v, a new parser's %+v", name, i, i, m, want)
			}
			k.message(m)
			if seg != nil {
				k.segments(seg.ExtractSegments(out))
			}
		}
		k.check(t, name+": Extract and ExtractSegments after later calls")

		long := strings.Repeat(a, (64<<10)/len(a)+1)
		s := newParser()
		seg, _ = s.(reasoning.Segmenter)
		k = kept{}
		take := func(m reasoning.Message) {
			k.message(m)
			if seg != nil {
				k.segments(seg.Segments())
			}
		}
		for i := 0; i < len(long); i += 4 {
			take(s.ExtractStreaming(reasoning.Delta{Text: long[i:min(i+4, len(long))]}))
		}
		take(s.Finish())
		k.check(t, name+": a stream, later in it")
	}
}

// kept holds what a parser returned, and copies of it made at once.
type kept struct {
	msgs, msgCopies []reasoning.Message
	segs, segCopies []reasoning.Segment
}

func (k *kept) message(m reasoning.Message) {
	k.msgs = append(k.msgs, m)
	k.msgCopies = append(k.msgCopies, reasoning.Message{Reasoning: strings.Clone(m.Reasoning), Content: strings.Clone(m.Content)})
}

func (k *kept) segments(segs []reasoning.Segment) {
	for _, sg := range segs {
		k.segs = append(k.segs, sg)
		sg.Channel, sg.Recipient = strings.Clone(sg.Channel), strings.Clone(sg.Recipient)
		sg.ContentType, sg.Text = strings.Clone(sg.ContentType), strings.Clone(sg.Text)
		k.segCopies = append(k.segCopies, sg)
	}
}

// check reports each message and segment piece that is no longer what it
// was when returned.
func (k *kept) check(t *testing.T, when string) {
	t.Helper()
	for i := range k.msgs {
		if k.msgs[i] != k.msgCopies[i] {
			t.Errorf("%s: message %d changed to %+v, was %+v", when, i, k.msgs[i], k.msgCopies[i])
		}
	}
	for i := range k.segs {
		if k.segs[i] != k.segCopies[i] {
			t.Errorf("%s: segment piece %d changed to %+v, was %+v", when, i, k.segs[i], k.segCopies[i])
		}
	}
}
