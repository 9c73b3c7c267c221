package rewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// FuzzStream reads a raw server-sent event stream through Stream, cut
// where cuts say, and checks it against the event stream format: a client
// that parses what Stream returns gets the events that Event and End
// return for the events a client parses from the input, in order, with
// the same names and data.
func FuzzStream(f *testing.F) {
	chat := func(text string) string {
		return "data: " + fake.Chunk(fake.Delta(0, text, "")) + "\n\n"
	}
	f.Add(chat("<think>a</th")+chat("ink>b")+"data: [DONE]\n\n", []byte{3, 7}, byte(0), byte(0))
	f.Add(": ping\r\nid: 4\r\n"+strings.Replace(chat("<think>a"), "\n\n", "\r\n\r\n", 1)+"retry: 9\n\n", []byte{1}, byte(1), byte(0))
	f.Add("data: {\"choices\":\ndata: [{\"index\":0,\"delta\":{\"content\":\"<think>a</think>b\"}}]}\n\n", []byte{5}, byte(0), byte(0))
	f.Add("event: x\ndata\ndata:"+fake.Chunk(fake.Delta(0, "r</think>c", ""))+"\nevent\n\n", []byte{2, 2}, byte(2), byte(0))
	// Lone CRs, CRLF cut between its CR and LF (the cut after "event: x\r"
	// and after the blank line's "\r"), a byte order mark:
	f.Add("event: x\r"+strings.ReplaceAll(chat("<think>a</think>b"), "\n", "\r")+"data: [DONE]\r\r", []byte{9, 3}, byte(0), byte(0))
	f.Add("event: x\r\n"+strings.ReplaceAll(chat("<th"), "\n", "\r\n"), []byte{8, 0, 200, 1, 0}, byte(1), byte(0))
	f.Add(chat("<think>a")+chat("b</think>c"), []byte{0, 1, 2}, byte(1), byte(6))
	f.Add(chat("x"), []byte{0, 0}, byte(2), byte(5))
	// Read a byte at a time: the LF after "event: y\r" must not end the
	// event, whose name would then go to the chunk added before it.
	held := "event: x\n" + chat("<think>a</th") + "event: y\ndata: " + fake.Chunk(fake.Delta(0, "", "stop")) + "\n\n"
	f.Add(held, bytes.Repeat([]byte{0}, len(held)+4), byte(1), byte(1))
	var messages, responses strings.Builder
	for _, e := range fake.MessagesStream {
		messages.WriteString("event: " + e.Name + "\ndata: " + e.Data + "\n\n")
	}
	for _, e := range fake.ResponsesStream(4) {
		responses.WriteString("event: " + e.Name + "\ndata: " + e.Data + "\n\n")
	}
	f.Add(messages.String(), []byte{9, 1}, byte(3), byte(0))
	f.Add(responses.String(), []byte{30}, byte(4), byte(2))
	f.Fuzz(func(t *testing.T, raw string, cuts []byte, pick, form byte) {
		// form: the line endings as they came (0), or all CRLF (1) or all
		// a lone CR (2); 4 adds a byte order mark. A stream that stops
		// inside an event is TestStreamRewriterUnterminatedEnd's: raw ends
		// with a blank line.
		switch form % 4 {
		case 1:
			raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\n", "\r\n")
		case 2:
			raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\n", "\r")
		}
		raw += "\n\n"
		if form&4 != 0 {
			raw = "\ufeff" + raw
		}
		path := []string{chatPath, chatPath, chatPath, messagesPath, responsesPath}[int(pick)%5]
		parser := fuzzFamilies[int(pick)%len(fuzzFamilies)]

		rw, err := New(path, WithParser(parser))
		if err != nil {
			t.Fatal(err)
		}
		var want []sseEvent
		for _, e := range parseSSE(t, raw) {
			for _, out := range rw.Event(Event{Name: e.name, Data: e.data}) {
				want = append(want, sseEvent{bytes.Clone(out.Name), bytes.Clone(out.Data)})
			}
		}
		for _, out := range rw.End() {
			want = append(want, sseEvent{bytes.Clone(out.Name), bytes.Clone(out.Data)})
		}

		rw, err = New(path, WithParser(parser))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rw.Stream(&cutReader{s: raw, cuts: cuts}))
		if err != nil {
			t.Fatal(err)
		}
		gotEvents := parseSSE(t, string(got))
		if len(gotEvents) != len(want) {
			t.Fatalf("%s %s: stream %q came out as %q: %d events, want %d", path, parser, raw, got, len(gotEvents), len(want))
		}
		for i, e := range gotEvents {
			if string(e.name) != string(want[i].name) || !bytes.Equal(e.data, want[i].data) {
				t.Fatalf("%s %s: stream %q came out as %q: event %d is %q %q, want %q %q",
					path, parser, raw, got, i, e.name, e.data, want[i].name, want[i].data)
			}
		}
	})
}

// An sseEvent is an event as a client dispatches it.
type sseEvent struct{ name, data []byte }

// parseSSE parses a stream as the event stream format says a client
// does: one leading byte order mark is dropped; lines end in CRLF, LF or
// a lone CR; a blank line dispatches the event, if it has data; a line
// that starts with a colon is a comment; a field's value is what follows
// its first colon, less one space; data lines are joined by LF. What
// follows the last line ending is not dispatched.
func parseSSE(t *testing.T, s string) []sseEvent {
	t.Helper()
	var events []sseEvent
	var name, data []byte
	hasData := false
	s = strings.TrimPrefix(s, "\ufeff")
	for {
		end := strings.IndexAny(s, "\r\n")
		if end < 0 {
			return events
		}
		line := s[:end]
		if strings.HasPrefix(s[end:], "\r\n") {
			end++
		}
		s = s[end+1:]
		if line == "" {
			if hasData {
				events = append(events, sseEvent{name, data})
			}
			name, data, hasData = nil, nil, false
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			name = []byte(value)
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			if data == nil {
				data = []byte{}
			}
			hasData = true
		}
	}
}

// A cutReader returns s in reads whose lengths cuts gives, then what is
// left in one.
type cutReader struct {
	s    string
	cuts []byte
}

func (r *cutReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := len(r.s)
	if len(r.cuts) > 0 {
		n = min(n, int(r.cuts[0])+1)
		r.cuts = r.cuts[1:]
	}
	n = copy(p, r.s[:n])
	r.s = r.s[n:]
	return n, nil
}
