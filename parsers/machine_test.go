package parsers_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestEndCheckRollback streams the IDs of each channel family's sample,
// and of think-tag families whose end check reads the decoded text
// (markers of several tokens, tool-call blocks, a label), through
// IsReasoningEndStreaming one to three tokens at a time, as speculative
// decoding does: now and then a draft of other tokens comes one at a time
// and is rejected, and the sequence is cut back into a delta of several
// tokens and grown again one token at a time. Every answer must be
// IsReasoningEnd's for the same IDs, with every marker one token (the end
// check's memo of answers) and with none (its walk, or the think-tag
// rules' scan of the text).
//
// Fixed bug: a delta of several tokens after a rejected draft left the
// draft's answers in the memo at the lengths inside the delta, and a
// delta that cut back into it read them.
func TestEndCheckRollback(t *testing.T) {
	for _, name := range []string{"apertus2509", "beam", "hunyuan_a13b", "inkling", "intern_s1", "muse_glimmer", "muse_spark", "openai_gptoss", "solar_open2", "cohere_command3", "gemma4", "kimi_k2", "plamo3"} {
		e, _ := catalog.Lookup(name)
		markers := slices.Concat(e.Markers, e.Boundaries)
		for _, v := range []struct {
			name string
			tok  tokenizer.Tokenizer
		}{{"single", conformance.ToyVocab(markers)}, {"bytes", conformance.ToyVocab(e.Boundaries)}} {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				ids := v.tok.Encode(strings.Repeat(readSample(t, name), 6))
				if len(ids) > 3000 {
					ids = ids[:3000]
				}
				p, err := reasoning.New(name, v.tok)
				if err != nil {
					t.Fatal(err)
				}
				check := func(seq []int, n int) { // seq's last n IDs are the delta
					got := p.IsReasoningEndStreaming(seq, seq[len(seq)-n:])
					fresh, _ := reasoning.New(name, v.tok)
					if want := fresh.IsReasoningEnd(seq); got != want {
						t.Fatalf("after %d IDs, the last %d new: IsReasoningEndStreaming = %v, IsReasoningEnd = %v", len(seq), n, got, want)
					}
				}
				r := rand.New(rand.NewPCG(1, 2))
				var seq []int
				for i := 0; i < len(ids); {
					if r.IntN(2) == 0 { // a draft of other tokens, then rejected
						draft := slices.Clip(seq)
						for range 1 + r.IntN(2) {
							draft = append(draft, ids[r.IntN(len(ids))])
							check(draft, 1)
						}
					}
					n := min(1+r.IntN(3), len(ids)-i)
					seq = append(seq, ids[i:i+n]...)
					i += n
					check(seq, n)
					if n > 1 { // cut back into the delta, grown again one at a time
						for k := len(seq) - 1 - r.IntN(n-1); k <= len(seq); k++ {
							check(seq[:k], 1)
						}
					}
				}
			})
		}
	}
}

// TestEndCheckPromptFlip streams random IDs through IsReasoningEndStreaming
// of a parser given a prompt (WithPrompt), in deltas of 0 to 3 tokens with
// rollbacks that may reach into the prompt, so that the sequence begins
// with the prompt at some steps and not at others, and now and then first
// as vLLM calls it (the prompt and output, the last token new). Every
// answer must be IsReasoningEnd's for the same IDs.
//
// Fixed bug: the end check remembered answers and its walk by lengths of
// the output past the prompt; when the sequence stopped (or began) to
// start with the prompt, it went on from those lengths, now counted from
// another start, and answered for IDs it had not been given.
func TestEndCheckPromptFlip(t *testing.T) {
	for _, name := range reasoning.Names() {
		e, _ := catalog.Lookup(name)
		markers := slices.Concat(e.Markers, e.Boundaries)
		tok := conformance.Tokenizer(name, conformance.ToyVocab(markers))
		pool := conformance.MarkerIDs(tok, markers, " a\n")
		t.Run(name, func(t *testing.T) {
			seed := uint64(len(name))
			r := rand.New(rand.NewPCG(7, seed))
			pick := func() int { return pool[r.IntN(len(pool))] }
			for trial := range 150 {
				prompt := []int{pick(), pick()}
				p, err := reasoning.New(name, tok, reasoning.WithPrompt("", prompt))
				if err != nil {
					t.Fatal(err)
				}
				var seq []int
				if r.IntN(3) == 0 { // as vLLM calls it: the prompt and some output, the last token new
					seq = append(slices.Clone(prompt), pick(), pick())
					checkEndStreaming(t, p, name, tok, prompt, seq, 1, trial, seed)
				}
				for range 24 {
					if len(seq) > 0 && r.IntN(4) == 0 { // rejected: cut back, maybe into the prompt
						seq = seq[:len(seq)-1-r.IntN(len(seq))]
						continue
					}
					n := r.IntN(4) // a delta of 0 to 3 IDs
					for range n {
						if len(seq) < len(prompt) && r.IntN(2) == 0 {
							seq = append(seq, prompt[len(seq)]) // the prompt's next ID
						} else {
							seq = append(seq, pick())
						}
					}
					checkEndStreaming(t, p, name, tok, prompt, seq, n, trial, seed)
				}
			}
		})
	}
}

// checkEndStreaming fails t unless IsReasoningEndStreaming of seq, whose
// last n IDs are new, is IsReasoningEnd's for seq.
func checkEndStreaming(t *testing.T, p reasoning.Parser, name string, tok tokenizer.Tokenizer, prompt, seq []int, n, trial int, seed uint64) {
	t.Helper()
	got := p.IsReasoningEndStreaming(seq, seq[len(seq)-n:])
	fresh, _ := reasoning.New(name, tok, reasoning.WithPrompt("", prompt))
	if want := fresh.IsReasoningEnd(seq); got != want {
		t.Fatalf("seed (7, %d), trial %d, prompt %v, after %v, the last %d new: IsReasoningEndStreaming = %v, IsReasoningEnd = %v", seed, trial, prompt, seq, n, got, want)
	}
}

// TestDriverMarkerAfterMovingText pins a rule of the driver: a marker
// counts only if it still counts after the text just before it, even in a
// grammar whose markers change with text. In Hunyuan A13B, text right
// after </think> ends the wait for <answer> (the rest is content, spec
// vllm-main §1.4 H4), so an <answer> right after that text is text too;
// were the wait still open it would open the answer and be dropped.
func TestDriverMarkerAfterMovingText(t *testing.T) {
	const out = "<think>\nA\n</think>x<answer>B"
	want := reasoning.Message{Reasoning: "A", Content: "x<answer>B"}
	p, err := reasoning.New("hunyuan_a13b", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Extract(out); got != want {
		t.Errorf("Extract(%q) = %+v, want %+v", out, got, want)
	}
	for i := range len(out) + 1 {
		deltas := []reasoning.Delta{{Text: out[:i]}, {Text: out[i:]}}
		if got := reasoning.Collect(p, deltas); got != want {
			t.Fatalf("Collect(%q) = %+v, want %+v", []string{out[:i], out[i:]}, got, want)
		}
		p, _ = reasoning.New("hunyuan_a13b", nil)
	}
}

// TestMarkerTokenShared streams deltas of one token each through a
// parser whose tokenizer gives both think tags one ID (as one that maps
// unknown text to one ID would): the ID credits both markers, so the
// closing tag's text counts though its own delta carries other IDs. A
// delta that is a marker's one token takes a short way in the shell; it
// must not take it for an ID that several markers share.
func TestMarkerTokenShared(t *testing.T) {
	for _, c := range []struct {
		deltas []reasoning.Delta
		want   reasoning.Message
	}{
		{
			deltas: []reasoning.Delta{{Text: "<think>", IDs: []int{7}}, {Text: "a", IDs: []int{1}}, {Text: "</think>", IDs: []int{2, 3}}, {Text: "b", IDs: []int{4}}},
			want:   reasoning.Message{Reasoning: "a", Content: "b"},
		},
		{
			deltas: []reasoning.Delta{{Text: "a", IDs: []int{1}}, {Text: "</think>", IDs: []int{7}}, {Text: "b", IDs: []int{4}}},
			want:   reasoning.Message{Reasoning: "a", Content: "b"},
		},
	} {
		p, err := reasoning.New("deepseek_r1", sharedID{})
		if err != nil {
			t.Fatal(err)
		}
		if got := reasoning.Collect(p, c.deltas); got != c.want {
			t.Errorf("Collect(%+v) = %+v, want %+v", c.deltas, got, c.want)
		}
	}
}

// sharedID is a tokenizer that gives <think> and </think> one ID, 7, and
// every other byte an ID of its own; 7 decodes as <think>.
type sharedID struct{}

func (sharedID) TokenID(s string) (int, bool) {
	if s == "<think>" || s == "</think>" {
		return 7, true
	}
	return 0, false
}

func (sharedID) Encode(text string) []int {
	ids := make([]int, len(text))
	for i := range len(text) {
		ids[i] = 1000 + int(text[i])
	}
	return ids
}

func (sharedID) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if id == 7 {
			b.WriteString("<think>")
		} else {
			b.WriteByte(byte(id - 1000))
		}
	}
	return b.String()
}

// TestDriverHeldRun streams outputs whose reasoning or content ends in
// whitespace the family holds back (stance.hold), over deltas that keep
// it held, release it, add to it, or end it with a marker, a marker cut in
// two, a delta with IDs or Finish: whitespace-only and empty deltas
// included. Each delta's message is pinned (held bytes come out with the
// text after them, never before), the deltas joined agree with Extract,
// and a delta after Finish gives nothing.
func TestDriverHeldRun(t *testing.T) {
	R := func(s string) reasoning.Message { return reasoning.Message{Reasoning: s} }
	C := func(s string) reasoning.Message { return reasoning.Message{Content: s} }
	none := reasoning.Message{}
	for _, tc := range []struct {
		name   string
		parser string
		ids    bool // deltas carry IDs, every marker one token
		opts   []reasoning.Option
		deltas []string
		want   []reasoning.Message // one per delta, then Finish's
	}{
		{"run over deltas then the closer", "glm45", false, nil,
			[]string{"<think>A", " ", "\n\n", "", " \t", "</think>", "B"},
			[]reasoning.Message{R("A"), none, none, none, none, none, C("B"), none}},
		{"run released by reasoning", "glm45", false, nil,
			[]string{"<think>A ", "\n", "B \n", "C"},
			[]reasoning.Message{R("A"), none, R(" \nB"), R(" \nC"), none}},
		{"run then Finish", "glm45", false, nil,
			[]string{"<think>A", " ", "\n"},
			[]reasoning.Message{R("A"), none, none, none}},
		{"run then a marker cut in two", "glm45", false, nil,
			[]string{"<think>A", "  </th", "ink>B"},
			[]reasoning.Message{R("A"), none, C("B"), none}},
		{"run released by a delta with a marker", "glm45", false, nil,
			[]string{"<think>A ", "B</think>C "},
			[]reasoning.Message{R("A"), {Reasoning: " B", Content: "C "}, none}},
		{"run then the closer's ID", "glm45", true, nil,
			[]string{"<think>", "A", " ", "\n", "</think>", "B"},
			[]reasoning.Message{none, R("A"), none, none, none, C("B"), none}},
		{"run released by a delta with IDs", "glm45", true, nil,
			[]string{"<think>", "A", " ", "", "B", " "},
			[]reasoning.Message{none, R("A"), none, none, R(" B"), none, none}},
		{"run then a tool call", "glm45", true, nil,
			[]string{"<think>", "A", " \n", "<tool_call>", "{}"},
			[]reasoning.Message{none, R("A"), none, C("<tool_call>"), C("{}"), none}},
		{"one newline held", "step3p5", false, nil,
			[]string{"<think>A\n", "\n", "B\n", "", "</think>C"},
			[]reasoning.Message{R("A"), R("\n"), R("\nB"), none, C("C"), none}},
		{"one newline then Finish", "step3p5", false, nil,
			[]string{"<think>A\n", "\n"},
			[]reasoning.Message{R("A"), R("\n"), none}},
		{"content run then Finish", "apriel", false, nil,
			[]string{"[BEGIN FINAL RESPONSE]X", "Y ", " ", "Z", " \n"},
			[]reasoning.Message{C("X"), C("Y"), none, C("  Z"), none, none}},
		{"content run then a dropped marker", "apriel", false, nil,
			[]string{"[BEGIN FINAL RESPONSE]X", "Y\n", "[END FINAL RESPONSE]", "Z"},
			[]reasoning.Message{C("X"), C("Y"), none, C("\nZ"), none}},
		{"newline before the closer", "hunyuan_a13b", false, nil,
			[]string{"<think>\nA", "B\n", "\n", "C", "\n</think>\n<answer>\nD\n</answer>"},
			[]reasoning.Message{R("A"), R("B"), R("\n"), R("\nC"), C("D"), none}},
		{"reasoning run then a block end", "inkling", false, []reasoning.Option{reasoning.WithForceReasoning(true)},
			[]string{"A", " ", "\t", "B\n", "<|end_message|>", "C"},
			[]reasoning.Message{R("A"), none, none, R(" \tB"), none, C("C"), none}},
	} {
		t.Run(tc.parser+"/"+tc.name, func(t *testing.T) {
			var tok tokenizer.Tokenizer
			if tc.ids {
				e, _ := catalog.Lookup(tc.parser)
				tok = conformance.ToyVocab(e.Markers)
			}
			p, err := reasoning.New(tc.parser, tok, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var deltas []reasoning.Delta
			var got []reasoning.Message
			for _, s := range tc.deltas {
				d := reasoning.Delta{Text: s}
				if tok != nil {
					d.IDs = tok.Encode(s)
				}
				deltas = append(deltas, d)
				got = append(got, p.ExtractStreaming(d))
			}
			got = append(got, p.Finish())
			if m := p.ExtractStreaming(reasoning.Delta{Text: "x "}); m != (reasoning.Message{}) {
				t.Errorf("a delta after Finish gave %+v, want nothing", m)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("deltas %q gave\n%q\nwant\n%q", tc.deltas, got, tc.want)
			}
			fresh, _ := reasoning.New(tc.parser, tok, tc.opts...)
			collected := reasoning.Collect(fresh, deltas)
			if want := fresh.Extract(strings.Join(tc.deltas, "")); collected != want {
				t.Errorf("Collect(%q) = %+v, Extract = %+v", tc.deltas, collected, want)
			}
		})
	}
}

// TestEndCheckScanAfterSkip streams Gemma 4's IDs, every marker several
// tokens, through IsReasoningEndStreaming where a call that reads no text
// (the output may still be the bare label) replaces IDs that the end
// check's scan of the text had read, and the next call goes on from where
// that scan stopped. Every answer must be IsReasoningEnd's.
//
// Fixed bug: the scan kept the replaced IDs' text ("<|chan", a marker
// begun), and the new IDs' "nel>" completed it into an opener.
func TestEndCheckScanAfterSkip(t *testing.T) {
	e, _ := catalog.Lookup("gemma4")
	tok := conformance.ToyVocab(e.Boundaries)
	p, err := reasoning.New("gemma4", tok)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		from int // the IDs before the delta
	}{{"x", 0}, {"x<|chan", 1}, {"txabcde", 0}, {"txabcdenel>", 7}} {
		ids := tok.Encode(c.text)
		got := p.IsReasoningEndStreaming(ids, ids[c.from:])
		fresh, _ := reasoning.New("gemma4", tok)
		if want := fresh.IsReasoningEnd(ids); got != want {
			t.Errorf("IDs of %q, the first %d known: IsReasoningEndStreaming = %v, IsReasoningEnd = %v", c.text, c.from, got, want)
		}
	}
}

// TestDriverHeldTextChunked streams outputs that reach the shell's ways
// with held text at fixed chunk sizes (1 to 13 bytes), taking a
// Segmenter's segments after every delta and only at the end, against
// Extract and ExtractSegments: a held byte that the next delta shows to
// be text, and a delta that ends in a marker's first byte, where text
// goes to a section or a tool call, with a byte the grammar holds
// (stance.hold) around them; and a tool header that names the last tool
// called again, and one that names another of the same length.
func TestDriverHeldTextChunked(t *testing.T) {
	for _, tc := range []struct{ name, out string }{
		{"apriel", "t[BEGIN FINAL RESPONSE]\n<=[END FINAL RESPONSE]</s>t\n<|end|>"},
		{"apriel", "a t\n<b t <\n[BEGIN FINAL RESPONSE] t< x\n<"},
		{"apriel", "abc<x \n<|end|>"},
		{"apriel", "[BEGIN FINAL RESPONSE]abc<x \n<|end|>"},
		{"apriel", "[BEGIN FINAL RESPONSE]ab<x \n</s>"},
		{"muse_spark", " to=self<|message|>Need the weather.<|eom|><|start|>assistant to=weather.get<|message|>" +
			`<atem:invoke name="weather.get"><atem:parameter name="city">Paris t< tt <<</atem:parameter></atem:invoke>` +
			"<|eom|><|start|>assistant to=weather.get<|message|>abc t<x to <|eom|><|start|>assistant to=weather.gex<|message|>x" +
			"<|eom|><|start|>assistant to=user<|message|>It is sunny. t<|eot|>"},
		{"muse_glimmer", " to=self<|message|>a t<b it< to <|eom|><|start|>assistant to=user<|message|>Not t<|eot|>"},
		{"openai_gptoss", "<|channel|>analysis<|message|>x t<|end|><|start|>assistant<|channel|>commentary to=functions.get <|constrain|>json<|message|>{\"a\": \"t<b\"}<|call|><|start|>assistant<|channel|>final<|message|>done <|return|>"},
		{"qwen3", "<think>a t\n <b</think>\n\n c <\n t\n"},
	} {
		p := newParser(t, tc.name, conformance.Tokenizer(tc.name, nil))
		want := p.Extract(tc.out)
		var wantSegs []reasoning.Segment
		if sg, ok := p.(reasoning.Segmenter); ok {
			wantSegs = sg.ExtractSegments(tc.out)
		}
		for size := 1; size <= 13; size++ {
			var ds []reasoning.Delta
			for i := 0; i < len(tc.out); i += size {
				ds = append(ds, reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+size)]})
			}
			for _, each := range []bool{true, false} {
				collect := reasoningtest.CollectAtEnd
				if each {
					collect = reasoningtest.Collect
				}
				p := newParser(t, tc.name, conformance.Tokenizer(tc.name, nil))
				_, isSeg := p.(reasoning.Segmenter)
				got, segs := collect(p, ds)
				if got != want {
					t.Errorf("%s, %d-byte deltas: %q streams as %+v, Extract gives %+v", tc.name, size, tc.out, got, want)
				}
				if isSeg && !slices.Equal(segs, wantSegs) {
					t.Errorf("%s, %d-byte deltas (segments taken after every delta: %v): segments %+v, ExtractSegments %+v", tc.name, size, each, segs, wantSegs)
				}
			}
		}
	}
}

// TestShellStepHeld streams outputs whose markers arrive cut over deltas
// where the grammar takes text itself (no stance.direct: whitespace
// trimmed between markers, a citation's sources), so that the delta after
// a marker's first bytes goes on with the marker the scanner holds, at
// fixed chunk sizes (1 to 13 bytes). What the deltas collect must be
// Extract's and, where prefix says so, every delta's message what each
// prefix of the deltas as one delta adds to the one before (the driver's
// feed), and Finish's that of the whole as one delta.
func TestShellStepHeld(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		prefix    bool // the messages of the prefixes as one delta grow by the next delta's
	}{
		{"cohere_command3", "<|START_THINKING|>The plan.<|END_THINKING|>\n<|START_RESPONSE|>It was <co>March</co: 0:[0]>, for <co>the Fair</co: 0:[0,1]>. Done.<|END_RESPONSE|>" +
			"<|START_THINKING|> more <|END_THINKING|> \n <|START_ACTION|>[{\"a\": 1}]<|END_ACTION|>\n<|START_RESPONSE|> x<|END_RESPONSE|>", true},
		{"cohere_command4", "The plan. <|END_THINKING|>\n\n<|START_TEXT|>Answer <co>A</co: 1:[2]>.<|END_TEXT|>\n<|START_THINKING|>\n<|END_THINKING|><|START_TEXT|>B", true},
		{"hunyuan_a13b", "<think>\nA\n</think>\n<answer>\nB\n</answer>\n<think> C </think>\n\n<answer>D", false},
		{"qwen3", "<think>\n\n</think>\n\n<think>a</think>\n<think>", true},
		{"inkling", "A\n<|end_message|>\n<|end_message|> B", true},
	} {
		want := newParser(t, tc.name, nil).Extract(tc.out)
		for size := 1; size <= 13; size++ {
			var deltas []reasoning.Delta
			for i := 0; i < len(tc.out); i += size {
				deltas = append(deltas, reasoning.Delta{Text: tc.out[i:min(len(tc.out), i+size)]})
			}
			p := newParser(t, tc.name, nil)
			var got []reasoning.Message
			for _, d := range deltas {
				got = append(got, p.ExtractStreaming(d))
			}
			got = append(got, p.Finish())
			if c := reasoning.Collect(newParser(t, tc.name, nil), deltas); c != want {
				t.Errorf("%s, %d-byte deltas: collected %+v, Extract %+v", tc.name, size, c, want)
			}
			if !tc.prefix {
				continue
			}
			if ref := prefixMessages(t, tc.name, deltas); !slices.Equal(got, ref) {
				t.Errorf("%s, %d-byte deltas %q: messages\n%q\nwant (each prefix as one delta)\n%q", tc.name, size, tc.out, got, ref)
			}
		}
	}
}

// prefixMessages returns the messages of deltas as each prefix of them fed
// as one delta tells them: what the prefix's message adds to the one
// before, then Finish's after all of them.
func prefixMessages(t *testing.T, name string, deltas []reasoning.Delta) []reasoning.Message {
	t.Helper()
	var ref []reasoning.Message
	var r, c, text string
	for i, d := range deltas {
		text += d.Text
		q := newParser(t, name, nil)
		m := q.ExtractStreaming(reasoning.Delta{Text: text})
		if !strings.HasPrefix(m.Reasoning, r) || !strings.HasPrefix(m.Content, c) {
			t.Fatalf("%s: %q as one delta gives %+v, less of it gave %q and %q", name, text, m, r, c)
		}
		ref = append(ref, reasoning.Message{Reasoning: m.Reasoning[len(r):], Content: m.Content[len(c):]})
		r, c = m.Reasoning, m.Content
		if i == len(deltas)-1 {
			ref = append(ref, q.Finish())
		}
	}
	return ref
}
