package parsers_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Kimi K2's tool-section marker, one special token (163595) in the real
// vocabulary.
const kimiSection = "<|tool_calls_section_begin|>"

// TestKimiCasesRealVocab streams every Kimi golden case one real token per
// delta, with the tokens' IDs, through the Kimi K2 vocabulary: there <think>
// is three ordinary tokens, ◁ is two byte-level tokens (a delta ends inside
// its UTF-8 encoding), K3's and K2 Horizon's markers are spelled with
// ordinary tokens, and the tool section is one special token.
func TestKimiCasesRealVocab(t *testing.T) {
	for _, file := range []string{"kimi_k2", "kimi_k25", "kimi", "kimi_k3", "k2_horizon"} {
		t.Run(file, func(t *testing.T) {
			conformance.RunVocab(t, "../testdata/cases/"+file+".json", "kimi-k2")
		})
	}
}

// TestKimiNames checks the spellings users type: Dynamo's "kimi-k3" is
// kimi_k3 once names are normalised.
func TestKimiNames(t *testing.T) {
	for alias, want := range map[string]string{
		"kimi-k3": "kimi_k3", "Kimi_K3": "kimi_k3", "kimi-k2": "kimi_k2", "KIMI": "kimi",
		"kimi-k25": "kimi_k25", "k2-horizon": "k2_horizon",
	} {
		if got, ok := reasoning.Default.Canonical(alias); !ok || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", alias, got, ok, want)
		}
	}
}

// perToken returns one delta per ID, with the ID and its decoded text.
func perToken(tok tokenizer.Tokenizer, ids []int) []reasoning.Delta {
	ds := make([]reasoning.Delta, len(ids))
	for i := range ids {
		ds[i] = reasoning.Delta{Text: tok.Decode(ids[i : i+1]), IDs: ids[i : i+1]}
	}
	return ds
}

// firstEnd returns the index of the first token at which
// IsReasoningEndStreaming, asked one token at a time, reports true, or -1.
// The method may remember the sequence it is asked about, so each sequence
// gets a parser of its own.
func firstEnd(t *testing.T, name string, tok tokenizer.Tokenizer, ids []int) int {
	t.Helper()
	p, err := reasoning.New(name, tok)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= len(ids); i++ {
		if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
			return i - 1
		}
	}
	return -1
}

// TestKimiK2RealIDs checks the ID-level methods on real Kimi K2 token IDs,
// where <think> and </think> are three ordinary tokens each and the tool
// section is one special token.
func TestKimiK2RealIDs(t *testing.T) {
	tok := testvocab.Load(t, "kimi-k2")
	sectionID, ok := tok.TokenID(kimiSection)
	if !ok || sectionID != 163595 {
		t.Fatalf("%s is %d, %v; want the special token 163595", kimiSection, sectionID, ok)
	}
	if _, ok := tok.TokenID("</think>"); ok {
		t.Fatal("</think> is one token in kimi-k2; the test needs several")
	}
	p, err := reasoning.New("kimi_k2", tok)
	if err != nil {
		t.Fatal(err)
	}

	// Reasoning ended implicitly by the tool section, which is content.
	const (
		thought = "The user wants the weather in Tokyo. I will call the tool."
		call    = kimiSection + "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}<|tool_call_end|><|tool_calls_section_end|>"
	)
	ids := tok.Encode("<think>" + thought + call)
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd = false after the tool section")
	}
	if got := tok.Decode(p.ExtractContentIDs(ids)); got != call {
		t.Errorf("ExtractContentIDs decodes to %q, want %q", got, call)
	}
	if got, want := p.CountReasoningTokens(ids), len(tok.Encode(thought)); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}
	if i := firstEnd(t, "kimi_k2", tok, ids); i < 0 || ids[i] != sectionID {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want the section token", i)
	}
	q, _ := reasoning.New("kimi_k2", tok)
	if diff := cmp.Diff(reasoning.Message{Reasoning: thought, Content: call}, reasoning.Collect(q, perToken(tok, ids))); diff != "" {
		t.Errorf("Collect per real token mismatch (-want +got):\n%s", diff)
	}

	// An explicit multi-token </think>: the end is seen once its last token
	// has come, and reasoning's trailing whitespace belongs to no section.
	const answer = "\n\nIt is sunny in Tokyo."
	ids = tok.Encode("<think>" + thought + "\n</think>" + answer)
	end := len(tok.Encode("<think>" + thought + "\n</think>"))
	if i := firstEnd(t, "kimi_k2", tok, ids); i < 0 || i >= end {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want one of the </think> tokens, before %d", i, end)
	}
	if p.IsReasoningEnd(ids[:end-2]) {
		t.Error("IsReasoningEnd = true before </think> is complete")
	}
	q, _ = reasoning.New("kimi_k2", tok)
	if diff := cmp.Diff(reasoning.Message{Reasoning: thought, Content: answer}, reasoning.Collect(q, perToken(tok, ids))); diff != "" {
		t.Errorf("Collect per real token mismatch (-want +got):\n%s", diff)
	}

	// The thinking-disabled prefill closes the block in the prompt.
	prompt := "<|im_user|>user<|im_middle|>Hi<|im_end|><|im_assistant|>assistant<|im_middle|><think></think>"
	r, err := reasoning.New("kimi_k2", tok, reasoning.WithPrompt(prompt, tok.Encode(prompt)))
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd(prompt) = false for a closed prefill")
	}
	if diff := cmp.Diff(reasoning.Message{Content: "Hello!"}, r.Extract("Hello!")); diff != "" {
		t.Errorf("Extract after a closed prefill mismatch (-want +got):\n%s", diff)
	}

	// Thinking off: everything is content, the end check is always true.
	off, err := reasoning.New("kimi_k2", tok, reasoning.WithThinking(false))
	if err != nil {
		t.Fatal(err)
	}
	if !off.IsReasoningEnd(nil) || off.CountReasoningTokens(ids) != 0 || !slices.Equal(off.ExtractContentIDs(ids), ids) {
		t.Error("thinking off: want IsReasoningEnd true, no reasoning tokens, all IDs content")
	}
}

// TestKimiK2IDBeforeText is the upstream guard for a marker whose ID has
// arrived before its text (a detokenizer holding text back for a stop
// string): vLLM returns no delta for that step
// (test_streaming_end_token_id_buffered,
// test_streaming_tool_section_id_buffered). Here the step's text, which
// comes before the marker, is emitted as reasoning, and the marker counts
// when its text arrives, so nothing is lost or misrouted.
func TestKimiK2IDBeforeText(t *testing.T) {
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 100, "</think>": 101, kimiSection: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		marker string
		id     int
		want   reasoning.Message
	}{
		{"end-token-id-buffered", "</think>", 101, reasoning.Message{Reasoning: "some reasoning extra", Content: "answer"}},
		{"tool-section-id-buffered", kimiSection, 200, reasoning.Message{Reasoning: "some reasoning extra", Content: kimiSection + "answer"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := reasoning.New("kimi_k2", tok)
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				d    reasoning.Delta
				want reasoning.Message
			}{
				{reasoning.Delta{Text: "<think>", IDs: []int{100}}, reasoning.Message{}},
				{reasoning.Delta{Text: "some reasoning", IDs: []int{999}}, reasoning.Message{Reasoning: "some reasoning"}},
				// The marker's ID and one more arrive; the text is still
				// the text before the marker.
				{reasoning.Delta{Text: " extra", IDs: []int{tt.id, 999}}, reasoning.Message{Reasoning: " extra"}},
				// The held text comes, without IDs.
				{reasoning.Delta{Text: tt.marker + "answer"}, reasoning.Message{Content: tt.want.Content}},
			}
			var got reasoning.Message
			for i, s := range steps {
				m := p.ExtractStreaming(s.d)
				if diff := cmp.Diff(s.want, m); diff != "" {
					t.Errorf("step %d (%q %v) mismatch (-want +got):\n%s", i, s.d.Text, s.d.IDs, diff)
				}
				got.Reasoning += m.Reasoning
				got.Content += m.Content
			}
			if m := p.Finish(); !m.IsZero() {
				t.Errorf("Finish emitted %+v", m)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("stream mismatch (-want +got):\n%s", diff)
			}
		})
	}

	// Spec policy 5: the same characters typed as other tokens, in a stream
	// that carries IDs, are text.
	p, _ := reasoning.New("kimi_k2", tok)
	typed := []reasoning.Delta{{Text: "<think>", IDs: []int{100}}, {Text: "a </", IDs: []int{1, 2}}, {Text: "think> b", IDs: []int{3, 4}}}
	if diff := cmp.Diff(reasoning.Message{Reasoning: "a </think> b"}, reasoning.Collect(p, typed)); diff != "" {
		t.Errorf("typed closer mismatch (-want +got):\n%s", diff)
	}
}

// TestKimiUnicodeMarkerBytes feeds the three-byte ◁ of Kimi's markers in
// pieces: a delta that ends inside it emits nothing of it, and a rune that
// shares its first bytes (◀, U+25C0) comes out whole once it is known not
// to start a marker.
func TestKimiUnicodeMarkerBytes(t *testing.T) {
	const open = "◁think▷" // e2 97 81 ...
	if open[:3] != "\xe2\x97\x81" {
		t.Fatalf("◁ is % x", open[:3])
	}
	p, err := reasoning.New("kimi", nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		text string
		want reasoning.Message
	}{
		{"Answer \xe2", reasoning.Message{Content: "Answer "}},
		{"\x97", reasoning.Message{}},
		{"\x80 next", reasoning.Message{Content: "\xe2\x97\x80 next"}}, // ◀: not a marker
		{" \xe2\x97", reasoning.Message{Content: " "}},
		{"\x81thi", reasoning.Message{}},
		{"nk\xe2\x96", reasoning.Message{}},
		{"\xb7plan\xe2\x97\x81/think\xe2\x96", reasoning.Message{Reasoning: "plan"}},
		{"\xb7done", reasoning.Message{Content: "done"}},
	}
	for i, s := range steps {
		if diff := cmp.Diff(s.want, p.ExtractStreaming(reasoning.Delta{Text: s.text})); diff != "" {
			t.Errorf("step %d (%q) mismatch (-want +got):\n%s", i, s.text, diff)
		}
	}
	if m := p.Finish(); !m.IsZero() {
		t.Errorf("Finish emitted %+v", m)
	}

	// Every split of a marker-dense output at every byte agrees with
	// Extract, with text alone and with the real vocabulary's tokens,
	// which cut ◁ after its second byte.
	out := "前" + open + "思考◁/think▷答◀" + open + "再◁/think▷"
	want := reasoning.Message{Reasoning: "思考再", Content: "前答◀"}
	q, _ := reasoning.New("kimi", nil)
	if diff := cmp.Diff(want, q.Extract(out)); diff != "" {
		t.Fatalf("Extract mismatch (-want +got):\n%s", diff)
	}
	for _, ch := range append(conformance.TextChunkings(out, 1), conformance.TwoWaySplits(out)...) {
		r, _ := reasoning.New("kimi", nil)
		if diff := cmp.Diff(want, reasoning.Collect(r, ch.Deltas)); diff != "" {
			t.Errorf("chunking %s mismatch (-want +got):\n%s", ch.Name, diff)
		}
	}
	tok := testvocab.Load(t, "kimi-k2")
	tcs, err := conformance.TokenChunkings(tok, out)
	if err != nil {
		t.Fatal(err)
	}
	split := false
	for _, d := range tcs[0].Deltas {
		split = split || d.Text == "\xe2\x97"
	}
	if !split {
		t.Error("the kimi-k2 vocabulary no longer cuts ◁ inside its encoding; the real-token case lost its point")
	}
	for _, ch := range tcs {
		r, _ := reasoning.New("kimi", tok)
		if diff := cmp.Diff(want, reasoning.Collect(r, ch.Deltas)); diff != "" {
			t.Errorf("chunking %s mismatch (-want +got):\n%s", ch.Name, diff)
		}
	}
}

// kimiK3Toy is the upstream test tokenizer of Kimi K3: the think opener is
// [1, 2, 3] and the closer [4, 2, 3] (they share their last two tokens).
func kimiK3Toy(t *testing.T) *tokenizer.Vocab {
	t.Helper()
	tok, err := tokenizer.NewVocab(map[string]int{"<|open|>": 1, "think": 2, "<|sep|>": 3, "<|close|>": 4})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestKimiK3ReasoningEndMatchesReference ports vLLM's randomised check
// (test_reasoning_end_matches_reference_over_marker_dense_sequences): on
// sequences over the markers' four tokens, where markers collide and
// overlap constantly, the end check agrees with "the newest think marker is
// a closer", and the per-step check agrees with it whenever reasoning was
// still open before the step.
func TestKimiK3ReasoningEndMatchesReference(t *testing.T) {
	tok := kimiK3Toy(t)
	p, err := reasoning.New("kimi_k3", tok)
	if err != nil {
		t.Fatal(err)
	}
	open, close := []int{1, 2, 3}, []int{4, 2, 3}
	last := func(ids, seq []int) int {
		for i := len(ids) - len(seq); i >= 0; i-- {
			if slices.Equal(ids[i:i+len(seq)], seq) {
				return i
			}
		}
		return -1
	}
	reference := func(ids []int) bool {
		c, o := last(ids, close), last(ids, open)
		if o < 0 {
			return c >= 0
		}
		return c > o
	}
	for seed := range uint64(24) {
		r := rand.New(rand.NewPCG(seed, 0))
		for range 200 {
			head := make([]int, r.IntN(14))
			for i := range head {
				head[i] = 1 + r.IntN(4)
			}
			delta := make([]int, 1+r.IntN(4))
			for i := range delta {
				delta[i] = 1 + r.IntN(4)
			}
			full := slices.Concat(head, delta)
			if got, want := p.IsReasoningEnd(full), reference(full); got != want {
				t.Fatalf("seed %d: IsReasoningEnd(%v) = %v, want %v", seed, full, got, want)
			}
			if reference(head) {
				continue // the engine asks the per-step check only while reasoning is open
			}
			q, _ := reasoning.New("kimi_k3", tok) // one parser per sequence: the check may remember it
			if got, want := q.IsReasoningEndStreaming(full, delta), reference(full); got != want {
				t.Fatalf("seed %d: IsReasoningEndStreaming(%v, %v) = %v, want %v", seed, full, delta, got, want)
			}
		}
	}
}

// TestKimiK3TokenStream streams a K3 response one token per delta with the
// upstream test vocabulary's IDs, where each think marker is three tokens:
// the split equals Extract's, and the per-step end check first reports true
// at the closer's last token.
func TestKimiK3TokenStream(t *testing.T) {
	tok := kimiK3Toy(t)
	const out = "<|open|>think<|sep|>221 = 13 × 17.<|close|>think<|sep|><|open|>response<|sep|>No, 221 = 13 × 17.<|close|>response<|sep|><|close|>message<|sep|>"
	want := reasoning.Message{Reasoning: "221 = 13 × 17.", Content: "No, 221 = 13 × 17."}
	ids := tok.Encode(out)
	p, _ := reasoning.New("kimi_k3", tok)
	if diff := cmp.Diff(want, reasoning.Collect(p, perToken(tok, ids))); diff != "" {
		t.Errorf("Collect per token mismatch (-want +got):\n%s", diff)
	}
	closeEnd := len(tok.Encode("<|open|>think<|sep|>221 = 13 × 17.<|close|>think<|sep|>")) - 1
	if i := firstEnd(t, "kimi_k3", tok, ids); i != closeEnd {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want %d (the closer's <|sep|>)", i, closeEnd)
	}
	if got := tok.Decode(p.ExtractContentIDs(ids)); got != want.Content {
		t.Errorf("ExtractContentIDs decodes to %q, want %q", got, want.Content)
	}
	if got, want := p.CountReasoningTokens(ids), len(tok.Encode(want.Reasoning)); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}
}

// TestK2HorizonEffort checks that reasoning_effort picks the markers and
// that an effort K2 Horizon does not know is an error at New, naming the
// parser and the value.
func TestK2HorizonEffort(t *testing.T) {
	for effort, out := range map[string]string{
		"high":   "<ifm|think>p</ifm|think>a",
		"medium": "<ifm|think_fast>p</ifm|think_fast>a",
		"low":    "<ifm|think_faster>p</ifm|think_faster>a",
	} {
		p, err := reasoning.New("k2_horizon", nil, reasoning.WithChatTemplateKwargs(map[string]any{"reasoning_effort": effort}))
		if err != nil {
			t.Fatalf("effort %q: %v", effort, err)
		}
		if diff := cmp.Diff(reasoning.Message{Reasoning: "p", Content: "a"}, p.Extract(out)); diff != "" {
			t.Errorf("effort %q: Extract mismatch (-want +got):\n%s", effort, diff)
		}
	}
	// vLLM test_invalid_reasoning_effort_raises: "none" and "unknown" fail;
	// None is absent here (spec policy 6) and gives the default.
	for _, effort := range []any{"none", "unknown", "", 3, true} {
		_, err := reasoning.New("k2_horizon", nil, reasoning.WithChatTemplateKwargs(map[string]any{"reasoning_effort": effort}))
		if err == nil {
			t.Errorf("effort %#v: New succeeded, want an error", effort)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, `parser "k2_horizon"`) || !strings.Contains(msg, "unsupported reasoning_effort") {
			t.Errorf("effort %#v: error %q does not name the parser and the setting", effort, msg)
		}
		if errors.Is(err, reasoning.ErrUnknownParser) {
			t.Errorf("effort %#v: error %q reads as an unknown parser", effort, err)
		}
		if !errors.Is(err, reasoning.ErrUnsupportedConfig) {
			t.Errorf("effort %#v: error %q does not wrap reasoning.ErrUnsupportedConfig", effort, err)
		}
	}
	if _, err := reasoning.New("k2_horizon", nil, reasoning.WithChatTemplateKwargs(map[string]any{"reasoning_effort": nil})); err != nil {
		t.Errorf("effort nil: %v", err)
	}
}

// TestK2HorizonInvariantsPerEffort is the registry-wide invariant check
// (which runs the default effort) for the other two efforts: on a corpus of
// every effort's markers, Collect equals Extract under every chunking, and
// the split conserves the output.
func TestK2HorizonInvariantsPerEffort(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	e, ok := catalog.Lookup("k2_horizon")
	if !ok {
		t.Fatal("k2_horizon has no catalog entry")
	}
	markers := []string{"<ifm|think>", "</ifm|think>", "<ifm|think_fast>", "</ifm|think_fast>", "<ifm|think_faster>", "</ifm|think_faster>", "<ifm|tool_calls>"}
	for _, effort := range []string{"medium", "low"} {
		t.Run(effort, func(t *testing.T) {
			opts := conformance.Options{Kwargs: map[string]any{"reasoning_effort": effort}}
			ent := e
			ent.Markers = markers
			for i, out := range conformance.Corpus(markers, uint64(len(effort))) {
				p, err := reasoning.New("k2_horizon", nil, reasoning.WithChatTemplateKwargs(opts.Kwargs))
				if err != nil {
					t.Fatal(err)
				}
				want := p.Extract(out)
				if err := conformance.Conserves(out, want, nil, ent); err != nil {
					t.Fatalf("output %q: %v", out, err)
				}
				if i%4 == 0 || strings.Contains(out, "fast") {
					conformance.CheckCase(t, "k2_horizon", conformance.Case{Name: out, Options: opts, Output: out, Want: want})
				}
			}
		})
	}
}
