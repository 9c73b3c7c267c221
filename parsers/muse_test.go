package parsers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestMuseMixedTokens streams every Muse case one real token per delta
// through o200k_harmony (gpt-oss), a stand-in for Muse's own vocabulary,
// which is not available: <|start|> and <|message|> are special tokens
// there, found by their IDs, while <|eom|> and <|eot|> are several ordinary
// tokens, found by their text, as vLLM says Muse's markers may be.
func TestMuseMixedTokens(t *testing.T) {
	conformance.RunVocab(t, casesDir+"/muse_glimmer.json", "gpt-oss")
	conformance.RunVocab(t, casesDir+"/muse_spark.json", "gpt-oss")
}

// TestMuseAliases checks the names SGLang and Dynamo use.
func TestMuseAliases(t *testing.T) {
	for alias, want := range map[string]string{"muse": "muse_glimmer", "muse-glimmer": "muse_glimmer", "muse_spark_open": "muse_spark", "muse-spark-open": "muse_spark"} {
		if got, ok := reasoning.Default.Canonical(alias); !ok || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", alias, got, ok, want)
		}
	}
}

// TestMuseSparkSegments streams a tool call through muse_spark in small
// deltas: its pieces add up to the segment ExtractSegments gives, and the
// answer after it is content; WithStreamReasoning(false) passes segments
// through.
func TestMuseSparkSegments(t *testing.T) {
	out := " to=self<|message|>Need the weather.<|eom|><|start|>assistant to=weather.get<|message|>" +
		`<atem:function_calls><atem:invoke name="weather.get"><atem:parameter name="city">Paris</atem:parameter></atem:invoke></atem:function_calls>` +
		"<|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>"
	want := []reasoning.Segment{{Index: 0, Recipient: "weather.get", Done: true,
		Text: `<atem:function_calls><atem:invoke name="weather.get"><atem:parameter name="city">Paris</atem:parameter></atem:invoke></atem:function_calls>`}}
	for _, opts := range [][]reasoning.Option{nil, {reasoning.WithStreamReasoning(false)}} {
		p, err := reasoning.New("muse_spark", nil, opts...)
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
		var got reasoning.Message
		for i := 0; i < len(out); i += 5 {
			m := p.ExtractStreaming(reasoning.Delta{Text: out[i:min(len(out), i+5)]})
			got.Reasoning += m.Reasoning
			got.Content += m.Content
			pieces = append(pieces, seg.Segments()...)
		}
		m := p.Finish()
		got.Reasoning += m.Reasoning
		got.Content += m.Content
		pieces = append(pieces, seg.Segments()...)
		if len(pieces) < 2 {
			t.Errorf("the tool call arrived in %d pieces; want it streamed", len(pieces))
		}
		if diff := cmp.Diff(want, conformance.MergeSegments(pieces)); diff != "" {
			t.Errorf("streamed segments mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(reasoning.Message{Reasoning: "Need the weather.", Content: "It is sunny."}, got); diff != "" {
			t.Errorf("streamed message mismatch (-want +got):\n%s", diff)
		}
	}
}

// TestMuseEndCheckPerToken walks a Muse answer token by token: the end
// check flips when the answer's <|message|> arrives, back when a to=self
// message begins, and IsReasoningEndStreaming agrees at every step.
func TestMuseEndCheckPerToken(t *testing.T) {
	tok, err := tokenizer.NewVocab(map[string]int{"<|start|>": 1, "<|message|>": 2, "<|eom|>": 3, "<|eot|>": 4})
	if err != nil {
		t.Fatal(err)
	}
	out := " to=self<|message|>plan<|eom|><|start|>assistant to=user<|message|>Hi<|eom|><|start|>assistant to=self<|message|>more"
	ids := tok.Encode(out)
	for _, name := range []string{"muse_glimmer", "muse_spark"} {
		p, _ := reasoning.New(name, tok)
		q, _ := reasoning.New(name, tok)
		var flips []string
		last := false
		for i := 1; i <= len(ids); i++ {
			ended := p.IsReasoningEnd(ids[:i])
			if s := q.IsReasoningEndStreaming(ids[:i], ids[i-1:i]); s != ended {
				t.Fatalf("%s: IsReasoningEndStreaming at %d = %v, IsReasoningEnd = %v", name, i, s, ended)
			}
			if ended != last {
				flips = append(flips, tok.Decode(ids[:i]))
				last = ended
			}
		}
		want := []string{
			" to=self<|message|>plan<|eom|><|start|>assistant to=user<|message|>",
			" to=self<|message|>plan<|eom|><|start|>assistant to=user<|message|>Hi<|eom|><|start|>assistant to=self<|message|>",
		}
		if diff := cmp.Diff(want, flips); diff != "" {
			t.Errorf("%s: the end check flips after (-want +got):\n%s", name, diff)
		}
	}
}

// TestMuseHeldRecipient streams bodies whose text may be a recipient
// ("to=name" right before <|message|>), cut between deltas where the
// scanner or the grammar holds it: each delta emits what is known to be
// body text and no more, and what is held goes where the next delta shows
// it belongs, the same per delta for both names but for the tool call.
func TestMuseHeldRecipient(t *testing.T) {
	type step struct {
		delta string
		want  reasoning.Message
	}
	r := func(s string) reasoning.Message { return reasoning.Message{Reasoning: s} }
	c := func(s string) reasoning.Message { return reasoning.Message{Content: s} }
	for _, tt := range []struct {
		name    string
		steps   []step
		glimmer []reasoning.Message // muse_glimmer's, where they differ from muse_spark's
	}{
		{"t is text", []step{{" to=self<|message|>a t", r("a ")}, {"he end", r("the end")}}, nil},
		{"to is text", []step{{" to=user<|message|>go to", c("go ")}, {" is", c("to is")}}, nil},
		{"to before a terminator", []step{{" to=self<|message|>plan to", r("plan ")}, {"<|eom|>", r("to")}}, nil},
		{"to= in prose", []step{{" to=user<|message|>x to", c("x ")}, {"=", c("")}, {"y z", c("to=y z")}}, nil},
		{"t at the end", []step{{" to=self<|message|>bit", r("bi")}, {"", r("")}}, nil},
		{"recipient in pieces", []step{
			{" to=self<|message|>I went t", r("I went ")}, {"o", r("")}, {"=", r("")}, {"wx", r("")},
			{"<|message|>{}", r("")}},
			[]reasoning.Message{r("I went "), r(""), r(""), r(""), c("to=wx<|message|>{}")}},
		{"recipient in one delta", []step{
			{" to=self<|message|>ok ", r("ok ")}, {"to=wx", r("")}, {"<|message|>{}", r("")}},
			[]reasoning.Message{r("ok "), r(""), c("to=wx<|message|>{}")}},
		{"after a recipient that is text", []step{
			{" to=self<|message|>see to=a b", r("see to=a b")}, {" c<|eom|>", r(" c")}}, nil},
	} {
		for _, name := range []string{"muse_spark", "muse_glimmer"} {
			p, err := reasoning.New(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range tt.steps {
				want := st.want
				if name == "muse_glimmer" && tt.glimmer != nil {
					want = tt.glimmer[i]
				}
				if diff := cmp.Diff(want, p.ExtractStreaming(reasoning.Delta{Text: st.delta})); diff != "" {
					t.Errorf("%s: %s: delta %d %q (-want +got):\n%s", name, tt.name, i, st.delta, diff)
				}
			}
		}
	}
}

// TestMuseToIsText checks that "to=", which the scanner finds for Muse's
// grammar, is no marker of the family: a tokenizer that cannot spell it
// builds the parser all the same, and one that holds it as one token gives
// its ID no meaning (the kit's checks pass with it among the output's IDs,
// a recipient inside a body included).
func TestMuseToIsText(t *testing.T) {
	framing := []string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>"}
	tok := reasoningtest.ToyVocab(append(slices.Clone(framing), "to="))
	for _, name := range []string{"muse_spark", "muse_glimmer"} {
		if _, err := reasoning.New(name, noEquals{reasoningtest.ToyVocab(framing)}); err != nil {
			t.Errorf("%s with a tokenizer that cannot spell %q: %v", name, "to=", err)
		}
	}
	outputs := []string{
		" to=self<|message|>Ask the tool. I could write to=user here.<|eom|><|start|>assistant to=user<|message|>Done, to= and all.<|eot|>",
		" to=self<|message|>to=user<|message|>Said in a body.<|eot|>",
	}
	for _, name := range []string{"muse_spark", "muse_glimmer"} {
		t.Run(name, func(t *testing.T) {
			e, _ := catalog.Lookup(name)
			c := conformance.KitConfig(name, e)
			c.Tokenizer, c.OnlyTokenizer, c.NoCorpus, c.Outputs = tok, true, true, outputs
			reasoningtest.Test(t, conformance.Factory(name), c)
		})
	}
}

// noEquals is a tokenizer that loses "=" when it encodes: no text with one
// decodes back.
type noEquals struct{ *tokenizer.Vocab }

func (v noEquals) Encode(text string) []int {
	return v.Vocab.Encode(strings.ReplaceAll(text, "=", ""))
}

// TestMuseRecipientAfterHeldBytes streams a body whose held recipient
// ("to=b") turns out to be text only when bytes the scanner held at the end
// of a delta (the start of a marker cut short) come out, and whose next
// "to=name" right before <|message|> is in the same delta: that one is a
// header, streamed as Extract reads it, with IDs or text alone. FuzzMuse
// found the first: Muse's stance had watched "to=" only while no recipient
// was held, so that the rest of the delta, searched without it, went
// straight to the body's section once the held one was let go.
func TestMuseRecipientAfterHeldBytes(t *testing.T) {
	r := func(s string) reasoning.Message { return reasoning.Message{Reasoning: s} }
	for _, tt := range []struct {
		name    string
		forced  bool
		deltas  []string
		glimmer reasoning.Message
		spark   reasoning.Message
	}{
		{"fuzz 729f520a524bd8e3", true, []string{"to=<", "to=0<|message|>"},
			reasoning.Message{Reasoning: "to=<", Content: "to=0<|message|>"}, r("to=<")},
		{"after a held <|", false, []string{" to=self<|message|>a to=b<|", "x to=c<|message|>{}"},
			reasoning.Message{Reasoning: "a to=b<|x ", Content: "to=c<|message|>{}"}, r("a to=b<|x ")},
		{"after a held <|eo in content", false, []string{" to=user<|message|>to=b<|eo", "to=c<|message|>{}<|eot|>"},
			reasoning.Message{Content: "to=b<|eoto=c<|message|>{}<|eot|>"}, reasoning.Message{Content: "to=b<|eo"}},
		{"held recipient goes on", false, []string{" to=self<|message|>to=b<", "c to=d<|message|>{}"},
			reasoning.Message{Reasoning: "to=b<c ", Content: "to=d<|message|>{}"}, r("to=b<c ")},
	} {
		tok := reasoningtest.ToyVocab([]string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>"})
		for _, name := range []string{"muse_spark", "muse_glimmer"} {
			want := tt.spark
			if name == "muse_glimmer" {
				want = tt.glimmer
			}
			for _, ids := range []bool{false, true} {
				p, err := reasoning.New(name, tok, reasoning.WithForceReasoning(tt.forced))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, p.Extract(strings.Join(tt.deltas, ""))); diff != "" {
					t.Errorf("%s: %s: Extract (-want +got):\n%s", name, tt.name, diff)
				}
				var got reasoning.Message
				for _, d := range tt.deltas {
					delta := reasoning.Delta{Text: d}
					if ids {
						delta.IDs = tok.Encode(d)
					}
					m := p.ExtractStreaming(delta)
					got.Reasoning += m.Reasoning
					got.Content += m.Content
				}
				m := p.Finish()
				got.Reasoning += m.Reasoning
				got.Content += m.Content
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: %s: streamed %q, IDs %v (-want +got):\n%s", name, tt.name, tt.deltas, ids, diff)
				}
			}
		}
	}
}

// TestMuseSparkSegmentBody streams muse_spark's tool calls, whose bodies go
// to their segments as they come (the fast path's directSegment) but for
// what may be a recipient: "to=" in a body's prose is its text, and a
// "to=name" right before <|message|> begins the next call, whichever
// deltas cut it, with text alone or with IDs.
func TestMuseSparkSegmentBody(t *testing.T) {
	const out = " to=self<|message|>Call it.<|eom|><|start|>assistant to=weather.get<|message|>" +
		`{"to": "go to=x y", "at": 1}` + "to=clock.now<|message|>{}<|eom|>" +
		"<|start|>assistant to=user<|message|>Done, to=all.<|eot|>"
	wantMsg := reasoning.Message{Reasoning: "Call it.", Content: "Done, to=all."}
	wantSegs := []reasoning.Segment{
		{Index: 0, Recipient: "weather.get", Text: `{"to": "go to=x y", "at": 1}`, Done: true},
		{Index: 1, Recipient: "clock.now", Text: "{}", Done: true},
	}
	tok := reasoningtest.ToyVocab([]string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>"})
	bytes := func(n int) []reasoning.Delta {
		var ds []reasoning.Delta
		for i := 0; i < len(out); i += n {
			ds = append(ds, reasoning.Delta{Text: out[i:min(len(out), i+n)]})
		}
		return ds
	}
	var perToken []reasoning.Delta
	for _, id := range tok.Encode(out) {
		perToken = append(perToken, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
	}
	for _, tc := range []struct {
		name   string
		deltas []reasoning.Delta
	}{
		{"1-byte deltas", bytes(1)}, {"2-byte deltas", bytes(2)}, {"3-byte deltas", bytes(3)},
		{"5-byte deltas", bytes(5)}, {"tokens", perToken}, {"one delta", bytes(len(out))},
	} {
		p, err := reasoning.New("muse_spark", tok)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantMsg, p.Extract(out)); diff != "" {
			t.Errorf("Extract (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantSegs, p.(reasoning.Segmenter).ExtractSegments(out)); diff != "" {
			t.Errorf("ExtractSegments (-want +got):\n%s", diff)
		}
		m, segs := reasoningtest.Collect(p, tc.deltas)
		if diff := cmp.Diff(wantMsg, m); diff != "" {
			t.Errorf("%s: streamed (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff(wantSegs, segs); diff != "" {
			t.Errorf("%s: streamed segments (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestMuseSparkHeldByte streams a tool call whose deltas end in a byte
// that may begin a marker or a recipient ("<", "t"): the scanner holds
// it, and the segment gets it with the next delta, which shows it to be
// text, or with the marker's text once a look-alike ends.
func TestMuseSparkHeldByte(t *testing.T) {
	p, err := reasoning.New("muse_spark", nil)
	if err != nil {
		t.Fatal(err)
	}
	sg := p.(reasoning.Segmenter)
	p.ExtractStreaming(reasoning.Delta{Text: " to=f<|message|>"})
	for _, tc := range []struct{ delta, want string }{
		{"<a", "<a"}, // "<a" is no marker
		{"t<", "t"},  // "t<" is no "to=", "<" may begin one
		{"at", "<a"}, // "<a" is no marker, "t" may begin "to="
		{"x", "tx"},  // "tx" is no "to="
		{"<|", ""},   // both may begin a marker
		{"eo", ""},   // "<|eo" still may
		{"!>", "<|eo!>"},
	} {
		p.ExtractStreaming(reasoning.Delta{Text: tc.delta})
		got := ""
		for _, s := range sg.Segments() {
			got += s.Text
		}
		if got != tc.want {
			t.Errorf("after %q: segment text %q, want %q", tc.delta, got, tc.want)
		}
	}
	p.ExtractStreaming(reasoning.Delta{Text: "<|eom|>"})
	if segs := sg.Segments(); len(segs) != 1 || segs[0].Text != "" || !segs[0].Done {
		t.Errorf("at <|eom|>: segments %+v, want the call done", segs)
	}
}

// TestMuseSparkToolAgain streams tool calls whose recipients, cut across
// deltas, repeat the last one's or differ from it in a byte or in length:
// each segment names its own recipient.
func TestMuseSparkToolAgain(t *testing.T) {
	tools := []string{"weather.get", "weather.get", "weather.got", "weather.ge", "weather.gets", "weather.gets", "xeather.gets"}
	var out string
	var want []string
	for _, to := range tools {
		out += "<|start|>assistant to=" + to + " <|message|>{}<|eom|>"
		want = append(want, to)
	}
	for n := 1; n <= 7; n++ {
		p, err := reasoning.New("muse_spark", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := 0; i < len(out); i += n {
			p.ExtractStreaming(reasoning.Delta{Text: out[i:min(len(out), i+n)]})
			for _, s := range p.(reasoning.Segmenter).Segments() {
				if s.Recipient != "" && (len(got) == 0 || s.Index != len(got)-1) {
					got = append(got, s.Recipient)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("deltas of %d bytes: recipients %q, want %q", n, got, want)
		}
	}
}
