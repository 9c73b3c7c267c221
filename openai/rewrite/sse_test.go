package rewrite

import (
	"encoding/json"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var jsonDocs = []string{
	`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , -2.5e+3 , true , false , null , "x" ] } `,
	`"\u00e9\n\"\\\/"`, `0`, `-0`, `1.0`, `1e5`, `1E-5`, `{"a":{"b":{"c":[[],[{}]]}}}`,
	`"` + "\xff" + `"`, `"é"`,
	// Not JSON:
	``, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{a:1}`, `"\x"`, `"\u12"`, `"` + "\x01" + `"`,
	`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `tru`, `nul`, `"open`, `{"a":1}}`, `[`, `{"a":1 "b":2}`,
	// encoding/json's nesting limit, 10,000 levels, and one more:
	nested(10000), nested(10001), `{"a":` + nested(10000) + `}`,
}

// nested returns depth arrays and objects, alternating, one inside the
// other.
func nested(depth int) string {
	var open, close strings.Builder
	for i := range depth {
		if i%2 == 0 {
			open.WriteString(`[`)
			close.WriteString(`]`)
		} else {
			open.WriteString(`{"k":`)
			close.WriteString(`}`)
		}
	}
	c := []byte(close.String())
	slices.Reverse(c)
	return open.String() + "0" + string(c)
}

// TestDeepNesting: a chunk nested far beyond the limit, as a hostile or
// broken upstream may send, passes through; the scanner does not recurse
// until the goroutine's stack runs out, a fatal error.
func TestDeepNesting(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	deep := nested(1_000_000)
	for _, data := range []string{
		`{"choices":[{"index":0,"delta":{"content":"<think>x"},"logprobs":` + deep + `}]}`,
		`{"choices":[{"index":0,"message":{"content":"<think>x"}}],"x":` + deep + `}`,
	} {
		rw := chatRewriter(t, WithParser("qwen3"))
		out := rw.Event(Event{Data: []byte(data)})
		require.Len(t, out, 1)
		assert.Equal(t, data, string(out[0].Data))
		assert.Equal(t, data, string(rw.Response([]byte(data))))
	}
	for _, path := range []string{messagesPath, responsesPath} {
		rw, err := New(path, WithParser("qwen3"))
		require.NoError(t, err)
		data := `{"type":"x","index":0,"delta":` + deep + `}`
		assert.Equal(t, data, string(rw.Event(Event{Data: []byte(data)})[0].Data), path)
		assert.Equal(t, data, string(rw.Response([]byte(data))), path)
	}
}

// TestScannerAgreesWithEncodingJSON checks that the scanner takes exactly
// the documents json.Valid takes.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range jsonDocs {
		assert.Equal(t, json.Valid([]byte(doc)), scanValid([]byte(doc)), "%q", doc)
	}
}

func scanValid(b []byte) bool {
	end, err := valueEnd(b, skipSpace(b, 0))
	return err == nil && skipSpace(b, end) == len(b)
}

func TestAppendJSONStringAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `"quoted" \back\slash`, "<think>&amp;</think>", "\n\r\t\b\f\x00\x1f\x7f",
		"é 中文 🙂", "\u2028\u2029", "bad \xff\xfe utf-8 \xe4\xb8", "tab\tend",
	} {
		want, err := marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendJSONString(nil, s)), "%q", s)
	}
}

func TestWithMember(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{}`, `{"k":[1]}`},
		{` { } `, ` { "k":[1]} `},
		{`{"a":1}`, `{"a":1,"k":[1]}`},
		{`{"a":1, "k" : {"x":2}, "b":"<"}`, `{"a":1, "k" : [1], "b":"<"}`},
		{`[1]`, `[1]`},
		{`{"a":`, `{"a":`},
	} {
		assert.Equal(t, c.want, string(withMember([]byte(c.in), "k", []byte(`[1]`))), c.in)
	}
}

func TestSmallInt(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "7": 7, "1023": 1023, "1024": -1, "-1": -1, "1.5": -1, "": -1, "99999": -1} {
		n, ok := smallInt([]byte(in))
		if !ok {
			n = -1
		}
		assert.Equal(t, want, n, in)
	}
}

// rewriteAll runs data lines through a fresh rewriter as one stream and
// returns the stream it produces.
func rewriteAll(t *testing.T, parser string, lines ...string) string {
	var in strings.Builder
	for _, l := range lines {
		in.WriteString(l)
	}
	rw, err := New("/v1/chat/completions", WithParser(parser), WithField(FieldReasoning))
	require.NoError(t, err)
	out, err := io.ReadAll(iotest.OneByteReader(rw.Stream(iotest.HalfReader(strings.NewReader(in.String())))))
	require.NoError(t, err)
	return string(out)
}

func TestStreamRewriterFraming(t *testing.T) {
	// Comments, event and id lines, CRLF endings, data lines that are not
	// JSON, an index out of range: kept as they came, in order; a chunk
	// the rewriter adds goes before the whole event.
	got := rewriteAll(t, "deepseek_r1",
		": keep-alive\r\n\r\n",
		"event: message\r\n", "id: 1\r\n",
		`data: {"id":"a","choices":[{"index":0,"delta":{"content":"x</th"},"finish_reason":null}]}`+"\r\n\r\n",
		"data: not json\n\n",
		`data: {"choices":[{"index":5000,"delta":{"content":"<think>big"}}]}`+"\n\n",
		"event: message\n",
		`data: {"id":"a","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n",
		"data: [DONE]\n\n",
	)
	want := ": keep-alive\r\n\r\n" +
		"event: message\r\nid: 1\r\n" +
		`data: {"id":"a","choices":[{"index":0,"delta":{"reasoning":"x"},"finish_reason":null}]}` + "\r\n\r\n" +
		"data: not json\n\n" +
		`data: {"choices":[{"index":5000,"delta":{"content":"<think>big"}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"index":0,"delta":{"reasoning":"</th"},"finish_reason":null}]}` + "\n\n" +
		"event: message\n" +
		`data: {"id":"a","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
		"data: [DONE]\n\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stream mismatch (-want +got):\n%s", diff)
	}
}

func TestStreamRewriterUnterminatedEnd(t *testing.T) {
	// The stream stops in the middle of its last event: what the parser
	// held still goes out, as an event of its own.
	for _, end := range []string{"", "\n", "\n\n"} {
		got := rewriteAll(t, "qwen3", `data: {"choices":[{"index":0,"delta":{"content":"<think>a</thi"}}]}`+end)
		assert.Equal(t, `data: {"choices":[{"index":0,"delta":{"reasoning":"a"}}]}`+"\n\n"+
			`data: {"choices":[{"index":0,"delta":{"reasoning":"</thi"},"finish_reason":null}]}`+"\n\n", got, "%q", end)
	}
}

func TestStreamRewriterKeepsBytes(t *testing.T) {
	// Whitespace, key order, escapes and other members of the chunk, the
	// choice and the delta are copied as they came; the text leaves its
	// place and comes back at the end of the delta.
	in := `data: { "z" : 1 , "choices" : [ { "index" : 0 , "delta" : { "role" : "assistant" , "content" : "<think>\u00e9\"" , "x" : [1] } , "finish_reason" : null } ] , "a":"\u003c"}` + "\n\n"
	want := `data: { "z" : 1 , "choices" : [ { "index" : 0 , "delta" : {"role" : "assistant","x" : [1],"reasoning":"é\""} , "finish_reason" : null } ] , "a":"\u003c"}` + "\n\n"
	assert.Equal(t, want, rewriteAll(t, "qwen3", in))
}

func TestStreamRewriterEnvelope(t *testing.T) {
	// Added chunks carry the first chunk's members but choices and usage.
	got := rewriteAll(t, "qwen3",
		`data: {"id":"c1","usage":null,"model":"m","choices":[{"index":0,"delta":{"content":"<th"}}],"x":{"y":[1]}}`+"\n\n",
		"data: [DONE]\n\n")
	assert.Equal(t, `data: {"id":"c1","usage":null,"model":"m","choices":[{"index":0,"delta":{}}],"x":{"y":[1]}}`+"\n\n"+
		`data: {"id":"c1","model":"m","x":{"y":[1]},"choices":[{"index":0,"delta":{"reasoning":"<th"},"finish_reason":null}]}`+"\n\n"+
		"data: [DONE]\n\n", got)
}

func TestStreamKeepsTheOtherLinesOfADroppedEvent(t *testing.T) {
	// A Messages text delta whose text the parser holds is dropped; its
	// id line still reaches the client (it sets the last event ID), and so
	// do its comments, ended by its blank line.
	rw, err := New(messagesPath, WithParser("qwen3"))
	require.NoError(t, err)
	in := "event: content_block_start\r\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\r\n\r\n" +
		"id: 7\r\n: held\r\nevent: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"<thi\"}}\r\n\r\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"nk>a\"}}\n\n"
	got, err := io.ReadAll(rw.Stream(strings.NewReader(in)))
	require.NoError(t, err)
	assert.Equal(t, "id: 7\r\n: held\r\n\r\n"+
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n"+
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"a\"}}\n\n", string(got))
}

// TestStreamLineEndings: lines end in LF, CRLF or a lone CR, as the event
// stream format allows, and a leading byte order mark is dropped, whatever
// the reads: here one byte each, so that every CRLF is cut between its CR
// and its LF, whose LF must not read as a blank line (it would end the
// event early, and its event line would name the chunk added before the
// next).
func TestStreamLineEndings(t *testing.T) {
	const (
		held   = `{"choices":[{"index":0,"delta":{"content":"<think>a</th"}}]}`
		split  = `{"choices":[{"index":0,"delta":{"reasoning":"a"}}]}`
		finish = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
		added  = `{"choices":[{"index":0,"delta":{"reasoning":"</th"},"finish_reason":null}]}`
	)
	for _, c := range []struct{ name, in, want string }{
		{"CRLF",
			"event: x\r\ndata: " + held + "\r\n\r\n: c\r\n\r\nevent: y\r\ndata: " + finish + "\r\n\r\n",
			"event: x\r\ndata: " + split + "\r\n\r\n: c\r\n\r\ndata: " + added + "\n\nevent: y\r\ndata: " + finish + "\r\n\r\n"},
		{"CR",
			"event: x\rdata: " + held + "\r\r: c\r\revent: y\rdata: " + finish + "\r\r",
			"event: x\rdata: " + split + "\r\r: c\r\rdata: " + added + "\n\nevent: y\rdata: " + finish + "\r\r"},
		{"mixed",
			"data: " + held + "\r\n\revent: y\ndata: " + finish + "\n\r\n",
			"data: " + split + "\r\n\rdata: " + added + "\n\nevent: y\ndata: " + finish + "\n\r\n"},
		{"byte order mark",
			"\ufeffdata: " + held + "\r\r",
			"data: " + split + "\r\rdata: " + added + "\n\n"},
		{"ends in a lone CR",
			"data: " + held + "\r",
			"data: " + split + "\r\rdata: " + added + "\n\n"},
		{"a CR inside a line ends it",
			": c\rdata: " + held + "\n\n",
			": c\rdata: " + split + "\n\ndata: " + added + "\n\n"},
	} {
		rw, err := New(chatPath, WithParser("qwen3"), WithField(FieldReasoning))
		require.NoError(t, err)
		got, err := io.ReadAll(rw.Stream(iotest.OneByteReader(strings.NewReader(c.in))))
		require.NoError(t, err)
		assert.Equal(t, c.want, string(got), c.name)
	}
}
