package reasoningtest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The checks that token IDs, prompts and the text split agree. Each builds
// what it compares from the family's markers, so it needs no expectation of
// the family's own.

// placeholder returns a run of n bytes that no marker holds and no family
// trims: text that stands where a marker is typed as ordinary tokens.
func placeholder(n int) string { return strings.Repeat("\x01", n) }

// unplace returns m with every placeholder of mk put back as mk.
func unplace(m reasoning.Message, segs []reasoning.Segment, mk string) (reasoning.Message, []reasoning.Segment) {
	p := placeholder(len(mk))
	m.Reasoning, m.Content = strings.ReplaceAll(m.Reasoning, p, mk), strings.ReplaceAll(m.Content, p, mk)
	var out []reasoning.Segment
	for _, s := range segs {
		s.Text = strings.ReplaceAll(s.Text, p, mk)
		out = append(out, s)
	}
	return m, out
}

// perTokenDeltas returns text's tokens in tok, one per delta with its ID.
func perTokenDeltas(tok tokenizer.Tokenizer, text string) []reasoning.Delta {
	return perToken(tok, tok.Encode(text), 1)
}

// idsBeatTextAnywhere streams a marker's own token and out, one toy token
// per delta, in either order, then the marker's characters typed as
// ordinary tokens: wherever the token came and wherever out leaves the
// parser, the typed look-alike must be text (spec policy 5), split as a run
// of other text would be, whether or not the token counted where it came.
func (k *kit) idsBeatTextAnywhere(s Setting, tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		if k.c.MarkersAreText {
			return nil
		}
		body := perTokenDeltas(tok, out)
		for _, mk := range k.c.Markers {
			d, err := tokenizer.Resolve(tok, mk)
			if err != nil || !d.Single() {
				continue // not a special token of tok: its text is what counts
			}
			token := []reasoning.Delta{{Text: mk, IDs: d.IDs}}
			for _, head := range [][]reasoning.Delta{slices.Concat(body, token), slices.Concat(token, body)} {
				p, err := k.parser(s, tok)
				if err != nil {
					return err
				}
				got, gotSegs := Collect(p, slices.Concat(head, typed(tok, mk)))
				q, err := k.parser(s, tok)
				if err != nil {
					return err
				}
				m, segs := Collect(q, slices.Concat(head, typed(tok, placeholder(len(mk)))))
				want, wantSegs := unplace(m, segs, mk)
				if got != want || !reflect.DeepEqual(gotSegs, wantSegs) {
					return fmt.Errorf("after the deltas %s, %q typed as ordinary tokens splits as %s; other text there would give %s", quoted(head), mk, show(got), show(want))
				}
			}
		}
		return nil
	}
}

// typed returns text as a model types it with ordinary tokens of tok, one
// per delta: a token per byte of a toy vocabulary, else the tokens of each
// rune encoded on its own.
func typed(tok tokenizer.Tokenizer, text string) []reasoning.Delta {
	if v, ok := tok.(*tokenizer.Vocab); ok {
		return typedBytes(v, text)
	}
	var ds []reasoning.Delta
	for _, r := range text {
		ds = append(ds, perTokenDeltas(tok, string(r))...)
	}
	return ds
}

// A ToolBlock is a family's tool-call block: from Open to Close the text is
// content, verbatim, and no marker but Close (or a turn boundary, which
// ends the block with the turn) counts (Cohere's
// <|START_ACTION|>…<|END_ACTION|>).
type ToolBlock struct {
	Open, Close string
}

// toolBlocksInert appends to out a tool-call block holding each marker, then
// text: the split, the end check and the content IDs must be those of the
// block holding other text in the marker's place.
func (k *kit) toolBlocksInert(s Setting) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		if swaps(s) {
			return nil // reasoning that becomes content would hide where the block is
		}
		tok := k.toy
		for _, b := range k.c.ToolBlocks {
			for _, mk := range k.c.Markers {
				if mk == "" || mk == b.Close || slices.Contains(k.c.Boundaries, mk) {
					continue // a turn boundary ends the block with the turn
				}
				with := out + b.Open + mk + b.Close + "done"
				other := out + b.Open + placeholder(len(mk)) + b.Close + "done"
				p, err := k.parser(s, tok)
				if err != nil {
					return err
				}
				m := p.Extract(other)
				if !strings.HasSuffix(m.Content, b.Open+placeholder(len(mk))+b.Close+"done") {
					continue // the opener opens no block where out leaves the parser
				}
				got, gotSegs := p.Extract(with), segmentsOf(p, with)
				want, wantSegs := unplace(m, segmentsOf(p, other), mk)
				if got != want || !reflect.DeepEqual(gotSegs, wantSegs) {
					return fmt.Errorf("%q inside the tool-call block of %q splits as %s; other text there as %s", mk, with, show(got), show(want))
				}
				ids, oids := tok.Encode(with), tok.Encode(other)
				if a, b := p.IsReasoningEnd(ids), p.IsReasoningEnd(oids); a != b {
					return fmt.Errorf("%q inside the tool-call block of %q: IsReasoningEnd = %v; with other text there %v", mk, with, a, b)
				}
				a := tok.Decode(p.ExtractContentIDs(ids))
				b := strings.ReplaceAll(tok.Decode(p.ExtractContentIDs(oids)), placeholder(len(mk)), mk)
				if a != b {
					return fmt.Errorf("%q inside the tool-call block of %q: ExtractContentIDs decodes to %q; with other text there %q", mk, with, a, b)
				}
			}
		}
		return nil
	}
}

// promptBase is the chat before the prompts promptAgree builds: a user
// turn, then the assistant's.
const promptBase = "<|im_start|>user\nWhat is 6*7?<|im_end|>\n<|im_start|>assistant\n"

// promptAgree builds prompts from each marker, at the prompt's end and with
// text after it, and checks what they start a response in, with tok:
//
//   - the prompt as text and as tok's IDs, and the same after a long
//     stretch of text before it, give the same split of a plain output
//     (prompt IDs are read however far back the prompt's last marker is);
//   - where that split is reasoning, neither IsReasoningEnd of the prompt's
//     IDs nor a Gate given them says reasoning has ended;
//   - under the family's defaults, where the prompt's IDs make
//     IsReasoningEnd say reasoning has ended (its last marker decides,
//     wherever it is), the split is not reasoning.
//
// defaults says s is the family's defaults (no options).
func (k *kit) promptAgree(s Setting, tok tokenizer.Tokenizer, defaults bool) error {
	const output = "plain words"
	long := strings.Repeat("step by step, ", 300)
	for _, mk := range k.c.Markers {
		if mk == "" {
			continue
		}
		for _, prompt := range []string{promptBase + mk + "\n", promptBase + mk + "\nso far, some words"} {
			var first reasoning.Message
			for i, pr := range []string{prompt, long + prompt} {
				for j, ids := range [][]int{nil, tok.Encode(pr)} {
					at := Setting{Name: s.Name, Options: append(s.Options[:len(s.Options):len(s.Options)], reasoning.WithPrompt(pr, ids))}
					p, err := k.parser(at, tok)
					if err != nil {
						return err
					}
					m := p.Extract(output)
					if i == 0 && j == 0 {
						first = m
					} else if m != first {
						return fmt.Errorf("after the prompt %q (%d bytes before it, IDs %v) Extract(%q) = %s; after it alone as text %s", prompt, len(pr)-len(prompt), ids != nil, output, show(m), show(first))
					}
					if ids == nil || m.Reasoning == "" {
						continue
					}
					if p.IsReasoningEnd(ids) {
						return fmt.Errorf("after the prompt %q the split is reasoning, %s, and IsReasoningEnd(the prompt's IDs) says it has ended", prompt, show(m))
					}
					gp, err := k.parser(at, tok)
					if err != nil {
						return err
					}
					g := reasoning.NewGate(gp)
					g.Prompt(ids)
					if g.Constrain() {
						return fmt.Errorf("after the prompt %q the split is reasoning, %s, and a Gate given its IDs constrains", prompt, show(m))
					}
				}
			}
			if !defaults || first.Reasoning == "" {
				continue
			}
			ref, err := k.parser(Setting{}, tok)
			if err != nil {
				return err
			}
			// Only where the prompt's markers change the answer: a family
			// whose defaults have no reasoning (the identity) says ended of
			// any IDs.
			if ref.IsReasoningEnd(tok.Encode(prompt)) && !ref.IsReasoningEnd(nil) {
				return fmt.Errorf("IsReasoningEnd(the IDs of %q) says reasoning has ended, and after that prompt Extract(%q) = %s", prompt, output, show(first))
			}
		}
	}
	return nil
}

// sentinel is text no output holds, appended to see which section the
// split is in.
const sentinel = "\x02zz"

// gateAgrees streams out's tokens in tok through a Gate after the setting's
// prompt: wherever it constrains, the split of the tokens so far is not in
// reasoning (text after them is not reasoning); and where a thinking
// budget runs out and the Gate forces the end marker, the split has left
// reasoning once it follows.
func (k *kit) gateAgrees(s Setting, tok tokenizer.Tokenizer) func(string, []reasoning.Delta) error {
	return func(out string, _ []reasoning.Delta) error {
		for _, b := range k.c.Boundaries {
			if b != "" && strings.Contains(out, b) {
				return nil // a new turn inside the output: the end check starts again, the split does not
			}
		}
		ids := tok.Encode(out)
		var prompt []int
		if s.Prompt != "" {
			prompt = tok.Encode(s.Prompt)
		}
		// inReasoning reports whether text after ids[:i] and then extra goes
		// to reasoning.
		inReasoning := func(i int, extra []reasoning.Delta) (bool, error) {
			p, err := k.parser(s, tok)
			if err != nil {
				return false, err
			}
			ds := append(perToken(tok, ids[:i], 1), extra...)
			m, _ := Collect(p, append(ds, perTokenDeltas(tok, sentinel)...))
			return strings.HasSuffix(m.Reasoning, sentinel), nil
		}
		gp, err := k.parser(s, tok)
		if err != nil {
			return err
		}
		g := reasoning.NewGate(gp)
		if prompt != nil {
			g.Prompt(prompt)
		}
		was := false
		for i := 0; i <= len(ids); i++ {
			if i > 0 {
				g.Accept(ids[i-1])
			}
			c := g.Constrain()
			if c && (!was || i%8 == 0) || i == len(ids) {
				r, err := inReasoning(i, nil)
				if err != nil {
					return err
				}
				if c && r {
					return fmt.Errorf("after %d of the tokens %v a Gate constrains, and the split is in reasoning", i, ids)
				}
			}
			was = c
		}
		for _, budget := range []int{1, 4} {
			bp, err := k.parser(s, tok)
			if err != nil {
				return err
			}
			g := reasoning.NewGate(bp, reasoning.WithThinkingBudget(budget, nil))
			if prompt != nil {
				g.Prompt(prompt)
			}
			for i := 0; i <= len(ids); i++ {
				if f := g.Force(); f != nil {
					if r, err := inReasoning(i, perToken(tok, f, 1)); err != nil || r {
						if err != nil {
							return err
						}
						return fmt.Errorf("after %d of the tokens %v a Gate with a budget of %d forces %q, and the split is still in reasoning after it", i, ids, budget, tok.Decode(f))
					}
					break
				}
				if i < len(ids) {
					g.Accept(ids[i])
				}
			}
		}
		return nil
	}
}
