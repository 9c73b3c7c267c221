package parsers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
)

// TestHarmonyRealVocab streams every Harmony case one real o200k_harmony
// token per delta, with IDs, and checks the ID methods on real IDs.
func TestHarmonyRealVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	conformance.RunVocab(t, "../testdata/cases/openai_gptoss.json", "gpt-oss")
	conformance.RunVocab(t, "../testdata/cases/beam.json", "gpt-oss")

	tok := testvocab.Load(t, "gpt-oss")
	p, err := reasoning.New("openai_gptoss", tok)
	if err != nil {
		t.Fatal(err)
	}
	const (
		thought = "The user wants a number. 6 × 7 = 42."
		answer  = "The answer is **42**."
	)
	out := "<|channel|>analysis<|message|>" + thought + "<|end|><|start|>assistant<|channel|>final<|message|>" + answer + "<|return|>"
	ids := tok.Encode(out)
	for _, m := range []string{"<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|return|>"} {
		if _, ok := tok.TokenID(m); !ok {
			t.Fatalf("%s is not one token of o200k_harmony", m)
		}
	}
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd = false after the final message began")
	}
	msg, _ := tok.TokenID("<|message|>")
	for i := range ids {
		if ended := p.IsReasoningEnd(ids[:i+1]); ended != (i >= lastIndex(ids, msg)) {
			t.Fatalf("IsReasoningEnd after token %d = %v", i, ended)
		}
	}
	if got := tok.Decode(p.ExtractContentIDs(ids)); got != answer {
		t.Errorf("ExtractContentIDs decodes to %q, want %q", got, answer)
	}
	if got, want := p.CountReasoningTokens(ids), len(tok.Encode(thought)); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}

	// The previous turn's final answer does not end this turn's reasoning.
	prompt := "<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|end|><|start|>user<|message|>And?<|end|><|start|>assistant"
	if p.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd = true for a prompt whose final message is an earlier turn's")
	}
	if p.IsReasoningEnd(tok.Encode(prompt + "<|channel|>analysis<|message|>Hmm")) {
		t.Error("IsReasoningEnd = true inside this turn's analysis")
	}

	// Control tokens typed as ordinary tokens are text (spec policy 5).
	typed := append(tok.Encode("<|channel|>final<|message|>Write "), tok.Encode("<|")...)
	typed = append(typed, tok.Encode("end|> to stop.")...)
	var deltas []reasoning.Delta
	for _, id := range typed {
		deltas = append(deltas, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
	}
	q, _ := reasoning.New("openai_gptoss", tok)
	if diff := cmp.Diff(reasoning.Message{Content: "Write <|end|> to stop."}, reasoning.Collect(q, deltas)); diff != "" {
		t.Errorf("typed control token: Collect mismatch (-want +got):\n%s", diff)
	}
}

func lastIndex(ids []int, id int) int {
	for i := len(ids) - 1; i >= 0; i-- {
		if ids[i] == id {
			return i
		}
	}
	return -1
}

// TestHarmonySegments checks the Segmenter interface: streamed pieces of a
// tool call add up to the whole segment, and pass through WithStreamReasoning.
func TestHarmonySegments(t *testing.T) {
	out := "<|channel|>analysis<|message|>Need data.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>"
	want := []reasoning.Segment{{Index: 0, Channel: "commentary", Recipient: "functions.get_weather", ContentType: "json", Text: `{"city": "Paris"}`, Done: true}}
	for _, opts := range [][]reasoning.Option{nil, {reasoning.WithStreamReasoning(false)}} {
		p, err := reasoning.New("gpt-oss", nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		seg, ok := p.(reasoning.Segmenter)
		if !ok {
			t.Fatalf("%T does not implement reasoning.Segmenter", p)
		}
		if diff := cmp.Diff(want, seg.ExtractSegments(out)); diff != "" {
			t.Errorf("ExtractSegments mismatch (-want +got):\n%s", diff)
		}
		var pieces []reasoning.Segment
		for i := 0; i < len(out); i += 5 {
			p.ExtractStreaming(reasoning.Delta{Text: out[i:min(len(out), i+5)]})
			pieces = append(pieces, seg.Segments()...)
		}
		p.Finish()
		pieces = append(pieces, seg.Segments()...)
		if len(pieces) < 2 {
			t.Errorf("the tool call arrived in %d pieces; want it streamed", len(pieces))
		}
		if diff := cmp.Diff(want, conformance.MergeSegments(pieces)); diff != "" {
			t.Errorf("streamed segments mismatch (-want +got):\n%s", diff)
		}
	}
}

// TestHarmonySegmentFieldsStay streams tool calls whose headers come in
// pieces, and so are joined in memory the next header's join overwrites,
// and checks each segment's channel, recipient and content type as it
// arrives and again once every header has been read: a recipient that
// comes again, a new one, and a header begun in the prompt.
func TestHarmonySegmentFieldsStay(t *testing.T) {
	call := func(header, body string) string {
		return "<|start|>assistant<|channel|>" + header + "<|message|>" + body + "<|call|>"
	}
	out := "<|channel|>analysis<|message|>Plan.<|end|>" +
		call("commentary to=functions.get_weather <|constrain|>json", `{"city": "Paris"}`) +
		call("commentary to=functions.get_weather <|constrain|>json", `{"city": "Rome"}`) +
		call("analysis to=python code", "print(1)") +
		call("commentary to=functions.get_weather", `{"city": "Oslo"}`)
	seg := func(i int, channel, recipient, contentType, text string) reasoning.Segment {
		return reasoning.Segment{Index: i, Channel: channel, Recipient: recipient, ContentType: contentType, Text: text, Done: true}
	}
	want := []reasoning.Segment{
		seg(0, "commentary", "functions.get_weather", "json", `{"city": "Paris"}`),
		seg(1, "commentary", "functions.get_weather", "json", `{"city": "Rome"}`),
		seg(2, "analysis", "python", "code", "print(1)"),
		seg(3, "commentary", "functions.get_weather", "", `{"city": "Oslo"}`),
	}
	cases := []struct {
		name   string
		prompt string
		out    string
		want   []reasoning.Segment
	}{
		{"output", "", out, want},
		{"header begun in the prompt", "<|start|>user<|message|>Weather?<|end|><|start|>assistant<|channel|>comm",
			"entary to=functions.lookup <|constrain|>json<|message|>{}<|call|>" + out,
			append([]reasoning.Segment{seg(0, "commentary", "functions.lookup", "json", "{}")}, renumber(want, 1)...)},
	}
	for _, tc := range cases {
		for _, n := range []int{1, 3, 7} {
			p, err := reasoning.New("openai_gptoss", nil, reasoning.WithPrompt(tc.prompt, nil))
			if err != nil {
				t.Fatal(err)
			}
			sg := p.(reasoning.Segmenter)
			var pieces []reasoning.Segment
			for i := 0; i < len(tc.out); i += n {
				p.ExtractStreaming(reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+n)]})
				pieces = append(pieces, sg.Segments()...)
			}
			p.Finish()
			pieces = append(pieces, sg.Segments()...)
			if diff := cmp.Diff(tc.want, conformance.MergeSegments(pieces)); diff != "" {
				t.Errorf("%s, %d-byte deltas: segments mismatch (-want +got):\n%s", tc.name, n, diff)
			}
		}
	}
}

// renumber returns segs with their indexes moved by n.
func renumber(segs []reasoning.Segment, n int) []reasoning.Segment {
	out := append([]reasoning.Segment(nil), segs...)
	for i := range out {
		out[i].Index += n
	}
	return out
}

// TestHarmonySegmentBody streams a tool call's body, which goes to its
// segment as it comes (the shell's fast path where no byte of a delta can
// start a control token and no ID is one), in deltas of text, of tokens
// with IDs where a control token typed as ordinary tokens is body text,
// of a body and its terminator's token together, and after Finish.
func TestHarmonySegmentBody(t *testing.T) {
	markers := []string{"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|return|>", "<|call|>", "<|endoftext|>"}
	tok := conformance.ToyVocab(markers)
	const (
		header = "<|channel|>commentary to=functions.f <|constrain|>json<|message|>"
		body   = `{"say": "<|call|> ends a call", "n": 1}`
	)
	want := []reasoning.Segment{{Channel: "commentary", Recipient: "functions.f", ContentType: "json", Text: body, Done: true}}
	// ids returns the IDs of text, where only the markers listed are their
	// tokens and every other byte is one of its own.
	ids := func(text string, markers ...string) []int {
		var out []int
		for text != "" {
			n := 1
			for _, m := range markers {
				if strings.HasPrefix(text, m) {
					id, _ := tok.TokenID(m)
					out, n = append(out, id), len(m)
				}
			}
			if n == 1 {
				out = append(out, tok.Encode(text[:1])...)
			}
			text = text[n:]
		}
		return out
	}
	perToken := func(text string, markers ...string) []reasoning.Delta {
		var ds []reasoning.Delta
		for _, id := range ids(text, markers...) {
			ds = append(ds, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
		}
		return ds
	}
	perBytes := func(text string, n int) []reasoning.Delta {
		var ds []reasoning.Delta
		for i := 0; i < len(text); i += n {
			ds = append(ds, reasoning.Delta{Text: text[i:min(len(text), i+n)]})
		}
		return ds
	}
	typed := strings.Replace(body, "<|call|>", "", 1) // the body but for its typed marker
	cases := []struct {
		name   string
		prompt string
		deltas []reasoning.Delta
		want   []reasoning.Segment
	}{
		{name: "tokens, the header in the prompt", prompt: "<|start|>assistant" + header,
			deltas: slices.Concat(perToken(body), perToken("<|call|>", "<|call|>")), want: want},
		{"1-byte deltas", "", perBytes(header+typed+"<|call|>", 1), []reasoning.Segment{{Channel: "commentary", Recipient: "functions.f", ContentType: "json", Text: typed, Done: true}}},
		{"5-byte deltas", "", perBytes(header+typed+"<|call|>", 5), []reasoning.Segment{{Channel: "commentary", Recipient: "functions.f", ContentType: "json", Text: typed, Done: true}}},
		{"tokens, a control token typed in the body", "", slices.Concat(perToken(header, markers...), perToken(body), perToken("<|call|>", "<|call|>")), want},
		{"body and terminator in one delta", "", append(perToken(header, markers...),
			reasoning.Delta{Text: body[:9]}, reasoning.Delta{Text: body[9:17], IDs: ids(body[9:17])},
			reasoning.Delta{Text: body[17:] + "<|call|>", IDs: ids(body[17:]+"<|call|>", "<|call|>")}), want},
		{"a terminator's ID ahead of its text", "", slices.Concat(perToken(header, markers...), perToken(body[:len(body)-2]),
			[]reasoning.Delta{{Text: body[len(body)-2:], IDs: ids(body[len(body)-2:]+"<|call|>", "<|call|>")}, {Text: "<|call|>"}}), want},
		{"unfinished body", "", append(perToken(header, markers...), reasoning.Delta{Text: "{\"n\"", IDs: ids("{\"n\"")}),
			[]reasoning.Segment{{Channel: "commentary", Recipient: "functions.f", ContentType: "json", Text: `{"n"`}}}, // Finish leaves it open
	}
	for _, tc := range cases {
		p, err := reasoning.New("openai_gptoss", tok, reasoning.WithPrompt(tc.prompt, nil))
		if err != nil {
			t.Fatal(err)
		}
		sg := p.(reasoning.Segmenter)
		var pieces []reasoning.Segment
		for _, d := range tc.deltas {
			if m := p.ExtractStreaming(d); !m.IsZero() {
				t.Errorf("%s: delta %q emitted %+v, want nothing", tc.name, d.Text, m)
			}
			pieces = append(pieces, sg.Segments()...)
		}
		p.Finish()
		if m := p.ExtractStreaming(reasoning.Delta{Text: "more"}); !m.IsZero() {
			t.Errorf("%s: a delta after Finish emitted %+v", tc.name, m)
		}
		pieces = append(pieces, sg.Segments()...)
		if diff := cmp.Diff(tc.want, conformance.MergeSegments(pieces)); diff != "" {
			t.Errorf("%s: segments mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestHarmonyHeadersRepeat streams headers that come again, more of them
// than the grammar remembers (six tools of names as long as one another,
// each called twice, between analysis and final messages), and headers
// that differ only where the prompt began them: each message goes where
// its own header says.
func TestHarmonyHeadersRepeat(t *testing.T) {
	seg := func(i int, recipient, body string) reasoning.Segment {
		return reasoning.Segment{Index: i, Channel: "commentary", Recipient: recipient, ContentType: "json", Text: body, Done: true}
	}
	var b strings.Builder
	var reasoningWant, contentWant strings.Builder
	var want []reasoning.Segment
	for round := range 2 {
		for tool := range 6 {
			i := len(want)
			r, body := "functions."+string(rune('a'+tool)), fmt.Sprintf(`{"n": %d}`, i)
			b.WriteString("<|channel|>analysis<|message|>Plan " + r + ".<|end|>")
			reasoningWant.WriteString("Plan " + r + ".")
			b.WriteString("<|start|>assistant<|channel|>commentary to=" + r + " <|constrain|>json<|message|>" + body + "<|call|>")
			want = append(want, seg(i, r, body))
			if tool%3 == round {
				b.WriteString("<|start|>assistant<|channel|>final<|message|>Done " + r + ".<|end|>")
				contentWant.WriteString("Done " + r + ".")
			}
		}
	}
	out := b.String()
	cases := []struct {
		name               string
		prompt, out        string
		reasoning, content string
		want               []reasoning.Segment
	}{
		{"output", "", out, reasoningWant.String(), contentWant.String(), want},
		// The prompt's "<|start|>assistant<|channel|>final" and the
		// output's "<|message|>" make a final header; the same text in the
		// output later is the same header.
		{"header begun in the prompt", "<|start|>assistant<|channel|>final", "<|message|>Hi.<|end|>" + out + "<|start|>assistant<|channel|>final<|message|>Bye.<|return|>",
			reasoningWant.String(), "Hi." + contentWant.String() + "Bye.", want},
		// Here the prompt's part is a role alone: the output's
		// "<|channel|>final" begins a header of its own, not the one above.
		{"role in the prompt", "<|start|>assistant", "<|channel|>analysis<|message|>Hm.<|end|><|start|>assistant<|channel|>analysis<|message|>Hm.<|end|>" + out,
			"Hm.Hm." + reasoningWant.String(), contentWant.String(), want},
	}
	for _, tc := range cases {
		for _, n := range []int{1, 4, 13} {
			p, err := reasoning.New("openai_gptoss", nil, reasoning.WithPrompt(tc.prompt, nil))
			if err != nil {
				t.Fatal(err)
			}
			sg := p.(reasoning.Segmenter)
			var pieces []reasoning.Segment
			var r, c strings.Builder
			for i := 0; i < len(tc.out); i += n {
				m := p.ExtractStreaming(reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+n)]})
				r.WriteString(m.Reasoning)
				c.WriteString(m.Content)
				pieces = append(pieces, sg.Segments()...)
			}
			m := p.Finish()
			r.WriteString(m.Reasoning)
			c.WriteString(m.Content)
			pieces = append(pieces, sg.Segments()...)
			if r.String() != tc.reasoning || c.String() != tc.content {
				t.Errorf("%s, %d-byte deltas: got reasoning %q, content %q; want %q, %q", tc.name, n, r.String(), c.String(), tc.reasoning, tc.content)
			}
			if diff := cmp.Diff(tc.want, conformance.MergeSegments(pieces)); diff != "" {
				t.Errorf("%s, %d-byte deltas: segments mismatch (-want +got):\n%s", tc.name, n, diff)
			}
			if diff := cmp.Diff(tc.want, sg.ExtractSegments(tc.out)); diff != "" {
				t.Errorf("%s: ExtractSegments mismatch (-want +got):\n%s", tc.name, diff)
			}
		}
	}
}

// TestBeamToolHeader streams tool calls to beam, which sends each whole to
// content: the header as it came, in one piece or many, without the part
// the prompt began, and the results stay as returned while later headers
// come.
func TestBeamToolHeader(t *testing.T) {
	call := func(header, body string) string {
		return "<|start|>assistant<|channel|>" + header + "<|message|>" + body + "<|call|>"
	}
	out := "<|channel|>analysis<|message|>Plan.<|end|>" +
		call("commentary to=functions.get_weather <|constrain|>json", `{"city": "Paris"}`) +
		call("commentary to=functions.lookup", `{"q": 1}`) +
		call("commentary to=functions.get_weather <|constrain|>json", `{"city": "Rome"}`)
	content := strings.TrimPrefix(out, "<|channel|>analysis<|message|>Plan.<|end|>")
	cases := []struct {
		name               string
		prompt, out        string
		reasoning, content string
	}{
		{"output", "", out, "Plan.", content},
		{"header begun in the prompt", "<|start|>user<|message|>Weather?<|end|><|start|>assistant<|channel|>comm",
			"entary to=functions.f <|constrain|>json<|message|>{}<|call|>" + out,
			"Plan.", "entary to=functions.f <|constrain|>json<|message|>{}<|call|>" + content},
	}
	for _, tc := range cases {
		for _, n := range []int{1, 4, 9, len(tc.out)} {
			p, err := reasoning.New("beam", nil, reasoning.WithPrompt(tc.prompt, nil))
			if err != nil {
				t.Fatal(err)
			}
			var ms []reasoning.Message
			for i := 0; i < len(tc.out); i += n {
				ms = append(ms, p.ExtractStreaming(reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+n)]}))
			}
			ms = append(ms, p.Finish())
			var r, c strings.Builder
			for _, m := range ms { // after the stream: every result as returned
				r.WriteString(m.Reasoning)
				c.WriteString(m.Content)
			}
			if r.String() != tc.reasoning || c.String() != tc.content {
				t.Errorf("%s, %d-byte deltas: got reasoning %q, content %q; want %q, %q", tc.name, n, r.String(), c.String(), tc.reasoning, tc.content)
			}
		}
		p, err := reasoning.New("beam", nil, reasoning.WithPrompt(tc.prompt, nil))
		if err != nil {
			t.Fatal(err)
		}
		if m := p.Extract(tc.out); m.Reasoning != tc.reasoning || m.Content != tc.content {
			t.Errorf("%s: Extract = %+v, want reasoning %q, content %q", tc.name, m, tc.reasoning, tc.content)
		}
	}
}

// TestHarmonyNoHeaderAllocs checks that Extract of long text after
// <|start|> that is no header (with a newline or without), one piece of the
// output up to its end, returns it as a substring of the output and
// allocates nothing once the parser has run an Extract, as for any other
// one-piece section: the grammar copies a header's text to read it, not a
// piece too long to be one.
func TestHarmonyNoHeaderAllocs(t *testing.T) {
	for _, name := range []string{"openai_gptoss", "beam"} {
		p, err := reasoning.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, out := range []string{
			"<|start|>assistant" + strings.Repeat("x", 64<<10),
			"<|start|>assistant and\n" + strings.Repeat("x", 64<<10),
		} {
			if m := p.Extract(out); m.Content != out || m.Reasoning != "" {
				t.Errorf("%s: Extract(%.30q...) = %.30q..., want the output as content", name, out, m.Content)
			}
			if n := testing.AllocsPerRun(20, func() { p.Extract(out) }); n != 0 {
				t.Errorf("%s: Extract(%.30q...): %v allocations, want 0", name, out, n)
			}
		}
	}
}

// TestHarmonyHeldHeader streams headers whose text comes in deltas of its
// own, which the grammar holds as they come, to both Harmony names, in
// deltas of a few bytes and of one token with IDs: headers that reach
// <|message|>, and text that turns out to be no header (a newline, more
// than 256 bytes, a terminator, a new <|start|>, the end of the output,
// with a part the prompt began). Each stream says what Extract says.
func TestHarmonyHeldHeader(t *testing.T) {
	markers := []string{"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|return|>", "<|call|>", "<|endoftext|>"}
	tok := conformance.ToyVocab(markers)
	long := strings.Repeat("x", 250)
	outs := []string{
		"<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>Done.<|return|>",
		"<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{}<|call|>",
		"<|start|>assistant and\nmore<|channel|>final<|message|>Done.",
		"<|start|>assistant" + long + "<|channel|>final<|message|>Done.",
		"<|start|>" + long[:240] + "<|channel|>final<|message|>Done.",
		"<|start|>assistant<|end|>after<|start|>assistant<|start|>again<|channel|>final<|message|>Done.",
		"<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>fin",
	}
	for _, name := range []string{"openai_gptoss", "beam"} {
		for _, prompt := range []string{"", "<|start|>assistant<|channel|>comm"} {
			for _, out := range outs {
				p, err := reasoning.New(name, tok, reasoning.WithPrompt(prompt, nil))
				if err != nil {
					t.Fatal(err)
				}
				want := p.Extract(out)
				for _, n := range []int{1, 2, 3, 5, 8, 0} {
					var deltas []reasoning.Delta
					if n == 0 { // one token per delta, with its ID
						for _, id := range tok.Encode(out) {
							deltas = append(deltas, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
						}
					}
					for i := 0; n > 0 && i < len(out); i += n {
						deltas = append(deltas, reasoning.Delta{Text: out[i:min(len(out), i+n)]})
					}
					q, err := reasoning.New(name, tok, reasoning.WithPrompt(prompt, nil))
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, reasoning.Collect(q, deltas)); diff != "" {
						t.Errorf("%s, prompt %q, %q in %d-byte deltas (0: tokens): Collect differs from Extract (-Extract +Collect):\n%s", name, prompt, out, n, diff)
					}
				}
			}
		}
	}
}

// TestHarmonyLookBackPrompt checks the end check's look-back (every control
// token one ID) against the grammar's walk (every byte one ID) where the
// prompt ends inside a header: the header's text in the prompt counts, its
// channel or recipient included, and the IDs may or may not begin with the
// prompt's.
func TestHarmonyLookBackPrompt(t *testing.T) {
	markers := []string{"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|return|>", "<|call|>", "<|endoftext|>"}
	tok, bytes := conformance.ToyVocab(markers), conformance.ToyVocab(nil)
	const turn = "<|start|>user<|message|>Hi<|end|><|start|>assistant"
	for _, c := range []struct{ prompt, out string }{
		{turn + "<|channel|>final", "<|message|>Hello"},
		{turn + "<|channel|>final", "<|constrain|>json<|message|>{}"},
		{turn + " to=functions.f", "<|channel|>final<|message|>x"},
		{turn + "<|channel|>commentary to=functions.f", "<|channel|>final<|message|>x"},
		{turn + "<|channel|>fin", "al<|message|>x"},
		{turn + "<|channel|>analysis", " to=f<|channel|>final<|message|>x"},
		{turn + strings.Repeat("a", 200), "<|channel|>final<|message|>x"},
		{turn + "<|channel|>final", "\n<|message|>x"},
		{turn + "<|channel|>final", "<|start|>assistant<|message|>x"},
	} {
		for _, name := range []string{"openai_gptoss", "beam"} {
			p, err := reasoning.New(name, tok, reasoning.WithPrompt(c.prompt, tok.Encode(c.prompt)))
			if err != nil {
				t.Fatal(err)
			}
			walk, err := reasoning.New(name, bytes, reasoning.WithPrompt(c.prompt, bytes.Encode(c.prompt)))
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode(c.out)
			want := walk.IsReasoningEnd(bytes.Encode(c.out))
			if got := p.IsReasoningEnd(ids); got != want {
				t.Errorf("%s, prompt %q, output %q: IsReasoningEnd = %v, the walk %v", name, c.prompt, c.out, got, want)
			}
			if got := p.IsReasoningEnd(slices.Concat(tok.Encode(c.prompt), ids)); got != want {
				t.Errorf("%s, prompt %q, output %q after the prompt's IDs: IsReasoningEnd = %v, the walk %v", name, c.prompt, c.out, got, want)
			}
		}
	}
}
