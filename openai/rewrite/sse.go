package rewrite

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxEventBytes bounds one server-sent event as the stream reader holds
// it: its lines, up to the blank line that ends it. A chunk carrying a
// long tool call can be large; a stream with a longer event is cut.
const maxEventBytes = 64 << 20

var errEventTooLong = errors.New("rewrite: server-sent event longer than 64 MiB")

// sseStream is a stream of server-sent events as the client gets it. It
// reads upstream a line at a time, holds the lines of the current event
// until the blank line that ends it, and then writes what the Rewriter
// puts in its place. It holds one event and what it has not yet
// returned; never the stream.
type sseStream struct {
	src   io.Reader
	br    *bufio.Reader
	rw    *Rewriter
	long  []byte       // a line longer than br's buffer, being assembled
	raw   []byte       // the current event's lines as they came
	lines []sseLine    // where each of them is in raw
	data  []byte       // the data of an event with several data lines, joined
	out   bytes.Buffer // bytes not yet returned by Read
	err   error        // returned by Read once out is empty

	readErr error // what reading src returned: Read's error once br is empty
	started bool  // the stream's first bytes were checked for a byte order mark
	// The last line ended in a CR that was the last byte read so far: an
	// LF that comes next is the rest of its CRLF, not an empty line.
	// outCR: the event it ended was written, and its bytes ended in that
	// CR, so the LF follows it.
	pendingCR, outCR bool
}

// An sseLine is one line of the current event: raw[start:end] without its
// line ending, raw[end:next] the ending.
type sseLine struct {
	start, end, next int
	field            sseField
}

type sseField uint8

const (
	fieldOther sseField = iota // a comment, an id or retry line, the blank line
	fieldData
	fieldEvent
)

func newSSEStream(src io.Reader, rw *Rewriter) *sseStream {
	return &sseStream{src: src, br: bufio.NewReaderSize(src, 32<<10), rw: rw}
}

// Read returns the rewritten stream. A call reads upstream only while it
// has nothing to return.
func (s *sseStream) Read(p []byte) (int, error) {
	for s.out.Len() == 0 && s.err == nil {
		s.step()
	}
	if s.out.Len() > 0 {
		return s.out.Read(p)
	}
	return 0, s.err
}

// Close closes the source when it is an io.Closer.
func (s *sseStream) Close() error {
	if c, ok := s.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// step reads one line. A blank line ends the event, which is then
// written. At the end of the stream the unfinished event is written as if
// it had ended, and then what the parsers hold, so that nothing is lost
// when upstream stops without [DONE].
func (s *sseStream) step() {
	line, err := s.readLine()
	if len(line) > 0 {
		if len(s.raw)+len(line) > maxEventBytes {
			s.err = errEventTooLong
			return
		}
		s.addLine(line)
		if s.lines[len(s.lines)-1].end == s.lines[len(s.lines)-1].start {
			s.dispatch()
		}
	}
	if err == io.EOF {
		terminator := ""
		if n := len(s.lines); n > 0 {
			// A blank line that ends the last event, in its own line
			// ending (a lone CR would join an LF after it).
			last := s.lines[n-1]
			terminator = lineEnding(s.raw[last.end:last.next])
			if last.end == last.next {
				terminator = "\n\n"
			}
		}
		s.dispatch()
		for _, e := range s.rw.End() {
			s.out.WriteString(terminator)
			terminator = ""
			s.out.Write(e.Append(nil))
		}
	}
	s.err = err
}

// readLine returns the next line with its ending, LF, CRLF or a lone CR,
// as the event stream format has them, or what is left at the end of the
// stream. The result is valid until the next call. A leading byte order
// mark is dropped, as clients drop it. A CR that is the last byte read so
// far ends its line at once, so that an event whose blank line is a lone
// CR is not held until more bytes come; an LF read next is then the rest
// of a CRLF, and goes where the CR went (lateLF).
func (s *sseStream) readLine() ([]byte, error) {
	if !s.started {
		s.started = true
		if b, _ := s.peek(1); len(b) == 1 && b[0] == bom[0] {
			if b, _ := s.peek(len(bom)); string(b) == bom {
				s.br.Discard(len(bom))
			}
		}
	}
	if s.pendingCR {
		s.pendingCR = false
		if b, _ := s.peek(1); len(b) == 1 && b[0] == '\n' {
			s.br.Discard(1)
			s.lateLF()
		}
	}
	s.long = s.long[:0]
	scanned := 0 // bytes of buf known to hold no line ending
	for {
		buf, _ := s.br.Peek(s.br.Buffered())
		n, ended := lineLen(buf[scanned:])
		n += scanned
		if !ended {
			if s.readErr == nil && len(buf) < s.br.Size() {
				scanned = len(buf)
				s.peek(len(buf) + 1) // wait for more; an error is kept
				continue
			}
			if len(buf) == 0 {
				return s.long, s.readErr
			}
		}
		if len(s.long)+n > maxEventBytes {
			return nil, errEventTooLong
		}
		s.pendingCR = ended && n == len(buf) && buf[n-1] == '\r'
		line := buf[:n]
		if len(s.long) > 0 || !ended {
			// A line longer than br's buffer, or the end of the stream.
			s.long = append(s.long, line...)
			line = s.long
		}
		s.br.Discard(n)
		scanned = 0
		if ended {
			return line, nil
		}
	}
}

const bom = "\ufeff"

// peek is br.Peek, but a read error, which bufio returns once, is
// returned by every later call too, once the bytes before it are taken.
func (s *sseStream) peek(n int) ([]byte, error) {
	if s.readErr != nil {
		b, _ := s.br.Peek(min(n, s.br.Buffered()))
		return b, s.readErr
	}
	b, err := s.br.Peek(n)
	s.readErr = err
	return b, err
}

// lineLen returns the length of the line buf starts with, its ending
// included, and whether it ends in buf; len(buf) and false when it does
// not.
func lineLen(buf []byte) (int, bool) {
	lf := bytes.IndexByte(buf, '\n')
	before := buf
	if lf >= 0 {
		before = buf[:lf]
	}
	if cr := bytes.IndexByte(before, '\r'); cr >= 0 {
		if cr+1 == lf {
			return lf + 1, true // CRLF
		}
		return cr + 1, true // a lone CR, or one the next read may follow with LF
	}
	if lf >= 0 {
		return lf + 1, true
	}
	return len(buf), false
}

// lateLF places an LF read after a line that ended in the last byte then
// read, a CR: on that line's ending when its event is still open, else
// after the event's bytes when they ended in that CR.
func (s *sseStream) lateLF() {
	if n := len(s.lines); n > 0 {
		s.raw = append(s.raw, '\n')
		s.lines[n-1].next++
		return
	}
	if s.outCR {
		s.out.WriteByte('\n')
	}
}

// addLine appends a line to the current event.
func (s *sseStream) addLine(line []byte) {
	start := len(s.raw)
	s.raw = append(s.raw, line...)
	text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	l := sseLine{start: start, end: start + len(text), next: len(s.raw)}
	switch {
	case bytes.HasPrefix(text, []byte("data:")) || string(text) == "data":
		l.field = fieldData
	case bytes.HasPrefix(text, []byte("event:")) || string(text) == "event":
		l.field = fieldEvent
	}
	s.lines = append(s.lines, l)
}

// value returns the value of a field line: what follows the colon and one
// optional space.
func (s *sseStream) value(l sseLine) []byte {
	text := s.raw[l.start:l.end]
	_, v, _ := bytes.Cut(text, []byte(":"))
	return bytes.TrimPrefix(v, []byte(" "))
}

// dispatch writes the current event, rewritten, and starts the next. An
// event without data (a comment, a lone blank line) goes out as it came,
// and so do the other lines of an event the Rewriter drops.
func (s *sseStream) dispatch() {
	defer func() {
		s.raw, s.lines = s.raw[:0], s.lines[:0]
		b := s.out.Bytes()
		s.outCR = len(b) > 0 && b[len(b)-1] == '\r'
	}()
	var e Event
	datas := 0
	for _, l := range s.lines {
		switch l.field {
		case fieldData:
			if datas == 0 {
				e.Data = s.value(l)
			} else {
				if datas == 1 {
					s.data = append(s.data[:0], e.Data...)
				}
				s.data = append(append(s.data, '\n'), s.value(l)...)
				e.Data = s.data
			}
			datas++
		case fieldEvent:
			e.Name = s.value(l)
		}
	}
	if datas == 0 {
		s.out.Write(s.raw)
		return
	}
	out := s.rw.Event(e)
	for i, ev := range out {
		switch {
		case i != s.rw.out.self:
			s.out.Write(ev.Append(nil))
		case !s.rw.out.changed:
			s.out.Write(s.raw)
		default:
			s.writeReplaced(e, ev)
		}
	}
	if s.rw.out.self < 0 {
		s.writeOtherLines()
	}
}

// writeOtherLines writes what the current event, which the Rewriter
// dropped, holds besides its name and data: its comments and its id and
// retry lines, which a client reads even from an event without data,
// ended by the event's blank line.
func (s *sseStream) writeOtherLines() {
	wrote := false
	for i, l := range s.lines {
		blank := l.end == l.start
		if l.field == fieldOther && (!blank || wrote && i == len(s.lines)-1) {
			s.out.Write(s.raw[l.start:l.next])
			wrote = true
		}
	}
}

// writeReplaced writes the current event with its data (and its name,
// when that changed) replaced by ev's, every other line as it came. The
// data goes where the first data line was, a data line for each of its
// lines; the last ends as the event's last data line ended.
func (s *sseStream) writeReplaced(in, ev Event) {
	sameName := bytes.Equal(in.Name, ev.Name) && (in.Name == nil) == (ev.Name == nil)
	var lastEnding []byte
	for _, l := range s.lines {
		if l.field == fieldData {
			lastEnding = s.raw[l.end:l.next]
		}
	}
	wrote := false
	for _, l := range s.lines {
		ending := s.raw[l.end:l.next]
		switch {
		case l.field == fieldEvent && !sameName:
		case l.field == fieldData && wrote:
		case l.field == fieldData:
			if !sameName && ev.Name != nil {
				s.out.WriteString("event: ")
				s.out.Write(ev.Name)
				s.out.WriteString(lineEnding(ending))
			}
			data := ev.Data
			if last := bytes.LastIndexByte(data, '\n'); last >= 0 {
				s.out.Write(appendDataLines(nil, data[:last], lineEnding(ending)))
				data = data[last+1:]
			}
			s.out.WriteString("data: ")
			s.out.Write(data)
			s.out.Write(lastEnding)
			wrote = true
		default:
			s.out.Write(s.raw[l.start:l.next])
		}
	}
}

// lineEnding is the ending a line the stream adds takes after a line that
// ended with ending: the same, or "\n" after the last line of a stream
// that ended without one.
func lineEnding(ending []byte) string {
	if len(ending) == 0 {
		return "\n"
	}
	return string(ending)
}
