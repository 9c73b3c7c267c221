package main

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkRewriteChunk is the gateway's own cost per SSE chunk: decoding
// one vLLM-shaped chat.completion.chunk, running its delta through the
// choice's parser, and encoding the rewritten chunk. The parser is in
// steady state (inside reasoning, or in content), the delta one token.
func BenchmarkRewriteChunk(b *testing.B) {
	token := []byte(chunk(delta(0, " token", "")))
	toolCall := []byte(chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]},"finish_reason":null}`))
	for _, c := range []struct {
		name  string
		start string // text that puts the parser where it runs
		data  []byte
	}{
		{"reasoning", "<think>", token},
		{"content", "<think>r</think>", token},
		{"untouched", "<think>r</think>", toolCall}, // no text: the chunk goes out as it came
	} {
		b.Run(c.name, func(b *testing.B) {
			c0 := chunkRewriter{ex: &exchange{parser: "qwen3", fields: []string{"reasoning"}}}
			var out bytes.Buffer
			c0.rewrite(&out, []byte(chunk(delta(0, c.start, ""))))
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				c0.rewrite(&out, c.data)
			}
		})
	}
}

// BenchmarkStream is a whole stream through the rewriter, as the proxy
// reads it: per-chunk cost including SSE framing, at two lengths so that a
// reader sees the cost per chunk stay flat.
func BenchmarkStream(b *testing.B) {
	for _, n := range []int{100, 1000} {
		var s strings.Builder
		s.WriteString("data: " + chunk(roleChunkChoice) + "\n\n")
		s.WriteString("data: " + chunk(delta(0, "<think>", "")) + "\n\n")
		for i := range n {
			text := " word"
			if i == n/2 {
				text = "</think>"
			}
			s.WriteString("data: " + chunk(delta(0, text, "")) + "\n\n")
		}
		s.WriteString("data: " + chunk(delta(0, "", "stop")) + "\n\ndata: [DONE]\n\n")
		stream := s.String()
		b.Run(strconv.Itoa(n)+"chunks", func(b *testing.B) {
			ex := &exchange{parser: "qwen3", fields: []string{"reasoning"}}
			buf := make([]byte, 32<<10)
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			for b.Loop() {
				r := newStreamRewriter(io.NopCloser(strings.NewReader(stream)), ex)
				for {
					if _, err := r.Read(buf); err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n+4), "ns/chunk")
		})
	}
}
