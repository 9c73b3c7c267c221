package marker

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning/internal/work"
)

// event is one thing a Scanner reports: text (held or new) or a marker.
type event struct {
	Text   string
	Marker int // -1 for text
}

// addText appends text t to events, merged with a text event that ends
// them.
func addText(events []event, t string) []event {
	if t == "" {
		return events
	}
	if n := len(events); n > 0 && events[n-1].Marker < 0 {
		events[n-1].Text += t
		return events
	}
	return append(events, event{t, -1})
}

// nextAll returns what Next gives until it finds no marker: the texts,
// joined, and the markers, as events.
func nextAll(s *Scanner) []event { return appendNext(nil, s) }

// appendNext is nextAll, appending to events.
func appendNext(events []event, s *Scanner) []event {
	for {
		held, before, k := s.Next()
		events = addText(addText(events, held), before)
		if k < 0 {
			return events
		}
		events = append(events, event{Marker: k})
	}
}

// scan feeds deltas through a fresh Scanner watching markers and returns
// the text and markers it reports, adjacent text merged, plus the most bytes
// it held between deltas.
func scan(markers []string, deltas []string) (events []event, maxHeld int) {
	var s Scanner
	s.Reset(markers)
	return drive(&s, deltas, false, false, nil)
}

// drive feeds deltas through s as a stream's shell does and returns what
// scan does. With quiet, a byte held that the delta shows to be text is
// taken first (Drop), a delta Quiet passes is taken as text and not fed,
// one that goes on with the one marker held text begins is Step's, and
// where Step reports false a byte held is taken as text when DropMissed
// returns it.
// With release, Release, HoldWhole and Plain are tried first, as
// shell.release tries them where text goes direct and a delta is not
// quiet. found, if not nil, is told of each marker as Next reports it.
func drive(s *Scanner, deltas []string, quiet, release bool, found func(k int)) (events []event, maxHeld int) {
	text := func(t string) { events = addText(events, t) }
	for _, d := range deltas {
		if release {
			if h, ok := s.Release(d); ok {
				text(h)
				text(d)
				continue
			}
			if s.HoldWhole(d) {
				maxHeld = max(maxHeld, len(s.Held()))
				continue
			}
			if s.Plain(d) {
				text(d)
				continue
			}
		}
		if quiet {
			text(s.Drop(d))
			if s.Quiet(d) {
				text(d)
				continue
			}
		}
		held, before, k := "", "", -1
		stepped := false
		if quiet {
			k, stepped = s.Step(d)
		}
		if !stepped {
			if quiet {
				text(s.DropMissed())
			}
			s.Feed(d)
			held, before, k = s.Next()
		}
		for {
			text(held)
			text(before)
			if k < 0 {
				break
			}
			events = append(events, event{Marker: k})
			if found != nil {
				found(k)
			}
			held, before, k = s.Next()
		}
		maxHeld = max(maxHeld, len(s.Held()))
	}
	text(s.Flush())
	return events, maxHeld
}

var scanTests = []struct {
	name    string
	markers []string
	input   string
	want    []event
}{
	{"empty", []string{"</think>"}, "", nil},
	{"no marker", []string{"</think>"}, "plain text", []event{{"plain text", -1}}},
	{"one marker", []string{"</think>"}, "a</think>b", []event{{"a", -1}, {"", 0}, {"b", -1}}},
	{"marker first and last", []string{"</think>"}, "</think>x</think>", []event{{"", 0}, {"x", -1}, {"", 0}}},
	{"two markers, earliest wins", []string{"</think>", "<tool_call>"}, "a<tool_call>b</think>c",
		[]event{{"a", -1}, {"", 1}, {"b", -1}, {"", 0}, {"c", -1}}},
	{"adjacent markers", []string{"<think>", "</think>"}, "<think></think>", []event{{"", 0}, {"", 1}}},
	{"prefix at end is text", []string{"</think>"}, "a</th", []event{{"a</th", -1}}},
	{"lookalikes", []string{"</think>"}, "</thinK></thin <</think>", []event{{"</thinK></thin <", -1}, {"", 0}}},
	{"repeated first byte", []string{"<<x>"}, "<<<<x>", []event{{"<<", -1}, {"", 0}}},
	{"unicode marker", []string{"◁/think▷"}, "思考◁/think▷答", []event{{"思考", -1}, {"", 0}, {"答", -1}}},
	{"invalid utf-8", []string{"</think>"}, "\xff\xfe</think>\xc3", []event{{"\xff\xfe", -1}, {"", 0}, {"\xc3", -1}}},
}

// TestScanChunkings checks every case under every cut into two and three
// pieces and per byte: the events never depend on where deltas end.
func TestScanChunkings(t *testing.T) {
	for _, tt := range scanTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, deltas := range cuts(tt.input) {
				got, maxHeld := scan(tt.markers, deltas)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Fatalf("deltas %q: mismatch (-want +got):\n%s", deltas, diff)
				}
				if limit := longest(tt.markers) - 1; maxHeld > limit {
					t.Fatalf("deltas %q: held %d bytes, more than %d", deltas, maxHeld, limit)
				}
				var s Scanner
				s.Reset(tt.markers)
				if got, _ := drive(&s, deltas, true, true, nil); !cmp.Equal(tt.want, got) {
					t.Fatalf("deltas %q, Release first: mismatch (-want +got):\n%s", deltas, cmp.Diff(tt.want, got))
				}
			}
		})
	}
}

// TestRelease checks Release, HoldWhole and Plain, tried first as the shell
// tries them, against the one-shot reference, for every cut of texts where
// held text is text after all, a marker begins later in held text, and a
// delta begins a marker or has the markers' first byte and none.
func TestRelease(t *testing.T) {
	for _, tt := range []struct {
		markers []string
		input   string
	}{
		{[]string{"<<x>", "x>y"}, "<<<x>a<< b<x<<x>"},
		{[]string{"<think>", "</think>", "to="}, "<th a</thi to<think>t<thinkk</think>"},
		{[]string{"<think>", "</think>"}, "a<tool_call>b</ c<thi d</think>\n<"},
	} {
		want := reference(tt.markers, tt.input)
		for _, deltas := range cuts(tt.input) {
			var s Scanner
			s.Reset(tt.markers)
			if got, _ := drive(&s, deltas, true, true, nil); !cmp.Equal(want, got) {
				t.Fatalf("markers %q, deltas %q: mismatch (-want +got):\n%s", tt.markers, deltas, cmp.Diff(want, got))
			}
		}
	}
}

// cuts returns input whole, per byte, and cut at every one and two places.
func cuts(input string) [][]string {
	all := [][]string{{input}, strings.Split(input, "")}
	for i := 0; i <= len(input); i++ {
		for j := i; j <= len(input); j++ {
			all = append(all, []string{input[:i], input[i:j], input[j:]})
		}
	}
	return all
}

func longest(markers []string) int {
	n := 0
	for _, m := range markers {
		n = max(n, len(m))
	}
	return n
}

// TestConservation is html's TestPassthrough for the scanner: on random
// text made of marker pieces, the reported text and markers give the input
// back byte for byte, for random chunkings, and match a one-shot reference.
func TestConservation(t *testing.T) {
	markers := []string{"<think>", "</think>", "<tool_call>", "◁/think▷"}
	alphabet := []string{"<", "/", "think", ">", "</", "<think", "tool_call>", "◁", "/think▷", "a", "é", "\xff", " ", "\n", "<tool"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		input := randomText(r, alphabet, 20)
		want := reference(markers, input)
		deltas := randomCuts(r, input, 6)
		got, _ := scan(markers, deltas)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("input %q deltas %q: mismatch (-want +got):\n%s", input, deltas, diff)
		}
		var back strings.Builder
		for _, e := range got {
			if e.Marker >= 0 {
				back.WriteString(markers[e.Marker])
			}
			back.WriteString(e.Text)
		}
		if back.String() != input {
			t.Fatalf("input %q: pieces give %q back", input, back.String())
		}
	}
}

// TestConservationLong is TestConservation on long deltas, where the
// scanner searches for the prefix its active markers share and falls back
// to a search per marker in text where that prefix comes often without a
// marker: marker sets with a shared prefix ("<|"), with one first byte and
// with several, whole inputs and deltas of up to 100 bytes, inputs thick
// with the markers' first bytes.
func TestConservationLong(t *testing.T) {
	sets := []struct {
		markers, alphabet []string
	}{
		{[]string{"<|start|>", "<|channel|>", "<|message|>", "<|end|>"},
			[]string{"<|", "<", "|", "start|>", "channel|>", "message|>", "end|>", "<|end", "a", "analysis", " ", "\n"}},
		{[]string{"<think>", "</think>", "<tool_call>"},
			[]string{"<", "/", "think", ">", "</", "<think", "tool_call>", "a", "<b", " a<b && c<d ", "\n"}},
		{[]string{"[THINK]", "<think>", "[/THINK]", "</think>"},
			[]string{"[", "<", "/", "THINK]", "think>", "[/", "</", "x", " "}},
	}
	const seed = 3
	r := rand.New(rand.NewPCG(seed, 4))
	for _, set := range sets {
		for range 500 {
			input := randomText(r, set.alphabet, 200)
			want := reference(set.markers, input)
			deltas := []string{input}
			if r.IntN(2) == 0 {
				deltas = randomCuts(r, input, 100)
			}
			got, _ := scan(set.markers, deltas)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("seed %d, markers %q, input %q, deltas %q: mismatch (-want +got):\n%s", seed, set.markers, input, deltas, diff)
			}
		}
	}
}

// TestNextWhole checks NextWhole, which makes index's search itself where
// the active markers share a lead of one byte, against Next on whole
// texts, call by call: the same pieces and markers and, in builds that
// count work (reasoning_work), the same work. The texts are thick with the
// lead, so that the search turns to a search per marker (misses) and stops
// short of the end (short), and the active set changes after each marker.
func TestNextWhole(t *testing.T) {
	sets := [][]string{
		{"<think>", "</think>", "<tool_call>"},
		{"<b>", "<think>", "</think>"},                         // a short marker: a lead near the end is tried
		{"<|start|>", "<|channel|>", "<|message|>", "<|end|>"}, // a lead of two bytes
		{"[THINK]", "<think>", "[/THINK]", "</think>"},         // no lead
	}
	alphabet := []string{"<", "<<<<", "/", "think>", "b>", "tool_call>", "<|", "start|>", "end|>", "[", "[/", "THINK]", " a<b && c<d ", "x", "\n"}
	const seed = 5
	r := rand.New(rand.NewPCG(seed, 6))
	for _, markers := range sets {
		all := uint64(1)<<len(markers) - 1
		for range 1000 {
			input := randomText(r, alphabet, 120)
			var a, b Scanner
			a.Reset(markers)
			b.Reset(markers)
			a.Feed(input)
			b.Feed(input)
			for step := 0; ; step++ {
				w := work.Total()
				held, text, k := a.Next()
				w1 := work.Total() - w
				w = work.Total()
				held2, text2, k2 := b.NextWhole()
				w2 := work.Total() - w
				if held2 != held || text2 != text || k2 != k || w2 != w1 {
					t.Fatalf("seed %d, markers %q, input %q, call %d: NextWhole gives %q, %q, %d, work %d; Next %q, %q, %d, work %d",
						seed, markers, input, step, held2, text2, k2, w2, held, text, k, w1)
				}
				if k < 0 {
					break
				}
				mask := r.Uint64N(all + 1)
				a.SetActive(mask)
				b.SetActive(mask)
			}
			if h, h2 := a.Flush(), b.Flush(); h2 != h {
				t.Fatalf("seed %d, markers %q, input %q: NextWhole leaves %q held, Next %q", seed, markers, input, h2, h)
			}
		}
	}
}

// reference finds markers in the whole input with a plain left-to-right
// search: the earliest marker at each step.
func reference(markers []string, input string) []event {
	all := uint64(1)<<len(markers) - 1
	return referenceMoving(markers, input, func(int) uint64 { return all })
}

// referenceMoving is reference where only the markers of the active set
// count, every marker active at first and the set next(k) after marker k.
func referenceMoving(markers []string, input string, next func(k int) uint64) []event {
	var events []event
	for mask := uint64(1)<<len(markers) - 1; input != ""; {
		pos, k := len(input), -1
		for i, m := range markers {
			if j := strings.Index(input, m); mask&(1<<i) != 0 && j >= 0 && j < pos {
				pos, k = j, i
			}
		}
		if pos > 0 {
			events = append(events, event{input[:pos], -1})
		}
		if k < 0 {
			break
		}
		events = append(events, event{Marker: k})
		input, mask = input[pos+len(markers[k]):], next(k)
	}
	return events
}

// TestSetActive checks that only active markers are found and that held
// text is re-examined when the set changes.
func TestSetActive(t *testing.T) {
	var s Scanner
	s.Reset([]string{"<think>", "</think>"})
	s.SetActive(1 << 1) // only </think>
	s.Feed("<think>a</th")
	if held, before, k := s.Next(); held != "" || before != "<think>a" || k != -1 || s.Held() != "</th" {
		t.Fatalf("Next = %q, %q, %d; held %q", held, before, k, s.Held())
	}
	s.SetActive(1 << 0) // only <think>: the held "</th" can no longer start one
	s.Feed("ink>")
	if held, before, k := s.Next(); held != "</th" || before != "ink>" || k != -1 {
		t.Fatalf("Next = %q, %q, %d", held, before, k)
	}
}

// TestHeldSetActive checks held text across deltas while the active set
// moves between them, as a grammar that moves on text moves it: the markers
// held text may still become are those of the set at the next delta, and
// held text that becomes none is text, up to where another marker starts.
func TestHeldSetActive(t *testing.T) {
	markers := []string{"<|start|>", "<|end|>", "<x>", "|x"}
	const all = 0b1111
	type step struct {
		sets  []uint64 // SetActive with each, before feeding
		delta string
	}
	for _, tt := range []struct {
		name  string
		steps []step
		want  []event
	}{
		{"set drops what was held", []step{{nil, "a<|"}, {[]uint64{1 << 2}, "end|>"}},
			[]event{{"a<|end|>", -1}}},
		{"set adds what is held", []step{{[]uint64{1 << 0}, "a<"}, {[]uint64{all}, "x>b"}},
			[]event{{"a", -1}, {"", 2}, {"b", -1}}},
		{"held grows, then set drops it", []step{{nil, "<|"}, {nil, "e"}, {[]uint64{1 << 0}, "nd|>"}},
			[]event{{"<|end|>", -1}}},
		{"set moves away and back", []step{{nil, "<|s"}, {[]uint64{1 << 1, all}, "tart|>"}},
			[]event{{"", 0}}},
		{"held is text, a marker starts inside it", []step{{nil, "<|"}, {nil, "x"}},
			[]event{{"<", -1}, {"", 3}}},
		{"held is text, grows from inside it", []step{{nil, "a<|"}, {nil, "<|en"}, {nil, "d|>"}},
			[]event{{"a<|", -1}, {"", 1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s Scanner
			s.Reset(markers)
			var got []event
			for _, st := range tt.steps {
				for _, set := range st.sets {
					s.SetActive(set)
				}
				s.Feed(st.delta)
				got = appendNext(got, &s)
			}
			got = addText(got, s.Flush())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		markers []string
		ok      bool
	}{
		{[]string{"<think>", "</think>"}, true},
		{[]string{"<think>", ""}, false},
		{[]string{"think>", "</think>"}, false},
		{[]string{"<a>", "<a>"}, false},
	} {
		if err := Check(tt.markers); (err == nil) != tt.ok {
			t.Errorf("Check(%q) = %v, want ok %v", tt.markers, err, tt.ok)
		}
	}
}

func TestLastIndexAny(t *testing.T) {
	seqs := [][]int{{1}, {2, 3}, {9}}
	for _, tt := range []struct {
		ids    []int
		mask   uint64
		from   int
		pos, k int
	}{
		{[]int{1, 5, 2, 3, 5}, 7, 0, 2, 1},
		{[]int{1, 5, 2, 3, 5}, 1, 0, 0, 0},
		{[]int{1, 5, 2, 3, 5}, 7, 4, -1, -1},
		{[]int{1, 5, 2, 3, 5}, 7, 3, 2, 1}, // a two-token marker straddling from
		{[]int{2}, 7, 0, -1, -1},
		{nil, 7, 0, -1, -1},
	} {
		pos, k := LastIndexAny(tt.ids, seqs, tt.mask, tt.from)
		if pos != tt.pos || k != tt.k {
			t.Errorf("LastIndexAny(%v, mask %b, from %d) = %d, %d; want %d, %d", tt.ids, tt.mask, tt.from, pos, k, tt.pos, tt.k)
		}
	}
}

func BenchmarkScan(b *testing.B) {
	markers := []string{"</think>", "<tool_call>"}
	text := strings.Repeat("The quick brown fox <b>jumps</b> over the lazy dog. ", 20000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		var s Scanner
		s.Reset(markers)
		for i := 0; i < len(text); i += 4 {
			s.Feed(text[i:min(len(text), i+4)])
			for {
				if _, _, k := s.Next(); k < 0 {
					break
				}
			}
		}
	}
}

// BenchmarkScanMarkers feeds text dense in long markers that share a
// prefix (Kimi K3's and Harmony's, as their samples have them) in ~4-byte
// deltas: most markers span several deltas, so the cost is that of held
// partial markers growing and resolving, not of the common quiet delta.
func BenchmarkScanMarkers(b *testing.B) {
	sets := []struct {
		name    string
		markers []string
		text    string
	}{
		{"kimi", []string{"<|open|>think<|sep|>", "<|close|>think<|sep|>", "<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>message<|sep|>"},
			"<|open|>think<|sep|>The user wants to know whether 221 is prime. 221 = 13 × 17.<|close|>think<|sep|><|open|>response<|sep|>No. 221 = 13 × 17.<|close|>response<|sep|><|close|>message<|sep|><|open|>tools<|sep|>"},
		{"harmony", []string{"<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|call|>", "<|return|>", "<|constrain|>"},
			"<|channel|>analysis<|message|>The user asks for the weather in Paris.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>"},
	}
	for _, set := range sets {
		text := strings.Repeat(set.text, 64<<10/len(set.text))
		b.Run(set.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var s Scanner
			for b.Loop() {
				s.Reset(set.markers)
				for i := 0; i < len(text); i += 4 {
					s.Feed(text[i:min(len(text), i+4)])
					for {
						if _, _, k := s.Next(); k < 0 {
							break
						}
					}
				}
				s.Flush()
			}
		})
	}
}

func BenchmarkIndex(b *testing.B) {
	text := strings.Repeat("The quick brown fox <b>jumps</b> over the lazy dog. ", 20000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		strings.Index(text, "</think>")
	}
}

// TestScanPiecesStay checks that the pieces a Scanner returns stay as they
// were returned while it goes on (held text grows across deltas as a
// prefix of a marker's string, not in the deltas): the pieces of seeded random
// text with partial and whole markers, kept as returned and joined only at
// the end, give the input back.
func TestScanPiecesStay(t *testing.T) {
	const seed = 19
	r := rand.New(rand.NewPCG(seed, 2))
	markers := []string{"<|channel|>", "<|message|>", "</think>", "<<x>"}
	for range 300 {
		var in strings.Builder
		for range r.IntN(60) {
			switch mk := markers[r.IntN(len(markers))]; r.IntN(4) {
			case 0:
				in.WriteString(mk)
			case 1:
				in.WriteString(mk[:1+r.IntN(len(mk)-1)]) // a partial marker
			default:
				in.WriteString("ab <|c"[r.IntN(6):])
			}
		}
		input := in.String()
		var s Scanner
		s.Reset(markers)
		var pieces []string
		for i := 0; i < len(input); {
			n := min(len(input)-i, 1+r.IntN(5))
			s.Feed(input[i : i+n])
			i += n
			for {
				held, before, k := s.Next()
				pieces = append(pieces, held, before)
				if k < 0 {
					break
				}
				pieces = append(pieces, markers[k])
			}
		}
		pieces = append(pieces, s.Flush())
		if got := strings.Join(pieces, ""); got != input {
			t.Fatalf("pieces join to %q, want %q (seed %d)", got, input, seed)
		}
	}
}

// fuzzMarkers are the markers FuzzScan chooses from: shared prefixes
// ("<", "<|", and longer ones that part at several bytes, as Inkling's),
// shared first bytes, multi-byte runes and markers whose prefix is
// another's suffix.
var fuzzMarkers = []string{"<think>", "</think>", "<tool_call>", "<|start|>", "<|end|>", "[THINK]", "[/THINK]", "◁think▷", "◁/think▷", "<<x>", "x>y", "\n</answer>",
	"<|content_text|>", "<|content_thinking|>", "<|content_tool_json|>", "<|content_tool_text|>", "<|end_message|>"}

// FuzzScan checks the Scanner against a one-shot reference on any input
// cut into deltas anywhere, with the active set moving after every marker
// the way a grammar moves it: the events are the reference's, and the
// pieces give the input back.
func FuzzScan(f *testing.F) {
	f.Add("a<think>b</think>c<tool_call>d", []byte{3, 1, 7}, uint64(0b111), uint64(0b10_0110))
	f.Add("<|start|>x<|end|><|start|><|e", []byte{40}, uint64(0b11000), uint64(0))
	f.Add("[THINK]a[/THINK]<think>b</think>", []byte{1, 1, 1, 2, 5}, uint64(0b1100011), uint64(0b1011))
	f.Add("◁think▷思◁/think▷答<<<x>x>y\n</answer>", []byte{2, 3}, uint64(0xfff), uint64(0xabc))
	f.Add("<|content_tool_te<|content_toxt|><|content_thinking|>a<|content_tool_json|><|end_me<|end|>", []byte{4, 3, 4, 4, 1, 9, 2}, uint64(0x1f018), uint64(0))
	f.Fuzz(func(t *testing.T, input string, cuts []byte, pick, moves uint64) {
		var markers []string
		for i, mk := range fuzzMarkers {
			if pick&(1<<i) != 0 {
				markers = append(markers, mk)
			}
		}
		if len(markers) == 0 || Check(markers) != nil {
			return
		}
		// next is the active set after marker k: one of a few sets,
		// chosen by moves.
		all := uint64(1)<<len(markers) - 1
		sets := []uint64{all, all &^ 1, all & (moves >> 8), all & 1 << (moves % uint64(len(markers)))}
		next := func(k int) uint64 { return sets[(moves>>(2*k))%4] }

		want := referenceMoving(markers, input, next)

		var deltas []string
		for i, rest := 0, input; rest != ""; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, int(cuts[i]))
			}
			deltas, rest = append(deltas, rest[:n]), rest[n:]
		}
		// The Scanner has watched as many other markers (reversed) before:
		// Reset keeps nothing of them.
		var s Scanner
		other := slices.Clone(markers)
		slices.Reverse(other)
		s.Reset(other)
		for _, d := range deltas {
			s.Feed(d)
			for _, _, k := s.Next(); k >= 0; _, _, k = s.Next() {
			}
		}
		// Then as a stream's shell runs it too: a delta Quiet passes is
		// text, not fed.
		// And, with Release, HoldWhole and Plain first, as it runs where text goes
		// direct with a run held.
		for _, mode := range []struct{ quiet, release bool }{{false, false}, {true, false}, {true, true}} {
			s.Reset(markers)
			got, _ := drive(&s, deltas, mode.quiet, mode.release, func(k int) { s.SetActive(next(k)) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("markers %q, deltas %q, Quiet first %t, Release first %t: mismatch (-want +got):\n%s", markers, deltas, mode.quiet, mode.release, diff)
			}
		}
	})
}

// TestQuiet checks Quiet against Next: a delta Quiet passes is returned
// whole as text of its own, with nothing held, and the Scanner is then as
// Next leaves it. The cases include marker sets whose first bytes differ,
// one of them a common letter (Muse's "to="), where Quiet looks at where a
// marker may start rather than at its first byte alone; short random
// deltas also run Next's search of a short delta by its bytes.
func TestQuiet(t *testing.T) {
	sets := []struct {
		markers, alphabet []string
		quiet, loud       []string // deltas fed first, to a fresh Scanner
	}{
		{[]string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="},
			[]string{"<|", "<", "|", "start|>", "message|>", "eom|>", "t", "o", "=", "to", "the ", "tone", "a", " ", "weather"},
			[]string{"", "the weather", "tone", "a t o", "o=x", "abc"},
			[]string{"<", "at", "a to", "to=x", "x<|eom|>", "a<|", "t"}},
		{[]string{"[THINK]", "<think>", "[/THINK]", "</think>"},
			[]string{"[", "<", "/", "THINK]", "think>", "[/", "</", "x", " ", "a<b"},
			[]string{"x", "a<b", "[x]"},
			[]string{"[", "a<", "<think>", "[/THINK"}},
	}
	for _, set := range sets {
		for _, d := range set.quiet {
			var s Scanner
			s.Reset(set.markers)
			if !s.Quiet(d) {
				t.Errorf("markers %q: Quiet(%q) = false, want true", set.markers, d)
			}
		}
		for _, d := range set.loud {
			var s Scanner
			s.Reset(set.markers)
			if s.Quiet(d) {
				t.Errorf("markers %q: Quiet(%q) = true, want false", set.markers, d)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, set := range sets {
		what := fmt.Sprintf("markers %q", set.markers)
		for range 1000 {
			input := randomText(r, set.alphabet, 30)
			want := reference(set.markers, input)
			deltas := randomCuts(r, input, 8)
			var s Scanner
			s.Reset(set.markers)
			got := scanQuiet(t, &s, deltas, nil, what)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("markers %q, input %q, deltas %q: mismatch (-want +got):\n%s", set.markers, input, deltas, diff)
			}
		}
	}
}

// TestQuietWord checks Quiet, which reads a short delta as a word, against
// its contract (quietRef): for markers that share a first byte c (the NUL
// byte, ASCII, a byte with its high bit set), every delta of up to 12 bytes
// with c at one place or at none, among bytes that differ from c or from
// the markers' second bytes by a bit (where a word's arithmetic could
// carry), or are those second bytes. Quiet may report false for a delta
// with c, never true for one quietRef reports false for.
func TestQuietWord(t *testing.T) {
	for _, c := range []byte{0, 1, '<', 0x7f, 0x80, 0xef, 0xff} {
		markers := []string{string([]byte{c, 'a'}), string([]byte{c, 'b', 'c'})}
		for _, fill := range []byte{c ^ 1, c ^ 0x80, c + 1, c - 1, 0, 0xff, 'a', 'b', 'a' ^ 1, 'b' - 1} {
			if fill == c {
				continue
			}
			for n := 0; n <= 12; n++ {
				for at := -1; at < n; at++ {
					b := bytes.Repeat([]byte{fill}, n)
					if at >= 0 {
						b[at] = c
					}
					d := string(b)
					want := quietRef(markers, d)
					var s Scanner
					s.Reset(markers)
					if got := s.Quiet(d); got != want && (got || strings.IndexByte(d, c) < 0) {
						t.Errorf("c %#x: Quiet(%q) = %t, want %t", c, d, got, want)
					}
				}
			}
		}
	}
}

// quietRef is Quiet's contract for a fresh Scanner watching markers: no
// marker starts in d, whole or cut short by its end.
func quietRef(markers []string, d string) bool {
	for i := range len(d) {
		for _, mk := range markers {
			if strings.HasPrefix(d[i:], mk) || strings.HasPrefix(mk, d[i:]) {
				return false
			}
		}
	}
	return true
}

// TestQuietSecond checks Quiet's word test of a delta of 4 to 8 bytes where
// the markers share a first byte and go on from it with one or two bytes
// (only's second and third bytes), against quietRef, for every such delta
// (of 4 and 5 bytes; longer ones at random) over the markers' first two
// bytes and bytes that differ from them by a bit: it reports true for none
// that quietRef reports false for, and true for the deltas with the first
// byte once, followed by a byte that is neither second byte nor one of
// those next to them in value, as a rule.
func TestQuietSecond(t *testing.T) {
	for _, c := range []struct {
		markers []string
		on      bool // the test is on
	}{
		{[]string{"<think>", "</think>", "<tool_call>"}, true},
		{[]string{"<|a|>", "<|b|>"}, true},
		{[]string{"\x00\x01", "\x00\x02x"}, true}, // bytes where a word's borrow turns
		{[]string{"\xff\x01", "\xff\xfe"}, true},
		{[]string{"<a", "<b", "<c"}, false}, // three second bytes
		{[]string{"<a", "<\x00x"}, false},   // a NUL second byte
	} {
		var s Scanner
		s.Reset(c.markers)
		if on := s.only > 0xff; on != c.on {
			t.Fatalf("markers %q: second test %t, want %t", c.markers, on, c.on)
		}
		first := c.markers[0][0]
		alphabet := []byte{first, first ^ 1, 'x'}
		var seconds []byte
		for _, mk := range c.markers {
			if !bytes.Contains(seconds, []byte{mk[1]}) {
				seconds = append(seconds, mk[1])
			}
		}
		for _, d := range seconds {
			alphabet = append(alphabet, d, d^1, d+1, d-1)
		}
		took := 0
		check := func(d string) {
			if got := s.Quiet(d); got && !quietRef(c.markers, d) {
				t.Fatalf("markers %q: Quiet(%q) = true, want false", c.markers, d)
			} else if got && strings.IndexByte(d, first) >= 0 {
				took++
			}
		}
		for n := 4; n <= 5; n++ { // every delta
			b := make([]byte, n)
			var each func(i int)
			each = func(i int) {
				if i == n {
					check(string(b))
					return
				}
				for _, a := range alphabet {
					b[i] = a
					each(i + 1)
				}
			}
			each(0)
		}
		r := rand.New(rand.NewPCG(9, 10))
		for range 100000 { // longer ones at random
			b := make([]byte, 6+r.IntN(3))
			for i := range b {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
			check(string(b))
		}
		// One first byte, mid-delta, followed by 'x' (not a second byte).
		for _, d := range []string{string([]byte{'x', first, 'x', 'x'}), string([]byte{first, 'x', 'x', 'x', 'x', 'x', 'x'})} {
			if got := s.Quiet(d); got != c.on {
				t.Errorf("markers %q: Quiet(%q) = %t, want %t", c.markers, d, got, c.on)
			}
		}
		if c.on && took == 0 {
			t.Errorf("markers %q: Quiet reported true for no delta with the first byte", c.markers)
		}
	}
}

// TestQuietPair checks Quiet's word test for markers that begin with two
// bytes (Mistral's "[" and "<") against its byte loop, the test off: every
// delta of up to 12 bytes with either byte, or both, at one place or at
// none, among bytes that differ from them by a bit (where a word's
// arithmetic could carry).
func TestQuietPair(t *testing.T) {
	for _, p := range [][2]byte{{'[', '<'}, {1, 0}, {0x7f, 0x80}, {0xfe, 0xff}, {'a', 'a' ^ 0x80}} {
		markers := []string{string([]byte{p[0], 'a'}), string([]byte{p[1], 'b', 'c'}), string([]byte{p[0], 'd', 'e'})}
		for _, fill := range []byte{p[0] ^ 1, p[1] ^ 1, p[0] ^ 0x80, p[1] + 1, p[0] - 1, 'a', 0, 0xff} {
			if fill == p[0] || fill == p[1] {
				continue
			}
			for n := 0; n <= 12; n++ {
				for at := -1; at < n; at++ {
					for _, c := range p {
						b := bytes.Repeat([]byte{fill}, n)
						if at >= 0 {
							b[at] = c
						}
						if n > 1 && at != 0 {
							b[0] = p[1]
						}
						d := string(b)
						var s, loop Scanner
						s.Reset(markers)
						loop.Reset(markers)
						if s.pair[0] == 0 {
							t.Fatalf("markers %q: no pair", markers)
						}
						loop.pair = [2]uint64{}
						if got, want := s.Quiet(d), loop.Quiet(d); got != want {
							t.Errorf("markers %q: Quiet(%q) = %t, want %t", markers, d, got, want)
						}
					}
				}
			}
		}
	}
}

// TestQuietPairSecond checks Quiet's word tests of a delta of 4 to 8 bytes
// where the markers begin with two bytes, the second test (only < -1) where
// the markers that begin with each go on with one byte (Muse's "<|" and
// "to="), against its byte test, for every such delta over the markers'
// bytes and one other.
func TestQuietPairSecond(t *testing.T) {
	for _, c := range []struct {
		markers []string
		second  bool // the second test is on
	}{
		{[]string{"<|start|>", "<|eom|>", "to="}, true},
		{[]string{"\x01\x02", "\xff\x01x"}, true}, // bytes where a word's borrow turns
		{[]string{"<|a", "to=", "tx"}, false},     // "t" goes on with two bytes
		{[]string{"<|a", "t", "<|b"}, false},      // "t" is a marker of a byte
		{[]string{"[A", "[B", "</s>"}, false},     // "[" goes on with two bytes, "<" with one (Mistral's)
		{[]string{"<\x00", "<|a", "to="}, false},  // "<" goes on with two bytes, the first NUL
	} {
		markers := c.markers
		var s, loop Scanner
		s.Reset(markers)
		loop.Reset(markers)
		if s.pair[0] == 0 {
			t.Fatalf("markers %q: no pair", markers)
		}
		if on := s.only < -1; on != c.second {
			t.Fatalf("markers %q: second test on = %t, want %t", markers, on, c.second)
		}
		loop.pair = [2]uint64{}
		var alphabet []byte
		for _, mk := range markers {
			for i := 0; i < len(mk) && i < 2; i++ {
				if bytes.IndexByte(alphabet, mk[i]) < 0 {
					alphabet = append(alphabet, mk[i])
				}
			}
		}
		alphabet = append(alphabet, 'x', 0)
		b := make([]byte, 8)
		var gen func(n, i int)
		gen = func(n, i int) {
			if i == n {
				d := string(b[:n])
				if got, want := s.Quiet(d), loop.Quiet(d); got != want {
					t.Fatalf("markers %q: Quiet(%q) = %t, want %t", markers, d, got, want)
				}
				return
			}
			for _, c := range alphabet {
				b[i] = c
				gen(n, i+1)
			}
		}
		for n := 4; n <= 8; n++ {
			gen(n, 0)
		}
	}
}

// TestParts checks the scan of markers cut short by a delta's end where
// the markers part after a shared prefix at up to 8 bytes, and at more
// (where the scanner tries each), against the reference, on random text
// cut into short deltas.
func TestParts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{2, 3, 8, 9, 12} {
		var markers, alphabet []string
		for i := range n {
			mk := fmt.Sprintf("<|%c%s|>", 'a'+i, strings.Repeat("x", i%3))
			markers = append(markers, mk)
			alphabet = append(alphabet, mk, mk[:len(mk)-1], mk[:3])
		}
		markers = append(markers, "<|ab|>", "<|b|>x") // parting again after "<|a" and after "<|b"
		alphabet = append(alphabet, "<", "<|", "|", ">", "a", "x", " ")
		if err := Check(markers); err != nil {
			t.Fatal(err)
		}
		for range 2000 {
			input := randomText(r, alphabet, 20)
			want := reference(markers, input)
			got, _ := scan(markers, randomCuts(r, input, 5))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("markers %q, input %q: mismatch (-want +got):\n%s", markers, input, diff)
			}
		}
	}
}

// randomText joins up to n-1 pieces of alphabet drawn by r.
func randomText(r *rand.Rand, alphabet []string, n int) string {
	var b strings.Builder
	for range r.IntN(n) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// randomCuts cuts input into deltas of up to n-1 bytes drawn by r (empty
// ones included).
func randomCuts(r *rand.Rand, input string, n int) []string {
	var deltas []string
	for i := 0; i < len(input); {
		k := min(len(input)-i, r.IntN(n))
		deltas = append(deltas, input[i:i+k])
		i += k
	}
	return deltas
}

// scanQuiet feeds deltas to s and returns what Next gives, adjacent text
// joined, then what Flush gives. After a marker k it makes next(k) the
// active set, when next is not nil. It fails t, naming what (the markers),
// where Quiet said a delta holds no marker and Next did not give the delta
// back whole as text, or s holds some of it.
func scanQuiet(t *testing.T, s *Scanner, deltas []string, next func(int) uint64, what string) []event {
	t.Helper()
	var got []event
	for _, d := range deltas {
		quiet := s.Quiet(d)
		s.Feed(d)
		var pieces []event
		for {
			held, before, k := s.Next()
			pieces = addText(addText(pieces, held), before)
			got = addText(addText(got, held), before)
			if k < 0 {
				break
			}
			pieces = append(pieces, event{Marker: k})
			got = append(got, event{Marker: k})
			if next != nil {
				s.SetActive(next(k))
			}
		}
		if quiet && d != "" && (s.Held() != "" || len(pieces) != 1 || pieces[0].Text != d) {
			t.Fatalf("%s, deltas %q: Quiet(%q) = true, but Next gives %v and holds %q", what, deltas, d, pieces, s.Held())
		}
	}
	return addText(got, s.Flush())
}

// TestQuietServesOneDelta checks that what Quiet found in a delta is used
// for that delta alone: a caller that reuses a buffer behind its deltas
// (unsafe.String), breaking the rule that a string's bytes never change,
// gets the next delta, at the same address and of the same length, read
// afresh.
func TestQuietServesOneDelta(t *testing.T) {
	markers := []string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="}
	buf := []byte("x<|eom|>")
	var s Scanner
	s.Reset(markers)
	var got []event
	drain := func() {
		for {
			held, before, k := s.Next()
			// Copies: the pieces share the buffer, rewritten below.
			got = addText(addText(got, strings.Clone(held)), strings.Clone(before))
			if k < 0 {
				return
			}
			got = append(got, event{Marker: k})
		}
	}
	d := unsafe.String(&buf[0], len(buf))
	if s.Quiet(d) {
		t.Fatalf("Quiet(%q) = true, want false", d)
	}
	s.Feed(d)
	drain()
	copy(buf, "<|eom|>y")
	s.Feed(unsafe.String(&buf[0], len(buf)))
	drain()
	got = addText(got, s.Flush())
	want := []event{{"x", -1}, {Marker: 2}, {Marker: 2}, {"y", -1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestQuietShort checks Quiet's answer against a look at every offset, for
// deltas of up to 33 bytes: exactly where the active markers do not all
// begin with one byte, so that it looks at each byte of a delta of up to
// 32 (false beyond), and never true for a delta in which one begins
// elsewhere. The sets include one with a marker one byte long, and
// SetActive's sets besides Reset's.
func TestQuietShort(t *testing.T) {
	sets := []struct{ markers, alphabet []string }{
		{[]string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="},
			[]string{"<|", "<", "|", "start|>", "eom|>", "t", "o", "=", "to", "ot", "the ", "a", " ", "x", "\xff"}},
		{[]string{"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]", "<|end|>", "</s>"},
			[]string{"[", "<", "/", "[END", "</s", "</s>", "<|end|>", "x", " ", "s>"}},
		{[]string{"ab=", "<x>", "[y]", "z"},
			[]string{"a", "b", "=", "<", "x", ">", "[", "y", "]", "z", "q"}},
		{[]string{"to=", "ok:", "<b>", "<c"},
			[]string{"t", "o", "k", "=", ":", "<", "b", ">", "c", "to", "ok", "q", " "}},
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, set := range sets {
		var all uint64 = 1<<len(set.markers) - 1
		for _, mask := range []uint64{all, all &^ 1, all &^ (1 << (len(set.markers) - 1))} {
			var s Scanner
			s.Reset(set.markers)
			s.SetActive(mask)
			for range 3000 {
				d := randomText(r, set.alphabet, 40)
				d = d[:min(len(d), r.IntN(34))]
				want := len(d) <= 32 || s.only >= 0
				for i := range len(d) {
					for k, mk := range set.markers {
						if mask&(1<<k) != 0 && (strings.HasPrefix(d[i:], mk) || strings.HasPrefix(mk, d[i:])) {
							want = false
						}
					}
				}
				if got := s.Quiet(d); got != want && (got || s.only < 0) { // false is allowed where they do
					t.Fatalf("markers %q, set %#x: Quiet(%q) = %t, want %t", set.markers, mask, d, got, want)
				}
			}
		}
	}
}

// againstTwin streams random texts of alphabet, cut at random, through
// a Scanner watching markers that tries try on each delta and a twin fed
// every delta: where try takes a delta (it has checked what it returns
// against the twin's Next, tw, and its held text before, heldBefore), the
// Scanner gives the text try returns, else it is fed the delta as the
// twin is; an error from try fails the test, naming the input and cuts. After each delta both hold the same, and in all both give what
// reference gives. It returns how many deltas try took.
func againstTwin(t *testing.T, markers, alphabet []string, seed uint64, try func(s *Scanner, d, heldBefore string, tw []event, twin *Scanner) (string, bool, error)) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	took := 0
	for range 2000 {
		input := randomText(r, alphabet, 30)
		want := reference(markers, input)
		deltas := randomCuts(r, input, 8)
		var s, twin Scanner
		s.Reset(markers)
		twin.Reset(markers)
		var got []event
		for _, d := range deltas {
			heldBefore := twin.Held()
			twin.Feed(d)
			tw := nextAll(&twin)
			text, ok, err := try(&s, d, heldBefore, tw, &twin)
			if err != nil {
				t.Fatalf("input %q, deltas %q: %v", input, deltas, err)
			}
			if ok {
				took++
				got = addText(got, text)
				continue
			}
			s.Feed(d)
			got = appendNext(got, &s)
			if s.Held() != twin.Held() {
				t.Fatalf("input %q, deltas %q: after %q holds %q, twin %q", input, deltas, d, s.Held(), twin.Held())
			}
		}
		got = addText(got, s.Flush())
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("input %q, deltas %q: mismatch (-want +got):\n%s", input, deltas, diff)
		}
	}
	return took
}

// TestHoldEnd checks HoldEnd against Feed and Next (againstTwin): a
// Scanner that tries HoldEnd after each false Quiet reports true exactly
// where the twin's Next finds no marker and holds an end of the delta
// with nothing held before it.
func TestHoldEnd(t *testing.T) {
	markers := []string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="}
	alphabet := []string{"<|", "<", "|", "start|>", "message|>", "eom|>", "t", "o", "=", "to", "the ", "tone", "a", " ", "weather"}
	took := againstTwin(t, markers, alphabet, 9, func(s *Scanner, d, heldBefore string, tw []event, twin *Scanner) (string, bool, error) {
		if s.Quiet(d) {
			return "", false, nil
		}
		text, ok := s.HoldEnd(d)
		if ok && (heldBefore != "" || twin.Held() == "" || len(tw) > 1 || text+twin.Held() != d || s.Held() != twin.Held() || (len(tw) == 1 && tw[0].Text != text)) {
			return "", false, fmt.Errorf("HoldEnd(%q) = %q, but Next gives %v and holds %q", d, text, tw, twin.Held())
		}
		return text, ok, nil
	})
	if took == 0 {
		t.Fatal("HoldEnd never took a delta")
	}
}

// TestHoldTail checks HoldTail against Feed and Next (againstTwin): a
// Scanner that tries HoldTail on each delta (markers that share a first
// byte, as a header's) reports true exactly where the twin's Next finds no
// marker and holds all of the delta from its first "<" on, with nothing
// held before it.
func TestHoldTail(t *testing.T) {
	markers := []string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>"}
	alphabet := []string{"<|", "<", "|", "start|>", "sta", "message|>", "me", "eom|>", "eo", "t", "o", "=", "to", " ", "weather"}
	took := againstTwin(t, markers, alphabet, 13, func(s *Scanner, d, heldBefore string, tw []event, twin *Scanner) (string, bool, error) {
		lt := strings.IndexByte(d, '<')
		text, ok := s.HoldTail(d)
		if ok && (heldBefore != "" || len(tw) > 1 || lt < 0 || text != d[:lt] || twin.Held() != d[lt:] || s.Held() != twin.Held() || (len(tw) == 1 && tw[0].Text != text)) {
			return "", false, fmt.Errorf("HoldTail(%q) = %q, but Next gives %v and holds %q", d, text, tw, twin.Held())
		}
		if !ok && heldBefore == "" && lt >= 0 && twin.Held() == d[lt:] && (len(tw) == 0 || len(tw) == 1 && tw[0].Text == d[:lt]) {
			return "", false, fmt.Errorf("HoldTail(%q) refused, but Next gives %v and holds %q", d, tw, twin.Held())
		}
		return text, ok, nil
	})
	if took == 0 {
		t.Fatal("HoldTail never took a delta")
	}
}

// TestStep checks Step against Feed and Next: on random deltas, a Scanner
// that tries Step on each delta returns what a twin fed every delta
// returns and holds what it holds, and Step reports true only where the
// twin's Next returns no text.
func TestStep(t *testing.T) {
	markers := []string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="}
	alphabet := []string{"<|", "<", "|", ">", "start|>", "message", "message|>", "eom|>", "eo", "t", "o", "=", "to", "the ", "a", "weather"}
	r := rand.New(rand.NewPCG(11, 12))
	took, ended := 0, 0
	for range 2000 {
		input := randomText(r, alphabet, 30)
		deltas := randomCuts(r, input, 8)
		var s, twin Scanner
		s.Reset(markers)
		twin.Reset(markers)
		for _, d := range deltas {
			twin.Feed(d)
			tw := nextAll(&twin)
			var got []event
			held, before, k, ok := "", "", -1, false
			if k, ok = s.Step(d); ok {
				took++
				if k >= 0 {
					ended++
				}
			} else {
				s.Feed(d)
				held, before, k = s.Next()
			}
			for {
				got = addText(addText(got, held), before)
				if k < 0 {
					break
				}
				got = append(got, event{Marker: k})
				held, before, k = s.Next()
			}
			if diff := cmp.Diff(tw, got); diff != "" || s.Held() != twin.Held() {
				t.Fatalf("input %q, deltas %q: after %q holds %q, twin %q; mismatch (-twin +got):\n%s", input, deltas, d, s.Held(), twin.Held(), diff)
			}
		}
		if s.Flush() != twin.Flush() {
			t.Fatalf("input %q, deltas %q: flushes differ", input, deltas)
		}
	}
	if took == 0 || ended == 0 {
		t.Fatalf("Step took %d deltas, ended a marker in %d", took, ended)
	}
}

// TestIndexFar checks indexFar against strings.Index on random texts of up
// to a few times farText, from alphabets where the marker's first byte
// comes often without the rest (so that the fallback to strings.Index is
// taken) and rarely, for markers and shared prefixes of 2 to 9 bytes.
func TestIndexFar(t *testing.T) {
	seed := uint64(20261205)
	r := rand.New(rand.NewPCG(seed, 1))
	cases := []struct {
		mk       string
		alphabet []string
	}{
		{"</think>", []string{"<", "</", "</think", "</think>", "a", "b c ", "\n", "<think>"}},
		{"<|", []string{"<", "|", "<|", "x", "yz", " "}},
		{"<|end|>", []string{"<|end|", "<|end", "<", "|>", "e", "text "}},
		{"[THINK]", []string{"[", "[THINK", "[THINK]", "]", "word "}},
		{"ab", []string{"a", "b", "aab", "ba"}},
	}
	for _, c := range cases {
		for range 300 {
			text := randomText(r, c.alphabet, 3*farText/2)
			if got, want := indexFar(text, c.mk), strings.Index(text, c.mk); got != want {
				t.Fatalf("seed %d: indexFar(%q..., %q) = %d, strings.Index %d (len %d)", seed, text[:min(len(text), 40)], c.mk, got, want, len(text))
			}
		}
	}
}

// TestHoldTailSets checks HoldTail against Feed and Next where the active
// set moves among subsets of markers that share a first byte, one marker
// alone among them (where the lead is the whole marker, which HoldTail must
// not hold), and among markers that part after their lead at more than 8
// bytes (parted then answers all of them): after each delta, a Scanner
// that tries HoldTail first has given what a twin fed every delta gives,
// and holds what it holds, with the same candidates.
func TestHoldTailSets(t *testing.T) {
	many := []string{"<a>", "<b|>", "<c|x>", "<d>", "<e>", "<f>", "<g>", "<h>", "<i>", "<j>"}
	for _, tc := range []struct {
		markers, alphabet []string
	}{
		{[]string{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>"},
			[]string{"<|", "<", "|", "start|>", "sta", "message|>", "me", "eom|>", "eo", "t", "x", "|>", "<|eot|>"}},
		{many, []string{"<", "a", "b|", "c|", "x", ">", "d>", "j", "<c|x", "<b", "-", "<a>", "<d>"}},
	} {
		r := rand.New(rand.NewPCG(27, uint64(len(tc.markers))))
		all := uint64(1)<<len(tc.markers) - 1
		took, tookOne := 0, 0
		for range 3000 {
			input := randomText(r, tc.alphabet, 30)
			deltas := randomCuts(r, input, 8)
			var s, twin Scanner
			s.Reset(tc.markers)
			twin.Reset(tc.markers)
			var got, want []event
			for _, d := range deltas {
				if r.IntN(3) == 0 {
					mask := all
					switch r.IntN(3) {
					case 0:
						mask = 1 << r.IntN(len(tc.markers))
					case 1:
						mask = r.Uint64() & all
					}
					s.SetActive(mask)
					twin.SetActive(mask)
				}
				twin.Feed(d)
				tw := nextAll(&twin)
				want = append(want, tw...)
				if text, ok := s.HoldTail(d); ok {
					took++
					if bits.OnesCount64(s.Active()) == 1 {
						tookOne++
					}
					if len(tw) > 1 || len(tw) == 1 && (tw[0].Marker >= 0 || tw[0].Text != text) || len(tw) == 0 && text != "" {
						t.Fatalf("markers %q, deltas %q: HoldTail(%q) = %q, but Next gives %v", tc.markers, deltas, d, text, tw)
					}
					got = addText(got, text)
				} else {
					s.Feed(d)
					got = append(got, nextAll(&s)...)
				}
				if s.Held() != twin.Held() || s.Held() != "" && (s.cand != twin.cand || s.candOf != twin.candOf) {
					t.Fatalf("markers %q, deltas %q: after %q holds %q (cand %b), twin %q (cand %b)", tc.markers, deltas, d, s.Held(), s.cand, twin.Held(), twin.cand)
				}
			}
			got, want = addText(got, s.Flush()), addText(want, twin.Flush())
			if diff := cmp.Diff(merged(want), merged(got)); diff != "" {
				t.Fatalf("markers %q, deltas %q: mismatch (-want +got):\n%s", tc.markers, deltas, diff)
			}
		}
		if took == 0 || tookOne == 0 {
			t.Fatalf("markers %q: HoldTail took %d deltas, %d with one marker active", tc.markers, took, tookOne)
		}
	}
}

// merged returns events with adjacent texts joined.
func merged(events []event) []event {
	var out []event
	for _, e := range events {
		if e.Marker < 0 {
			out = addText(out, e.Text)
		} else {
			out = append(out, e)
		}
	}
	return out
}

// TestExtend checks extend, whose deltas of 4 to 8 bytes are compared a
// word at a time, against a byte-by-byte reference: for markers that share
// a prefix and part after it (Cohere's), every proper prefix of each held,
// and deltas that go on with one marker, with another, or with text, of 1
// to 12 bytes.
func TestExtend(t *testing.T) {
	for _, markers := range [][]string{
		{"<|START_THINKING|>", "<|END_THINKING|>", "<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|START_ACTION|>", "<|END_ACTION|>", "<co>", "</co:"},
		{"[THINK]", "[/THINK]", "[TOOL_CALLS]", "<think>", "</think>"},
		// Inkling's: several that part from the lead "<|" with one byte
		// and share more ("<|content_") before they part again.
		{"<|message_model|>", "<|content_text|>", "<|content_thinking|>", "<|content_invoke_tool_json|>", "<|content_invoke_tool_text|>", "<|content_tool_error|>", "<|end_message|>", "<|content_model_end_sampling|>"},
		// Muse's: no shared lead, a group of four that begins with "<|".
		{"<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "to="},
	} {
		var s Scanner
		s.Reset(markers)
		r := rand.New(rand.NewPCG(3, 4))
		for _, mk := range markers {
			for p := 1; p < len(mk); p++ {
				h := mk[:p]
				var cand uint64
				for k, other := range markers {
					if len(other) > p && strings.HasPrefix(other, h) {
						cand |= 1 << k
					}
				}
				var deltas []string
				for _, other := range markers {
					for _, tail := range []string{"", "x", "abcdefgh"} {
						for j := p; j <= len(other); j++ {
							deltas = append(deltas, other[p:j]+tail)
						}
					}
				}
				for range 50 {
					deltas = append(deltas, randomText(r, []string{"<", "|", "_", "S", "T", "A", "R", "E", "N", "D", "THINK", "ING", "RESP", ">", "a", "content", "con", "e", "o", "m", "_t"}, 12))
				}
				for _, b := range deltas {
					if b == "" || len(b) > 12 {
						continue
					}
					wantK, wantMore := -1, uint64(0)
					for k, other := range markers {
						hb := h + b
						switch {
						case cand&(1<<k) == 0:
						case strings.HasPrefix(hb, other):
							wantK = k
						case strings.HasPrefix(other, hb):
							wantMore |= 1 << k
						}
					}
					if wantK >= 0 {
						wantMore = 0
					}
					s.held, s.cand, s.candOf = h, cand, s.active
					if k, more := s.extend(h, b); k != wantK || more != wantMore {
						t.Fatalf("markers %q: extend(%q, %q) = %d, %#x, want %d, %#x", markers, h, b, k, more, wantK, wantMore)
					}
				}
			}
		}
	}
}
