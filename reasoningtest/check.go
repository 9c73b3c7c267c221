package reasoningtest

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Check checks the parsers f builds against every guarantee the reasoning
// package documents, on c's outputs and cases and on outputs generated from
// c's markers, under each of c's settings:
//
//   - Nothing lost or invented: reasoning, content and segments hold every
//     byte of the output, in order, but the markers and what c says the
//     family drops.
//   - Streaming equals Extract: for the text chunkings of Chunkings,
//     every two-way split of a case, and, with token IDs, the chunkings of
//     TokenChunkings (with c.Tokenizer when given, and with ToyVocab of the
//     markers), Collect returns what Extract returns on text alone.
//   - Finish returns what was held back; a delta after Finish, or a second
//     Finish, emits nothing.
//   - IDs beat text: with every marker one token, the same characters typed
//     as ordinary tokens are text, lost nowhere; and wherever a marker's
//     own token came, counted or not, its characters typed later are text
//     too (with ToyVocab, and with c.Tokenizer's special tokens).
//   - The ID methods agree with each other and with the text split, with
//     single-token and multi-token markers, and a reasoning.Gate opens
//     when IsReasoningEnd says and counts as CountReasoningTokens does. A
//     Gate never constrains while the split is in reasoning, and once a
//     thinking budget makes it force the end marker the split has left
//     reasoning.
//   - Prompts: a prompt given as text and as IDs, short or after a long
//     stretch of text, starts a response in the same place; the prompt's
//     last marker decides, wherever it is; where the split starts in
//     reasoning, neither IsReasoningEnd of the prompt's IDs nor a Gate
//     says it has ended, whatever decided it (the prompt, the thinking
//     switch, WithForceReasoning).
//   - Inside c.ToolBlocks no marker but the block's closer counts, for the
//     split and the ID methods alike.
//   - Bad input is not a crash: invalid UTF-8, stray and repeated markers,
//     empty deltas and IDs no vocabulary has give results, not panics.
//
// Check returns nil, or an error that lists each guarantee broken, once,
// with the smallest failing output and chunking it found, quoted so that
// they reproduce.
func Check(f reasoning.Factory, c Config) error {
	k, err := newKit(f, c)
	if err != nil {
		return err
	}
	k.checkAll()
	return k.result()
}

// Test runs Check and reports its error on t.
func Test(t testing.TB, f reasoning.Factory, c Config) {
	t.Helper()
	if err := Check(f, c); err != nil {
		t.Error(err)
	}
}

// CheckOutput checks one output under one setting, cut at random by seed
// (streamed as text to a parser built without a tokenizer and to one built
// with ToyVocab) and into toy tokens: the checks of Check that concern one
// output, for a fuzz target. Outputs longer than 1 KiB skip the ID
// methods.
func CheckOutput(f reasoning.Factory, c Config, s Setting, output string, seed uint64) error {
	k, err := newKit(f, c)
	if err != nil {
		return err
	}
	if _, err := k.parser(s, k.c.TextTokenizer); err != nil {
		return fmt.Errorf("reasoningtest: setting %q: %w", s.Name, err)
	}
	if _, err := k.parser(s, k.toy); err != nil {
		return fmt.Errorf("reasoningtest: setting %q with a tokenizer: %w", s.Name, err)
	}
	random := chunker{fmt.Sprintf("random(seed %d)", seed), func(out string) ([]reasoning.Delta, bool) { return Random(out, seed), true }}
	k.sweepOutput(s, output, []chunker{random}, len(output) <= maxIDCheck)
	// Deltas without IDs reach a parser built with a tokenizer too.
	k.probe(probe{check: "streaming text to a parser with a tokenizer equals Extract", setting: s.Name, chunker: random, run: k.streams(s, k.extractor(s), k.toy)}, output)
	return k.result()
}

// maxIDCheck is the longest output whose ID methods CheckOutput checks:
// a streaming end check that rereads the prefix per delta (allowed where a
// marker is several tokens) makes a longer one outlast a fuzzer's timeout.
const maxIDCheck = 1 << 10

// CheckIDs checks the ID methods on ids under setting s: that
// IsReasoningEndStreaming, fed ids one token and two tokens at a time,
// agrees with itself and with IsReasoningEnd at every prefix where an answer
// can change. tok spells the IDs; the parsers get it too (through c.Adapt,
// when set).
func CheckIDs(f reasoning.Factory, c Config, s Setting, tok tokenizer.Tokenizer, ids []int) error {
	k, err := newKit(f, c)
	if err != nil {
		return err
	}
	fresh := func() (reasoning.Parser, error) { return k.parser(s, tok) }
	k.once("the streaming end check agrees with IsReasoningEnd", s.Name, func() error {
		p, err := fresh()
		if err != nil {
			return err
		}
		return streamingEnd(fresh, p, tok, ids, k.markers)
	})
	return k.result()
}

// kit is one run of the checks over one family.
type kit struct {
	reg     *reasoning.Registry
	c       Config
	markers []string         // Markers, then Boundaries
	toy     *tokenizer.Vocab // every marker one token
	bytes   *tokenizer.Vocab // only the boundaries are tokens: markers are several
	fails   []*failure
	failed  map[string]bool // checks already failed, reported once
}

const underTest = "family-under-test"

func newKit(f reasoning.Factory, c Config) (*kit, error) {
	if f == nil {
		return nil, errors.New("reasoningtest: nil Factory")
	}
	reg := reasoning.NewRegistry()
	if err := reg.Register(underTest, f); err != nil {
		return nil, fmt.Errorf("reasoningtest: %w", err)
	}
	markers := slices.Concat(c.Markers, c.Boundaries)
	return &kit{reg: reg, c: c, markers: markers, toy: ToyVocab(markers), bytes: ToyVocab(c.Boundaries), failed: map[string]bool{}}, nil
}

// parser builds a parser for setting s with tok, the way reasoning.New
// builds one; a prompt's IDs come from tok.
func (k *kit) parser(s Setting, tok tokenizer.Tokenizer) (reasoning.Parser, error) {
	opts := slices.Clone(s.Options)
	if s.Prompt != "" {
		var ids []int
		if tok != nil {
			ids = tok.Encode(s.Prompt)
		}
		opts = append(opts, reasoning.WithPrompt(s.Prompt, ids))
	}
	if k.c.Adapt != nil {
		tok = k.c.Adapt(tok)
	}
	return k.reg.New(underTest, tok, opts...)
}

func (k *kit) settings() []Setting {
	if k.c.Settings != nil {
		return k.c.Settings
	}
	return DefaultSettings(k.markers)
}

func (k *kit) checkAll() {
	outputs := slices.Clone(k.c.Outputs)
	samples := len(outputs)
	if !k.c.NoCorpus {
		outputs = append(outputs, Corpus(k.markers, k.c.Seed)...)
	}
	settings := k.settings()
	if !k.c.OnlyTokenizer {
		for _, s := range settings {
			if !k.builds(s, k.c.TextTokenizer, k.toy, k.bytes) {
				continue
			}
			for i, out := range outputs {
				k.sweepOutput(s, out, textChunkers(k.c.Seed+8*uint64(i)), true)
				if i%3 == 0 {
					k.probe(probe{check: "a Gate agrees with IsReasoningEnd and CountReasoningTokens", setting: s.Name, run: k.gate(s)}, out)
					k.agreeOn(s, out)
				}
			}
			if s.Prompt == "" {
				k.once("prompt text and IDs give one start, the ID methods agree", s.Name, func() error { return k.promptAgree(s, k.toy, len(s.Options) == 0) })
			}
		}
		k.once("ID methods take any IDs", "", k.oddIDs)
	}
	if tok := k.c.Tokenizer; tok != nil {
		k.sweepTokenizer(settings, outputs, samples)
		for _, s := range settings {
			if s.Prompt == "" && k.builds(s, tok) {
				k.once("prompt text and IDs give one start, the ID methods agree (Config.Tokenizer)", s.Name, func() error { return k.promptAgree(s, tok, len(s.Options) == 0) })
			}
		}
	}
	for _, kc := range k.c.Cases {
		k.checkCase(kc)
	}
}

// agreeOn checks that IDs, prompts and the text split agree on out under s
// (agree.go).
func (k *kit) agreeOn(s Setting, out string) {
	k.probe(probe{check: "IDs beat text wherever a marker's token comes", setting: s.Name, run: k.idsBeatTextAnywhere(s, k.toy)}, out)
	k.probe(probe{check: "a Gate never constrains while the split is in reasoning", setting: s.Name, run: k.gateAgrees(s, k.toy)}, out)
	if len(k.c.ToolBlocks) > 0 {
		k.probe(probe{check: "markers inside tool-call blocks do not count", setting: s.Name, run: k.toolBlocksInert(s)}, out)
	}
}

// builds reports whether s builds with every tokenizer in toks, recording a
// failure when not.
func (k *kit) builds(s Setting, toks ...tokenizer.Tokenizer) bool {
	for _, tok := range toks {
		if _, err := k.parser(s, tok); err != nil {
			k.record(&failure{check: "New", setting: s.Name, err: err})
			return false
		}
	}
	return true
}

// sweepOutput checks one output under s with the text chunkers given, the
// toy tokens and, if ids, the ID methods.
func (k *kit) sweepOutput(s Setting, out string, text []chunker, ids bool) {
	extract := k.extractor(s)
	k.probe(probe{check: "nothing lost or invented", setting: s.Name, run: k.conserves(extract)}, out)
	k.probe(probe{check: "Extract with token IDs equals Extract on text", setting: s.Name, run: k.extractWith(s, extract, k.toy)}, out)
	for _, ch := range text {
		k.probe(probe{check: "streaming equals Extract", setting: s.Name, chunker: ch, run: k.streams(s, extract, k.c.TextTokenizer)}, out)
	}
	if _, err := TokenChunkings(k.toy, out); err != nil {
		k.record(&failure{check: "ToyVocab decodes its own tokens", output: out, err: err})
	}
	for _, ch := range tokenChunkers(k.toy) {
		k.probe(probe{check: "streaming equals Extract", setting: s.Name, chunker: ch, run: k.streams(s, extract, k.toy)}, out)
	}
	typed := chunker{"markers typed as ordinary tokens", func(out string) ([]reasoning.Delta, bool) { return typedBytes(k.toy, out), true }}
	k.probe(probe{check: "IDs beat text", setting: s.Name, chunker: typed, run: k.idsBeatText(s, extract)}, out)
	if ids {
		k.probe(probe{check: "ID methods agree with the text split", setting: s.Name, run: k.idMethods(s, extract)}, out)
	}
}

// sweepTokenizer checks outputs with the real vocabulary: Extract with it,
// and its token chunkings, against text alone. Of the generated outputs
// (those from samples on) it takes a third: real encoding is slow, and the
// toy sweep has the rest. Where the vocabulary cannot produce an output's
// bytes (invalid UTF-8 its decoder replaces), the output its tokens decode
// to stands in.
func (k *kit) sweepTokenizer(settings []Setting, outputs []string, samples int) {
	tok := k.c.Tokenizer
	var outs []string
	for i, out := range outputs {
		if i >= samples && (i-samples)%3 != 0 {
			continue
		}
		if _, err := TokenChunkings(tok, out); err != nil {
			var b strings.Builder
			for _, id := range tok.Encode(out) {
				b.WriteString(tok.Decode([]int{id}))
			}
			out = b.String()
			if _, err := TokenChunkings(tok, out); err != nil {
				k.record(&failure{check: "Config.Tokenizer decodes its own tokens", output: out, err: err})
				return
			}
		}
		outs = append(outs, out)
	}
	for _, s := range settings {
		if !k.builds(s, k.c.TextTokenizer, tok) {
			continue
		}
		for i, out := range outs {
			extract := k.extractor(s)
			if i < samples || i%9 == 0 {
				k.probe(probe{check: "IDs beat text wherever a marker's token comes (Config.Tokenizer)", setting: s.Name, run: k.idsBeatTextAnywhere(s, tok)}, out)
				k.probe(probe{check: "a Gate never constrains while the split is in reasoning (Config.Tokenizer)", setting: s.Name, run: k.gateAgrees(s, tok)}, out)
			}
			k.probe(probe{check: "Extract with Config.Tokenizer equals Extract on text", setting: s.Name, run: k.extractWith(s, extract, tok)}, out)
			for _, ch := range tokenChunkers(tok) {
				k.probe(probe{check: "streaming Config.Tokenizer's tokens equals Extract", setting: s.Name, chunker: ch, run: k.streams(s, extract, tok)}, out)
			}
		}
	}
}

// checkCase checks a case: its segments, Extract, then Collect under every
// text chunking, every two-way split (for an output up to 512 bytes), its
// own deltas and the token chunkings of TextTokenizer and Tokenizer.
func (k *kit) checkCase(kc Case) {
	s, out := kc.Setting, kc.Output
	name := func(what string) string { return fmt.Sprintf("case %q: %s", kc.Name, what) }
	text := k.c.TextTokenizer
	var wantSegs []reasoning.Segment
	err := safely(func() error {
		p, err := k.parser(s, text)
		if err != nil {
			return err
		}
		wantSegs = segmentsOf(p, out)
		return nil
	})
	if err != nil {
		k.record(&failure{check: name("New and ExtractSegments"), setting: s.Name, output: out, err: err})
		return
	}
	if kc.WantSegments != nil && !reflect.DeepEqual(kc.WantSegments, wantSegs) {
		k.record(&failure{check: name("ExtractSegments"), setting: s.Name, output: out,
			err: fmt.Errorf("segments %+v, want %+v", wantSegs, kc.WantSegments)})
	}
	extract := func(tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
		return func(out string, _ []reasoning.Delta) error {
			p, err := k.parser(s, tok)
			if err != nil {
				return err
			}
			for range 2 { // Extract leaves the streaming state alone: a second call agrees
				if got := p.Extract(out); got != kc.Want {
					return fmt.Errorf("split by Extract %s, want %s", show(got), show(kc.Want))
				}
			}
			return nil
		}
	}
	k.probe(probe{check: name("Extract"), setting: s.Name, fixed: true, run: extract(text)}, out)
	want := kc.Want
	if kc.StreamWant != nil {
		want = *kc.StreamWant
	}
	stream := func(tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
		return func(_ string, ds []reasoning.Delta) error { return k.streamsTo(s, tok, ds, want, wantSegs) }
	}
	chunkers := textChunkers(seedOf(kc.Name))
	if len(out) <= 512 {
		for _, ch := range TwoWaySplits(out) {
			chunkers = append(chunkers, fixedChunker(ch))
		}
	}
	if kc.Deltas != nil {
		chunkers = append(chunkers, fixedChunker(Chunking{"the case's deltas", texts(kc.Deltas...)}))
	}
	for _, ch := range chunkers {
		k.probe(probe{check: name("streaming equals Extract"), setting: s.Name, fixed: true, chunker: ch, run: stream(text)}, out)
	}
	if text != nil {
		k.tokenCase(name, s, out, text, stream(text))
	}
	if tok := k.c.Tokenizer; tok != nil {
		k.probe(probe{check: name("Extract with Config.Tokenizer"), setting: s.Name, fixed: true, run: extract(tok)}, out)
		k.tokenCase(name, s, out, tok, stream(tok))
	}
}

func (k *kit) tokenCase(name func(string) string, s Setting, out string, tok tokenizer.Tokenizer, run func(string, []reasoning.Delta) error) {
	if _, err := TokenChunkings(tok, out); err != nil {
		k.record(&failure{check: name("tokens"), setting: s.Name, output: out, err: err})
		return
	}
	for _, ch := range tokenChunkers(tok) {
		k.probe(probe{check: name("streaming tokens equals Extract"), setting: s.Name, fixed: true, chunker: ch, run: run}, out)
	}
}

func fixedChunker(ch Chunking) chunker {
	return chunker{ch.Name, func(string) ([]reasoning.Delta, bool) { return ch.Deltas, true }}
}

// seedOf derives a chunking seed from a name, so that a failure repeats.
func seedOf(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}

// once runs a check that takes no output, recording its failure.
func (k *kit) once(check, setting string, run func() error) {
	if err := safely(run); err != nil {
		k.record(&failure{check: check, setting: setting, err: err})
	}
}

func (k *kit) record(f *failure) {
	k.failed[f.check] = true
	k.fails = append(k.fails, f)
}

func (k *kit) result() error {
	if len(k.fails) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reasoningtest: %d %s failed:", len(k.fails), plural(len(k.fails), "check", "checks"))
	for _, f := range k.fails {
		b.WriteString("\n")
		b.WriteString(f.String())
	}
	return errors.New(b.String())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// A failure is one broken guarantee and the smallest input found to break it.
type failure struct {
	check, setting, chunking string
	output                   string
	deltas                   []reasoning.Delta
	from                     int // the length of the output first found, when it was shrunk
	err                      error
}

func (f *failure) String() string {
	var b strings.Builder
	b.WriteString(f.check)
	if f.setting != "" {
		fmt.Fprintf(&b, ", setting %q", f.setting)
	}
	if f.chunking != "" {
		fmt.Fprintf(&b, ", chunking %s", f.chunking)
	}
	fmt.Fprintf(&b, ": %v", f.err)
	if f.output != "" || f.deltas != nil {
		fmt.Fprintf(&b, "\n\toutput %q", f.output)
		if f.from > len(f.output) {
			fmt.Fprintf(&b, " (shrunk from %d bytes)", f.from)
		}
	}
	if f.chunking != "" {
		fmt.Fprintf(&b, "\n\tdeltas %s", quoted(f.deltas))
	}
	var p *panicError
	if errors.As(f.err, &p) {
		fmt.Fprintf(&b, "\n\t%s", strings.ReplaceAll(strings.TrimSpace(p.stack), "\n", "\n\t"))
	}
	return b.String()
}

// A panicError is a panic turned into a failure.
type panicError struct {
	value any
	stack string
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// safely runs f, turning a panic into an error.
func safely(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{v, trimStack(string(debug.Stack()))}
		}
	}()
	return f()
}

// trimStack keeps the frames of a panic's stack from the panic to the
// kit's own, at most a dozen lines of them.
func trimStack(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			lines = lines[i:]
			break
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, kitFrames) {
			lines = lines[:i]
			break
		}
	}
	return strings.Join(lines[:min(len(lines), 12)], "\n")
}

// kitFrames begins the stack frames of this package's functions.
const kitFrames = "github.com/reasoning-go/reasoning/reasoningtest."

func show(m reasoning.Message) string {
	return fmt.Sprintf("{Reasoning: %q, Content: %q}", m.Reasoning, m.Content)
}
