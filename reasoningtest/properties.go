package reasoningtest

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The checks a probe runs. Each takes the output (and deltas) it is given
// and computes what it expects from them, so that shrink may change both.

// An extractor returns the split of an output with text alone under one
// setting, and its segments.
type extractor func(out string) (reasoning.Message, []reasoning.Segment, error)

// extractor returns the extractor of s. It remembers its last answer: the
// probes of one output ask for the same one many times.
func (k *kit) extractor(s Setting) extractor {
	var (
		last    *string
		m       reasoning.Message
		segs    []reasoning.Segment
		lastErr error
	)
	return func(out string) (reasoning.Message, []reasoning.Segment, error) {
		if last != nil && *last == out {
			return m, segs, lastErr
		}
		m, segs, lastErr = reasoning.Message{}, nil, nil
		err := safely(func() error {
			p, err := k.parser(s, k.c.TextTokenizer)
			if err != nil {
				return err
			}
			m, segs = p.Extract(out), segmentsOf(p, out)
			return nil
		})
		last, lastErr = &out, err // a panic stays a *panicError, with its stack
		return m, segs, lastErr
	}
}

func (k *kit) conserves(extract extractor) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		m, segs, err := extract(out)
		if err != nil {
			return err
		}
		return Conserves(out, m, segs, k.c)
	}
}

// extractWith: Extract with tok splits as Extract on text does.
func (k *kit) extractWith(s Setting, extract extractor, tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		want, _, err := extract(out)
		if err != nil {
			return err
		}
		p, err := k.parser(s, tok)
		if err != nil {
			return err
		}
		if got := p.Extract(out); got != want {
			return fmt.Errorf("with token IDs Extract = %s, on text %s", show(got), show(want))
		}
		return nil
	}
}

// streams: Collect with a parser built with tok gives what Extract gives on
// text alone.
func (k *kit) streams(s Setting, extract extractor, tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
	return func(out string, ds []reasoning.Delta) error {
		want, wantSegs, err := extract(out)
		if err != nil {
			return err
		}
		return k.streamsTo(s, tok, ds, want, wantSegs)
	}
}

// streamsTo streams ds through a fresh parser built with tok and compares
// what it emitted with want and wantSegs; then a delta after Finish and a
// second Finish must emit nothing.
func (k *kit) streamsTo(s Setting, tok tokenizer.Tokenizer, ds []reasoning.Delta, want reasoning.Message, wantSegs []reasoning.Segment) error {
	p, err := k.parser(s, tok)
	if err != nil {
		return err
	}
	got, segs := Collect(p, ds)
	if got != want {
		return fmt.Errorf("Collect = %s, Extract = %s", show(got), show(want))
	}
	if !reflect.DeepEqual(segs, wantSegs) {
		return fmt.Errorf("streamed segments %+v, ExtractSegments %+v", segs, wantSegs)
	}
	if _, ok := p.(reasoning.Segmenter); ok {
		// Again with the segments taken only after Finish: a segment's
		// text then gathers across deltas, as a caller's that reads it at
		// the end does.
		q, err := k.parser(s, tok)
		if err != nil {
			return err
		}
		if got, segs := collect(q, ds, false); got != want || !reflect.DeepEqual(segs, wantSegs) {
			return fmt.Errorf("with segments taken after Finish only: Collect = %s, segments %+v; Extract = %s, ExtractSegments %+v", show(got), segs, show(want), wantSegs)
		}
	}
	for _, d := range []reasoning.Delta{{Text: "after the end"}, {Text: "after", IDs: []int{0}}, {}} {
		if m := p.ExtractStreaming(d); !m.IsZero() {
			return &otherCheck{finished, fmt.Errorf("a delta %q after Finish emitted %s", d.Text, show(m))}
		}
	}
	if m := p.Finish(); !m.IsZero() {
		return &otherCheck{finished, fmt.Errorf("a second Finish emitted %s", show(m))}
	}
	return nil
}

// finished names the guarantee about what follows Finish.
const finished = "after Finish nothing is emitted"

// idsBeatText streams out typed as ordinary tokens of the toy vocabulary,
// in which every marker is a token of its own: no marker counts, so no
// byte may be dropped as one (whitespace aside, where the family strips
// it), and the same IDs in one delta split the same way. For a family
// whose markers are text, the split must be the one of text alone.
func (k *kit) idsBeatText(s Setting, extract extractor) func(string, []reasoning.Delta) error {
	return func(out string, ds []reasoning.Delta) error {
		p, err := k.parser(s, k.toy)
		if err != nil {
			return err
		}
		got, segs := Collect(p, ds)
		if k.c.MarkersAreText {
			want, wantSegs, err := extract(out)
			if err != nil {
				return err
			}
			if got != want || !reflect.DeepEqual(segs, wantSegs) {
				return fmt.Errorf("typed as ordinary tokens, markers that are text split as %s, on text alone as %s", show(got), show(want))
			}
			return nil
		}
		plain := Config{StripsSpace: k.c.StripsSpace, ContentPrefix: k.c.ContentPrefix, DropsHeaders: k.c.DropsHeaders}
		if err := Conserves(out, got, segs, plain); err != nil {
			return fmt.Errorf("with its markers typed as ordinary tokens, %v", err)
		}
		var ids []int
		for _, d := range ds {
			ids = append(ids, d.IDs...)
		}
		q, err := k.parser(s, k.toy)
		if err != nil {
			return err
		}
		if one, _ := Collect(q, []reasoning.Delta{{Text: out, IDs: ids}}); one != got {
			return fmt.Errorf("typed as ordinary tokens, Collect = %s in these deltas, %s in one", show(got), show(one))
		}
		return nil
	}
}

// idMethods ties the ID-level methods to the text split. With one token
// per byte (k.bytes), reasoning tokens are reasoning bytes, so the count is
// the length of the split's reasoning; and the end check and the content
// IDs (decoded) agree between that vocabulary and the toy one, in which
// every marker is a single token. Boundaries are single tokens or nothing,
// so the two are compared only on outputs without them. Each method reads
// the IDs a bounded number of times.
func (k *kit) idMethods(s Setting, extract extractor) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		want, _, err := extract(out)
		if err != nil {
			return err
		}
		tok, bytes := k.toy, k.bytes
		p, err := k.parser(s, tok)
		if err != nil {
			return err
		}
		q, err := k.parser(s, bytes)
		if err != nil {
			return err
		}
		ids, bids := tok.Encode(out), bytes.Encode(out)
		if n := p.CountReasoningTokens(ids); n < 0 || n > len(ids) {
			return fmt.Errorf("CountReasoningTokens = %d of %d IDs", n, len(ids))
		}
		for _, i := range []int{0, 1, len(ids) / 2, len(ids) - 1, len(ids)} {
			if i >= 0 && i <= len(ids) {
				p.IsReasoningEndStreaming(ids[:i], ids[i:]) // a delta past the end
			}
		}
		if err := streamingEnd(func() (reasoning.Parser, error) { return k.parser(s, tok) }, p, tok, ids, k.markers); err != nil {
			return err
		}
		if err := streamingEnd(func() (reasoning.Parser, error) { return k.parser(s, bytes) }, q, bytes, bids, k.markers); err != nil {
			return fmt.Errorf("with markers of several tokens: %w", err)
		}
		for _, b := range k.c.Boundaries {
			if b != "" && strings.Contains(out, b) {
				return nil
			}
		}
		if swaps(s) && want.Content != "" && want.Reasoning == "" {
			return nil // the split may have made reasoning content, which the ID methods count as reasoning
		}
		if n := q.CountReasoningTokens(bids); n != len(want.Reasoning) {
			return fmt.Errorf("CountReasoningTokens over byte tokens = %d, want %d, the length of reasoning %q", n, len(want.Reasoning), want.Reasoning)
		}
		if a, b := p.IsReasoningEnd(ids), q.IsReasoningEnd(bids); a != b {
			return fmt.Errorf("IsReasoningEnd = %v with single-token markers, %v with byte tokens", a, b)
		}
		a, b := p.ExtractContentIDs(ids), q.ExtractContentIDs(bids)
		if (a == nil) != (b == nil) || tok.Decode(a) != bytes.Decode(b) {
			return fmt.Errorf("ExtractContentIDs = %q with single-token markers, %q with byte tokens", tok.Decode(a), bytes.Decode(b))
		}
		return nil
	}
}

// swaps reports whether s asks for reasoning as content when a response has
// none (WithNonEmptyContent), which only the text split does.
func swaps(s Setting) bool {
	var c reasoning.Config
	for _, o := range s.Options {
		if o != nil {
			o(&c)
		}
	}
	return c.NonEmptyContent
}

// gate feeds out's toy tokens to a reasoning.Gate one at a time, after the
// setting's prompt (given to the Gate, not to New): it must constrain
// exactly when IsReasoningEnd says reasoning has ended for the prompt and
// tokens so far, and count reasoning tokens as CountReasoningTokens does.
func (k *kit) gate(s Setting) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		tok := k.toy
		bare := Setting{Name: s.Name, Options: s.Options}
		ref, err := k.parser(bare, tok)
		if err != nil {
			return err
		}
		gp, err := k.parser(bare, tok)
		if err != nil {
			return err
		}
		g := reasoning.NewGate(gp)
		var all []int
		if s.Prompt != "" {
			all = tok.Encode(s.Prompt)
			g.Prompt(all)
			if want := ref.IsReasoningEnd(all); g.Constrain() != want {
				return fmt.Errorf("after the prompt Constrain = %v, IsReasoningEnd(prompt) = %v", g.Constrain(), want)
			}
		}
		ids := tok.Encode(out)
		for j, id := range ids {
			g.Accept(id)
			all = append(all, id)
			if want := ref.IsReasoningEnd(all); g.Constrain() != want {
				return fmt.Errorf("after token %d of %v Constrain = %v, IsReasoningEnd = %v", j, ids, g.Constrain(), want)
			}
		}
		if got, want := g.ReasoningTokens(), ref.CountReasoningTokens(ids); got != want {
			return fmt.Errorf("ReasoningTokens = %d, CountReasoningTokens = %d", got, want)
		}
		return nil
	}
}

// oddIDs gives the ID methods IDs that are not in any vocabulary: they are
// data too.
func (k *kit) oddIDs() error {
	p, err := k.parser(Setting{}, k.toy)
	if err != nil {
		return err
	}
	odd := []int{-1, 1 << 40, 0, k.toy.Base() + 255, k.toy.Base() + 256}
	p.IsReasoningEnd(odd)
	p.IsReasoningEndStreaming(odd, odd[3:])
	p.IsReasoningEndStreaming(odd[:1], odd) // a delta longer than ids
	p.ExtractContentIDs(odd)
	p.CountReasoningTokens(odd)
	p.IsReasoningEnd(nil)
	p.ExtractContentIDs(nil)
	p.CountReasoningTokens(nil)
	return nil
}

// streamingEnd checks IsReasoningEndStreaming against IsReasoningEnd over
// ids, in passes whose number does not grow with len(ids): fresh parsers
// are asked token by token and two tokens at a time, and must agree with
// one another at every prefix; a third is cut back and grown again where
// the answer changes (see rollbacks); IsReasoningEnd (which reads the
// whole prefix) is asked at no more than maxEndChecks prefixes, those
// where an answer can change: where the one-token answers change and just
// before, where the decoded text ends one of markers and just after, the
// first and last few, and evenly spaced ones. A streaming check that
// drifts from the whole answer shows at one of them. p answers
// IsReasoningEnd: a parser whose other methods have been called already,
// which must not matter.
func streamingEnd(fresh func() (reasoning.Parser, error), p reasoning.Parser, tok tokenizer.Tokenizer, ids []int, markers []string) error {
	n := len(ids)
	if n == 0 {
		return nil
	}
	one := make([]bool, n+1) // one[i]: the one-token answer after i IDs
	q, err := fresh()
	if err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		one[i] = q.IsReasoningEndStreaming(ids[:i], ids[i-1:i])
	}
	two, err := fresh()
	if err != nil {
		return err
	}
	for prev := 0; prev < n; prev += 2 {
		i := min(prev+2, n)
		if got := two.IsReasoningEndStreaming(ids[:i], ids[prev:i]); got != one[i] {
			return fmt.Errorf("IsReasoningEndStreaming over %v at %d = %v two at a time, %v one at a time", ids, i, got, one[i])
		}
	}
	back, err := fresh()
	if err != nil {
		return err
	}
	if err := rollbacks(back, ids, one); err != nil {
		return err
	}
	var at []int // prefixes to ask IsReasoningEnd about, most telling first
	at = append(at, n, 1)
	for i := 2; i <= n; i++ {
		if one[i] != one[i-1] {
			at = append(at, i, i-1)
		}
	}
	for _, i := range markerEnds(tok, ids, markers) {
		at = append(at, i, i+1)
	}
	at = append(at, 2, 3, n-1, n-2)
	for k := 1; k < 8; k++ {
		at = append(at, n*k/8)
	}
	asked := map[int]bool{}
	for _, i := range at {
		if i < 1 || i > n || asked[i] {
			continue
		}
		if len(asked) == maxEndChecks {
			break
		}
		asked[i] = true
		if want := p.IsReasoningEnd(ids[:i]); one[i] != want {
			return fmt.Errorf("IsReasoningEndStreaming over %v, one at a time, at %d = %v; IsReasoningEnd = %v", ids, i, one[i], want)
		}
	}
	return nil
}

// rollbacks checks that p's IsReasoningEndStreaming still answers as one
// does (one[i]: the answer for ids[:i]) after the sequence took tokens
// that were then rejected, as a Gate's Rollback leaves it after
// speculative decoding: at up to maxEndChecks of the token positions i
// where the answer changes, after the tokens before i, it takes two other
// tokens, is cut back to i, takes the next three tokens as one delta, is
// cut back by two and takes them one at a time. The other tokens are the
// first token whose answer changes nothing, twice, so that the answers
// they leave behind differ from the sequence's.
func rollbacks(p reasoning.Parser, ids []int, one []bool) error {
	n := len(ids)
	other := -1
	for i := 1; i <= n && other < 0; i++ {
		if one[i] == one[i-1] {
			other = ids[i-1]
		}
	}
	if other < 0 {
		return nil
	}
	check := func(seq []int, from int) error {
		if got := p.IsReasoningEndStreaming(seq, seq[from:]); got != one[len(seq)] {
			return fmt.Errorf("IsReasoningEndStreaming over %v, cut back and grown again, at %d = %v; one at a time, %v", ids, len(seq), got, one[len(seq)])
		}
		return nil
	}
	pos, checks := 0, 0
	for i := 0; i+3 <= n && checks < maxEndChecks; i++ {
		if one[i+1] == one[i] {
			continue // the token at i changes nothing
		}
		checks++
		if i > pos {
			if err := check(ids[:i], pos); err != nil {
				return err
			}
		}
		rejected := append(ids[:i:i], other, other)
		p.IsReasoningEndStreaming(rejected[:i+1], rejected[i:i+1])
		p.IsReasoningEndStreaming(rejected[:i+2], rejected[i+1:i+2])
		for _, step := range [][2]int{{i, i + 3}, {i + 1, i + 2}, {i + 2, i + 3}} {
			if err := check(ids[:step[1]], step[0]); err != nil {
				return err
			}
		}
		pos = i + 3
	}
	return nil
}

// maxEndChecks is how many prefixes streamingEnd asks IsReasoningEnd
// about at most, so that it reads ids a bounded number of times.
const maxEndChecks = 32

// markerEnds returns the lengths of the prefixes of ids whose decoded text
// ends with one of markers (with a nil tok, none), in order.
func markerEnds(tok tokenizer.Tokenizer, ids []int, markers []string) []int {
	longest := 0
	for _, m := range markers {
		longest = max(longest, len(m))
	}
	if tok == nil || longest == 0 {
		return nil
	}
	var ends []int
	var tail []byte // the decoded text's last bytes, at least longest of them when there are
	for i := range ids {
		tail = append(tail, tok.Decode(ids[i:i+1])...)
		for _, m := range markers {
			if m != "" && strings.HasSuffix(string(tail), m) {
				ends = append(ends, i+1)
				break
			}
		}
		if len(tail) > 2*longest {
			tail = append(tail[:0], tail[len(tail)-longest:]...)
		}
	}
	return ends
}
