package rewrite

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// fuzzFamilies are the parsers FuzzSplitEvents picks from: think tags
// that start in reasoning or in content, and Harmony channels.
var fuzzFamilies = []string{"deepseek_r1", "qwen3", "glm45", "openai_gptoss"}

// FuzzSplitEvents streams text, cut where cuts say, as a Messages text
// block and as a Responses message item, with a tool call after it, and
// checks what clients would assemble: the events keep the API's order
// (blocks and items start in order, sequence numbers count up, every
// delta goes to an open block or item of its kind, .done texts and
// response.completed agree with the deltas), and the thinking blocks and
// reasoning items carry exactly the reasoning the parser gives for those
// deltas, the text blocks and message items exactly the content. Then it
// feeds text as one event of each API's: nothing may panic, and what is
// rewritten must stay JSON.
func FuzzSplitEvents(f *testing.F) {
	f.Add("<think>plan</think>answer", []byte{3, 9}, byte(0))
	f.Add("plan</think>\n\nanswer <", []byte{1, 2, 3}, byte(1))
	f.Add("<think>a</think>b<think>c</think>d", []byte{5}, byte(2))
	f.Add(" ", []byte("0"), byte(2)) // found: glm45 makes nothing of it, so completed must not list the message item either
	f.Add("<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>done", []byte{4, 20}, byte(3))
	f.Add(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"<think>x"}}`, []byte{}, byte(0))
	f.Add(`{"type":"response.output_text.delta","sequence_number":4,"item_id":"m","output_index":0,"content_index":0,"delta":"x"}`, []byte{}, byte(1))
	f.Fuzz(checkSplit)
}

func checkSplit(t *testing.T, text string, cuts []byte, pick byte) {
	{
		family := fuzzFamilies[int(pick)%len(fuzzFamilies)]
		// JSON carries text, and upstream sends whole characters.
		text = strings.ToValidUTF8(text, "\uFFFD")
		var deltas []string
		rest := text
		for _, c := range cuts {
			if rest == "" {
				break
			}
			n := min(int(c)%8+1, len(rest))
			for n < len(rest) && !utf8.RuneStart(rest[n]) {
				n++
			}
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		if rest != "" {
			deltas = append(deltas, rest)
		}
		p, err := reasoning.New(family, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ds []reasoning.Delta
		for _, d := range deltas {
			ds = append(ds, reasoning.Delta{Text: d})
		}
		want := reasoning.Collect(p, ds)

		// Messages.
		events := []fake.Event{fake.MessageStart("m"), fake.TextStart(0)}
		for _, d := range deltas {
			events = append(events, fake.TextDelta(0, d))
		}
		events = append(events, fake.BlockStop(0), fake.ToolUseStart(1, "t", "f"), fake.InputJSONDelta(1, "{}"), fake.BlockStop(1),
			fake.MessageDelta("tool_use", 3), fake.MessageStop)
		rw, err := New(messagesPath, WithParser(family))
		if err != nil {
			t.Fatal(err)
		}
		var got reasoning.Message
		blocks := assembleMessages(t, rewriteEvents(t, rw, events, true))
		for _, b := range blocks {
			got.Reasoning += b.Thinking
			got.Content += b.Text
		}
		if got != want || blocks[len(blocks)-1].Type != "tool_use" {
			t.Fatalf("%s over %q: Messages blocks %+v, want %+v", family, deltas, blocks, want)
		}

		// Responses.
		rw, err = New(responsesPath, WithParser(family))
		if err != nil {
			t.Fatal(err)
		}
		items, _ := assembleResponses(t, rewriteEvents(t, rw, responsesText(deltas, text), true))
		got = reasoning.Message{}
		for _, it := range items {
			switch it.Type {
			case "reasoning":
				got.Reasoning += strings.Join(it.Parts, "")
			case "message":
				got.Content += strings.Join(it.Parts, "")
			}
		}
		if got != want {
			t.Fatalf("%s over %q: Responses items %+v, want %+v", family, deltas, items, want)
		}

		// Anything at all, as one event.
		for _, path := range []string{messagesPath, responsesPath} {
			rw, err := New(path, WithParser(family))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range append(rw.Event(Event{Data: []byte(text)}), rw.End()...) {
				if string(e.Data) != text && !json.Valid(e.Data) {
					t.Fatalf("%s: %q came out as %q, not JSON", path, text, e.Data)
				}
			}
			if out := rw.Response([]byte(text)); string(out) != text && !json.Valid(out) {
				t.Fatalf("%s: body %q came out as %q, not JSON", path, text, out)
			}
		}
	}
}
