package parsers_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestHunyuanRealVocab streams every hunyuan_a13b case one real Hunyuan-A13B
// token per delta, with the tokens' IDs, where every marker is several
// ordinary tokens.
func TestHunyuanRealVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	conformance.RunVocab(t, casesDir+"/hunyuan_a13b.json", "hunyuan-a13b")
}

// TestHunyuanMarkersFromVocab checks that the markers resolve, in the real
// vocabulary, to the token sequences vLLM hard-codes.
func TestHunyuanMarkersFromVocab(t *testing.T) {
	tok := testvocab.Load(t, "hunyuan-a13b")
	for _, tt := range []struct {
		text string
		ids  []int
	}{
		{"<think>\n", []int{14023, 771, 397}},
		{"<think>\n\n", []int{14023, 771, 1363}},
		{"\n</think>\n<answer>\n", []int{198, 524, 27963, 397, 27, 9399, 397}},
		{"</think>\n<answer>\n", []int{524, 27963, 397, 27, 9399, 397}},
		{"\n</answer>", []int{198, 524, 9399, 29}},
	} {
		d, err := tokenizer.Resolve(tok, tt.text)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.ids, d.IDs); diff != "" {
			t.Errorf("%q resolves to other IDs (-vLLM +ours):\n%s", tt.text, diff)
		}
	}
	if _, err := reasoning.New("hunyuan_a13b", tok); err != nil {
		t.Fatal(err)
	}
}

// hunyuanSample is a Hunyuan-A13B output with a think block, an answer and
// text after it.
const (
	hunyuanThought = "The user wants 17 × 3. 17 × 3 = 51.\nCheck: 51 / 3 = 17."
	hunyuanAnswer  = "17 × 3 = **51**."
	hunyuanSample  = "<think>\n" + hunyuanThought + "\n</think>\n<answer>\n" + hunyuanAnswer + "\n</answer>"
)

// TestHunyuanMultiTokenSteps is upstream's
// test_streaming_multi_token_delta_matches_single_token_feed on real IDs:
// deltas of 1, 2, 3, 7 and 100 tokens (speculative decoding) give the same
// split, and so does every other slicing in between.
func TestHunyuanMultiTokenSteps(t *testing.T) {
	tok := testvocab.Load(t, "hunyuan-a13b")
	for _, out := range []string{
		"<think>\n reasoning here\n</think>\n<answer>\n the answer\n</answer>",
		hunyuanSample,
		"<think>\n\n</think>\n<answer>\nquick\n</answer>",
	} {
		ids := tok.Encode(out)
		p, _ := reasoning.New("hunyuan_a13b", tok)
		want := p.Extract(out)
		for _, step := range []int{1, 2, 3, 4, 5, 6, 7, 8, 100} {
			var deltas []reasoning.Delta
			for i := 0; i < len(ids); i += step {
				group := ids[i:min(len(ids), i+step)]
				deltas = append(deltas, reasoning.Delta{Text: tok.Decode(group), IDs: group})
			}
			q, _ := reasoning.New("hunyuan_a13b", tok)
			if diff := cmp.Diff(want, reasoning.Collect(q, deltas)); diff != "" {
				t.Errorf("%q in steps of %d mismatch (-one pass +steps):\n%s", out, step, diff)
			}
		}
	}
}

// TestHunyuanRealIDs checks the ID-level methods on real Hunyuan-A13B IDs:
// vLLM's answer from the streaming instance's state, ours from the IDs.
func TestHunyuanRealIDs(t *testing.T) {
	tok := testvocab.Load(t, "hunyuan-a13b")
	p, err := reasoning.New("hunyuan_a13b", tok)
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode(hunyuanSample)
	// Reasoning ends with </think> (spec vllm-main §1.4 H4), whether
	// <answer> follows or not: the token that completes it is the last of
	// the reasoning's "\n</think>".
	closed := "<think>\n" + hunyuanThought + "\n</think>"
	closedFrom := len(tok.Encode(closed))
	if tok.Decode(ids[:closedFrom]) != closed && tok.Decode(ids[:closedFrom]) != closed+"\n" {
		t.Fatal("the prefix does not tokenize alone; pick another sample")
	}
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd = false after the answer began")
	}
	if p.IsReasoningEnd(ids[:closedFrom-1]) {
		t.Error("IsReasoningEnd = true before </think> is complete")
	}
	first := -1
	for i := 1; i <= len(ids); i++ {
		if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
			first = i - 1
			break
		}
	}
	if first != closedFrom-1 {
		t.Errorf("IsReasoningEndStreaming first true at token %d (%q), want %d", first, tok.Decode(ids[max(first, 0):max(first, 0)+1]), closedFrom-1)
	}
	answerAt := strings.Index(hunyuanSample, hunyuanAnswer)
	if diff := cmp.Diff(overlapping(tok, ids, answerAt, answerAt+len(hunyuanAnswer)), p.ExtractContentIDs(ids)); diff != "" {
		t.Errorf("ExtractContentIDs mismatch (-the answer's tokens +got):\n%s", diff)
	}
	thoughtAt := strings.Index(hunyuanSample, hunyuanThought)
	if got, want := p.CountReasoningTokens(ids), len(overlapping(tok, ids, thoughtAt, thoughtAt+len(hunyuanThought))); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d, the tokens of the thought", got, want)
	}

	// Prompt and output together: the thinking-disabled prefill after the
	// user's turn, then the answer.
	prompt := "<|startoftext|>What is 17 × 3?<|extra_0|><think>\n\n</think>\n"
	all := append(tok.Encode(prompt), tok.Encode("<answer>\n51\n</answer>")...)
	if !p.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd(prompt) = false: the prompt closed the block")
	}
	if !p.IsReasoningEnd(all) {
		t.Error("IsReasoningEnd(prompt + answer) = false")
	}
	// A parser told the prompt starts the response in the answer.
	q, err := reasoning.New("hunyuan_a13b", tok, reasoning.WithPrompt(prompt, tok.Encode(prompt)))
	if err != nil {
		t.Fatal(err)
	}
	out := "<answer>\n51\n</answer>"
	if diff := cmp.Diff(reasoning.Message{Content: "51"}, reasoning.Collect(q, oneTokenDeltas(tok, tok.Encode(out)))); diff != "" {
		t.Errorf("Collect after the thinking-disabled prompt mismatch (-want +got):\n%s", diff)
	}
	if !q.IsReasoningEnd(nil) {
		t.Error("IsReasoningEnd = false after a prompt that closed the block")
	}
}

// TestHYV4MultiTokenDeltas is test_hy_v4_reasoning_parser.py with its IDs: a
// delta may carry <think> with more text, or its ID without its text.
func TestHYV4MultiTokenDeltas(t *testing.T) {
	v, err := tokenizer.NewVocab(map[string]int{"<think>": 1, "</think>": 2, "abc": 3, "def": 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, deltas := range map[string][]reasoning.Delta{
		"start_marker_with_reasoning":       {{Text: "<think>abc", IDs: []int{1, 3}}, {Text: "</think>", IDs: []int{2}}, {Text: "def", IDs: []int{4}}},
		"start_and_end_marker_in_one_delta": {{Text: "<think>abc</think>def", IDs: []int{1, 3, 2, 4}}},
		"start_marker_id_without_text":      {{Text: "abc</think>def", IDs: []int{1, 3, 2, 4}}},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := reasoning.New("hy_v4", v)
			if err != nil {
				t.Fatal(err)
			}
			want := reasoning.Message{Reasoning: "abc", Content: "def"}
			full := ""
			for _, d := range deltas {
				full += d.Text
			}
			if diff := cmp.Diff(want, p.Extract(full)); diff != "" {
				t.Errorf("Extract mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
				t.Errorf("Collect mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// sizedVocab is a Vocab that tells its size, as the loaded tokenizers do, so
// that hy_v3 and hy_v4 can look for the structural tokens' suffix.
type sizedVocab struct {
	*tokenizer.Vocab
}

func (v sizedVocab) VocabSize() int { return v.Base() + 256 }

// TestHYTokenSuffix checks that Hy V4 takes its markers' suffix from the
// vocabulary's structural tokens and Hy V3 from the tokenizer metadata's
// token_suffix, and that the unsuffixed tags are then text.
func TestHYTokenSuffix(t *testing.T) {
	v, err := tokenizer.NewVocab(map[string]int{
		"<eos:6124c78e>": 3, "<think:6124c78e>": 5, "</think:6124c78e>": 6, "<tool_calls:6124c78e>": 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	const out = "a</think>b<think:6124c78e>c</think:6124c78e>d"
	suffixed := reasoning.Message{Reasoning: "a</think>bc", Content: "d"}
	plain := reasoning.Message{Reasoning: "a", Content: "b<think:6124c78e>c</think:6124c78e>d"}
	high := reasoning.WithChatTemplateKwargs(map[string]any{"reasoning_effort": "high"})
	for _, tt := range []struct {
		name string
		tok  tokenizer.Tokenizer
		want reasoning.Message
	}{
		{"hy_v4", sizedVocab{v}, suffixed},
		{"hy_v4", v, plain}, // cannot list its vocabulary
		{"hy_v3", tokenizer.WithConfig(v, map[string]any{"token_suffix": ":6124c78e"}), suffixed},
		{"hy_v3", sizedVocab{v}, plain}, // vLLM's hy_v3 reads token_suffix only
	} {
		p, err := reasoning.New(tt.name, tt.tok, high)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, p.Extract(out)); diff != "" {
			t.Errorf("%s with %T: Extract mismatch (-want +got):\n%s", tt.name, tt.tok, diff)
		}
		if tt.want != suffixed {
			continue
		}
		ids := tt.tok.Encode(out)
		if !p.IsReasoningEnd(ids) {
			t.Errorf("%s: IsReasoningEnd = false after </think:6124c78e>", tt.name)
		}
		if got := tt.tok.Decode(p.ExtractContentIDs(ids)); got != "d" {
			t.Errorf("%s: ExtractContentIDs decodes to %q, want %q", tt.name, got, "d")
		}
	}
	// A vocabulary with plain <think> keeps plain markers.
	pv, _ := tokenizer.NewVocab(map[string]int{"<think>": 1, "</think>": 2, "<think:x>": 3})
	p, _ := reasoning.New("hy_v4", sizedVocab{pv})
	if diff := cmp.Diff(reasoning.Message{Reasoning: "a", Content: "b"}, p.Extract("a</think>b")); diff != "" {
		t.Errorf("plain vocabulary: Extract mismatch (-want +got):\n%s", diff)
	}
}

// TestHYV3KwargsUntouched is upstream's
// test_constructor_does_not_mutate_shared_chat_template_kwargs: one kwargs
// map serves two parsers and is not changed.
func TestHYV3KwargsUntouched(t *testing.T) {
	kw := map[string]any{"reasoning_effort": "low"}
	before := maps.Clone(kw)
	for range 2 {
		p, err := reasoning.New("hy_v3", nil, reasoning.WithChatTemplateKwargs(kw))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(reasoning.Message{Reasoning: "r", Content: "c"}, p.Extract("r</think>c")); diff != "" {
			t.Errorf("low effort: Extract mismatch (-want +got):\n%s", diff)
		}
	}
	if diff := cmp.Diff(before, kw); diff != "" {
		t.Errorf("kwargs changed (-before +after):\n%s", diff)
	}
}

// TestHunyuanSuffixScanCached checks that looking for the suffix in a real
// vocabulary without <think> costs one scan per tokenizer, not one per
// parser.
func TestHunyuanSuffixScanCached(t *testing.T) {
	tok := testvocab.Load(t, "hunyuan-a13b")
	if _, ok := tok.TokenID("<think>"); ok {
		t.Skip("<think> is one token here; no scan happens")
	}
	if _, err := reasoning.New("hy_v4", tok); err != nil { // the one scan
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(10, func() {
		if _, err := reasoning.New("hy_v4", tok); err != nil {
			t.Fatal(err)
		}
	})
	if n > 200 {
		t.Errorf("New(hy_v4) allocates %v times: the vocabulary is scanned again", n)
	}
}

// overlapping returns the IDs of the tokens whose decoded text overlaps the
// bytes [a, b) of the text of ids: a token belongs to every section its text
// falls in.
func overlapping(tok tokenizer.Tokenizer, ids []int, a, b int) []int {
	out := []int{}
	at := 0
	for _, id := range ids {
		n := len(tok.Decode([]int{id}))
		if at < b && at+n > a {
			out = append(out, id)
		}
		at += n
	}
	return out
}

// TestHunyuanAlias checks that SGLang's name reaches hunyuan_a13b.
func TestHunyuanAlias(t *testing.T) {
	if name, ok := reasoning.Default.Canonical("hunyuan"); !ok || name != "hunyuan_a13b" {
		t.Fatalf("Canonical(hunyuan) = %q, %v; want hunyuan_a13b", name, ok)
	}
	p, err := reasoning.New("Hunyuan", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := reasoning.Message{Reasoning: "r", Content: "c"}
	if diff := cmp.Diff(want, p.Extract("<think>\nr\n</think>\n<answer>\nc\n</answer>")); diff != "" {
		t.Errorf("Extract mismatch (-want +got):\n%s", diff)
	}
}
