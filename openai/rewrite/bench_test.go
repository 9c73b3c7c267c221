package rewrite

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// benchChunks are the chunks the per-event benchmarks and
// TestUntouchedEventsAllocateNothing rewrite: each with the parser in
// steady state (inside reasoning, or in content) and the delta one token.
var benchChunks = []struct {
	name    string
	opts    []Option
	start   string // the text of a first chunk that puts the parser where it runs
	data    string
	touched bool // the chunk is rewritten; else it goes out as it came
	parsed  bool // its text goes through a parser
}{
	{"reasoning", []Option{WithParser("qwen3")}, "<think>", fake.Chunk(fake.Delta(0, " token", "")), true, true},
	{"normalized", nil, "", fake.Chunk(`{"index":0,"delta":{"reasoning":" token"},"finish_reason":null}`), true, false},
	{"untouched/content", []Option{WithParser("qwen3")}, "<think>r</think>", fake.Chunk(fake.Delta(0, " token", "")), false, true},
	{"untouched/tool-call", []Option{WithParser("qwen3")}, "<think>r</think>",
		fake.Chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]},"finish_reason":null}`), false, false},
	{"untouched/upstream-both", nil, "", fake.Chunk(`{"index":0,"delta":{"reasoning":" token","reasoning_content":" token"},"finish_reason":null}`), false, false},
	{"untouched/usage", []Option{WithParser("qwen3")}, "<think>", fake.UsageChunk, false, false},
}

// newBenchRewriter returns a rewriter for one benchChunks case, its parser
// where the case runs it.
func newBenchRewriter(tb testing.TB, opts []Option, start string) *Rewriter {
	rw, err := New("/v1/chat/completions", opts...)
	if err != nil {
		tb.Fatal(err)
	}
	if start != "" {
		rw.Event(Event{Data: []byte(fake.Chunk(fake.Delta(0, start, "")))})
	}
	return rw
}

// BenchmarkRewriterEvent is the cost of one chunk through Rewriter.Event:
// scanning a vLLM-shaped chat.completion.chunk, running its delta through
// the choice's parser, and writing the rewritten chunk; or only the scan,
// for a chunk that goes out as it came.
func BenchmarkRewriterEvent(b *testing.B) {
	for _, c := range benchChunks {
		b.Run(c.name, func(b *testing.B) {
			rw := newBenchRewriter(b, c.opts, c.start)
			e := Event{Data: []byte(c.data)}
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				rw.Event(e)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/chunk")
		})
	}
}

// BenchmarkStream is a whole stream through Rewriter.Stream, as the
// Transport and the Handler read it: per-chunk cost including SSE framing,
// at two lengths so that a reader sees the cost per chunk stay flat.
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{100, 1000} {
		var s strings.Builder
		s.WriteString("data: " + fake.Chunk(fake.RoleChunkChoice) + "\n\n")
		s.WriteString("data: " + fake.Chunk(fake.Delta(0, "<think>", "")) + "\n\n")
		for i := range n {
			text := " word"
			if i == n/2 {
				text = "</think>"
			}
			s.WriteString("data: " + fake.Chunk(fake.Delta(0, text, "")) + "\n\n")
		}
		s.WriteString("data: " + fake.Chunk(fake.Delta(0, "", "stop")) + "\n\ndata: [DONE]\n\n")
		stream := s.String()
		b.Run(strconv.Itoa(n)+"chunks", func(b *testing.B) {
			buf := make([]byte, 32<<10)
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			for b.Loop() {
				rw, _ := New("/v1/chat/completions", WithParser("qwen3"))
				r := rw.Stream(strings.NewReader(stream))
				for {
					if _, err := r.Read(buf); err == io.EOF {
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n+4), "ns/chunk")
		})
	}
}

// BenchmarkSplitEvent is the cost of one text delta event of Anthropic
// Messages and of the Responses API through Rewriter.Event, with the
// parser in steady state: inside reasoning (the event becomes a
// thinking_delta or reasoning_text.delta) and in content (renumbered).
func BenchmarkSplitEvent(b *testing.B) {
	for _, c := range []struct {
		name, path   string
		start, event fake.Event
		setup        []fake.Event
	}{
		{"messages/reasoning", messagesPath, fake.TextDelta(0, "<think>"), fake.TextDelta(0, " token"),
			[]fake.Event{fake.MessageStart("m"), fake.TextStart(0)}},
		{"messages/content", messagesPath, fake.TextDelta(0, "<think>r</think>"), fake.TextDelta(0, " token"),
			[]fake.Event{fake.MessageStart("m"), fake.TextStart(0)}},
		{"responses/reasoning", responsesPath, responsesDelta(4, "<think>"), responsesDelta(5, " token"), fake.ResponsesStream(4)},
		{"responses/content", responsesPath, responsesDelta(4, "<think>r</think>"), responsesDelta(5, " token"), fake.ResponsesStream(4)},
	} {
		b.Run(c.name, func(b *testing.B) {
			rw, err := New(c.path, WithParser("qwen3"))
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range append(c.setup, c.start) {
				rw.Event(Event{Name: []byte(e.Name), Data: []byte(e.Data)})
			}
			e := Event{Name: []byte(c.event.Name), Data: []byte(c.event.Data)}
			b.SetBytes(int64(len(e.Data)))
			b.ReportAllocs()
			for b.Loop() {
				rw.Event(e)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
		})
	}
}

// responsesDelta is an output_text delta of ResponsesStream's message.
func responsesDelta(seq int, text string) fake.Event {
	return fake.Event{Name: "response.output_text.delta", Data: `{"type":"response.output_text.delta","sequence_number":` + strconv.Itoa(seq) +
		`,"item_id":"msg_a1","output_index":0,"content_index":0,"delta":` + string(jsonString(text)) + `,"logprobs":[]}`}
}
