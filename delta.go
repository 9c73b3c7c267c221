package reasoning

import "strings"

// A Delta is one step of a streamed response.
type Delta struct {
	Text string // the new text of this delta
	IDs  []int  // the token IDs of this delta; nil when the caller only has text
}

// A Message is a response, or the part of it one call emits, split into
// reasoning and content.
type Message struct {
	Reasoning string `json:"reasoning,omitempty"` // the chain of thought, markers removed
	Content   string `json:"content,omitempty"`   // the answer, markers removed
}

// IsZero reports whether m carries no text.
func (m Message) IsZero() bool { return m.Reasoning == "" && m.Content == "" }

// Collect streams deltas through p, then Finish, and returns the concatenation of everything emitted.
func Collect(p Parser, deltas []Delta) Message {
	var r, c strings.Builder
	add := func(m Message) {
		r.WriteString(m.Reasoning)
		c.WriteString(m.Content)
	}
	for _, d := range deltas {
		add(p.ExtractStreaming(d))
	}
	add(p.Finish())
	return Message{Reasoning: r.String(), Content: c.String()}
}
