// Package marker finds delimiters in text that arrives in pieces, and in
// sequences of token IDs. Every parser family uses it; none searches text it
// accumulated.
package marker

import (
	"fmt"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/reasoning-go/reasoning/internal/work"
)

// MaxMarkers is the largest number of markers one Scanner can watch.
const MaxMarkers = 64

// Check reports whether markers can be watched by one Scanner: at most
// MaxMarkers, none empty, and none inside another, so that at any position
// of the text at most one marker can start.
func Check(markers []string) error {
	if len(markers) > MaxMarkers {
		return fmt.Errorf("marker: %d markers, more than %d", len(markers), MaxMarkers)
	}
	for i, a := range markers {
		if a == "" {
			return fmt.Errorf("marker: marker %d is empty", i)
		}
		for j, b := range markers {
			if i != j && strings.Contains(b, a) {
				return fmt.Errorf("marker: %q is inside %q", a, b)
			}
		}
	}
	return nil
}

// A Scanner looks for the earliest of a set of markers in text fed to it
// delta by delta. Only the markers in the active set are looked for; the set
// may change between calls to Next.
//
// Between deltas a Scanner holds at most the longest active marker's length
// minus one bytes: a tail of the text that is a proper prefix of an active
// marker. Every other byte is returned by the Next call that reaches it, as a
// substring of the text fed (held bytes that came in several deltas, as the
// same bytes of a marker's string), and Flush returns what is held at the
// end. Feeding text and collecting every piece Next and Flush return,
// markers included, gives the input back byte for byte. Work per delta is
// linear in its length times the number of active markers.
//
// The zero Scanner watches no markers (until Reset, its Quiet may report
// a delta with a NUL byte as not quiet); Reset gives it its set. A Scanner
// must not be copied after first use: it keeps a pointer into itself.
type Scanner struct {
	markers []string // every marker, by index; shared, never modified
	active  uint64   // bit i set: markers[i] is looked for
	// first is the active set's table (tabs[slot]) once table has seen it
	// filled for the set, else nil.
	first *[256]uint8
	// tabs says, for each set SetActive remembers (sets) and for one it
	// does not (Reset's, the last), by first byte, which of the set's
	// markers begins with it: k+1 for marker k when it is the only one,
	// manyFirst when several do, 0 when none. tabOf[i] is the set tabs[i]
	// is filled for, which table brings up to the active set when it is
	// read: a set that changes at every marker of a long delta (Extract) is
	// not paid for there, and a grammar that moves back and forth between a
	// few sets fills each table once.
	tabs  [setsKept + 1][256]uint8
	tabOf [setsKept + 1]uint64
	// seconds[i] is the set of the second bytes of tabs[i]'s markers (bit
	// c%64 of word c/64 for byte c).
	seconds [setsKept + 1][4]uint64
	// parts[i] is where tabs[i]'s markers part: the bytes they have after
	// lead, which all of them share, each with the markers that have it
	// (see parted).
	parts [setsKept + 1]parts
	// groups[i] is, where tabs[i]'s markers share no prefix but several
	// of them begin with one byte and no others share a first byte, those
	// markers: where a held text or a delta begins with that byte, the
	// candidates are they, told apart after their own shared prefix.
	groups [setsKept + 1]group
	// setFacts is the active set's, copied whole from its entry of sets
	// by use (with active and first).
	setFacts
	held  string // proper prefix of an active marker, carried from earlier deltas
	delta string // the current delta
	cur   int    // offset in delta of what Next has not reached yet

	// next[k] is where marker k next occurs in delta at or after the offset
	// it was looked for from (len(delta) when nowhere), or where it does
	// not occur before (loose), valid while its bit in known is set and it
	// is not behind cur. It spares a search per
	// marker per Next, which would make a delta with many markers cost its
	// length times their number.
	next  [MaxMarkers]int
	known uint64
	// loose marks the markers of known whose next is only where they do
	// not occur before: a search of several markers that share a first
	// byte (indexGroup) found another of them there, which has the place
	// itself.
	loose uint64

	// sets remembers what SetActive derived for the last few sets (until
	// replaced, the empty set's), the last entry Reset's, each beside its
	// table in tabs, and prevSlot is the entry of the set active
	// before this one, so that a grammar that moves between a few sets at
	// every marker, as one does over a text dense in markers, does not
	// derive them anew each time: most move back and forth between two,
	// which costs SetActive one compare.
	sets     [setsKept + 1]activeSet
	prevSlot int    // the entry of sets of the set active before this one
	setNext  int    // the entry of sets the next new set replaces
	all      uint64 // every marker

	slab *Slab // joins held text with a delta in Flush; nil: one of its own, made when needed

	// missed says that Step, which reported false, found that no active
	// marker begins at the held text's first byte with the delta it was
	// given: the Next after that delta's Feed does not look again, and
	// DropMissed gives a held byte back as text.
	missed bool

	// cand is the set of active markers of which held is a proper prefix,
	// valid while candOf is the active set (0: not known). The next delta
	// then needs only the candidates tried at one offset, and held, equal
	// to a prefix of each of them, grows across deltas as a prefix of the
	// first one's string: no copy of the delta's bytes, and held text that
	// turns out to be text stays valid as it was returned.
	cand   uint64
	candOf uint64

	// seen is what Quiet found last where it answered false: in t, with
	// the set of active, the first place at which an active marker begins,
	// whole (k) or cut short by t's end (cand, k -1). Quiet's false answer
	// is mostly followed by Next on the same delta, whose search (nextShort)
	// then starts from it rather than look again. It serves that delta
	// alone: the Feed after the one that follows Quiet forgets it
	// (fresh), so that a caller who fed a string whose bytes it then
	// rewrote (a reused buffer behind unsafe.String) is not answered for
	// the old bytes.
	seen struct {
		t     string
		of    uint64
		at, k int
		cand  uint64
		fresh bool // Quiet set it, and no Feed came since
	}
}

// Reset makes s watch markers (which must pass Check and are not copied),
// all of them active, with nothing held.
func (s *Scanner) Reset(markers []string) {
	*s = Scanner{markers: markers, slab: s.slab, all: 1<<len(markers) - 1}
	for i := range setsKept { // the empty set's, until replaced
		s.sets[i].slot, s.sets[i].only = i, -1
	}
	s.sets[setsKept] = s.derive(s.all, setsKept) // never replaced: a Scanner reset for a few tokens pays nothing for sets
	s.use(setsKept)
}

// CopyTo makes dst a copy of s, standing where s stands: fed the same
// text, it finds what s would. The copy shares s's markers and slab
// (see UseSlab), nothing else.
func (s *Scanner) CopyTo(dst *Scanner) {
	*dst = *s
	if s.first != nil {
		dst.first = &dst.tabs[s.slot]
	}
	for i := range dst.sets {
		if dst.sets[i].first != nil {
			dst.sets[i].first = &dst.tabs[i]
		}
	}
}

// setsKept is how many sets SetActive remembers.
const setsKept = 4

// UseSlab makes s join the text it holds in slab, which others may join in
// too (one slab per stream grows once), instead of in one of its own.
func (s *Scanner) UseSlab(slab *Slab) { s.slab = slab }

// join returns a+b, joined in s's slab when neither is empty.
func (s *Scanner) join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case s.slab == nil:
		s.slab = new(Slab)
	}
	return s.slab.Join(a, b)
}

// SetActive sets which markers are looked for: bit i stands for marker i.
// Held text is re-examined against the new set by the next call to Next.
func (s *Scanner) SetActive(mask uint64) {
	mask &= s.all
	s.missed = false
	slot := s.prevSlot
	if s.sets[slot].mask != mask {
		slot = s.set(mask)
	}
	s.prevSlot = s.slot
	s.use(slot)
}

// use makes sets[slot], whose table is tabs[slot], the active set.
func (s *Scanner) use(slot int) {
	e := &s.sets[slot]
	s.active, s.first = e.mask, e.first
	s.setFacts = e.setFacts
}

// An activeSet is what SetActive derives from a set of markers.
type activeSet struct {
	mask uint64 // the set
	// first is the set's table (tabs[slot]) once table has seen it
	// filled for the set, else nil.
	first *[256]uint8
	setFacts
}

// setFacts is what SetActive derives from a set of markers besides the
// set, which the Scanner keeps for the active one. Its fields are words,
// none narrowed, in the Scanner's order, so that use copies them in a few
// moves.
type setFacts struct {
	// grouped is the set's group's markers once its table is read (see
	// table), else 0.
	grouped uint64
	slot    int // its entry of sets and tabs
	// only is the one first byte all its markers share, with, where
	// each of them goes on with one of at most two bytes, not NUL
	// (Qwen's "<t" and "</"), those bytes d and e as only|d<<8|e<<16
	// (e = d where one), which Quiet's word test reads; else negative:
	// where its markers begin with two bytes (pair) and those that begin
	// with each go on with one byte (Muse's "<|" and "to="), ^(c|d<<8)
	// for those bytes c and d, which Quiet's second word test reads;
	// else -1. (Kept here, not in a field of its own, as a Scanner one
	// word longer costs every Reset and CopyTo.)
	only    int
	lead    string // the longest prefix its markers share ("" when none)
	longest int    // length of its longest marker
	short   int    // length of its shortest marker
	// pair is, where its markers begin with exactly two bytes, both
	// spread over a word's bytes (Lows times each), the first not NUL;
	// else zero, as where the first is NUL (Quiet's word test is off).
	pair [2]uint64
}

// set returns the entry of sets that holds what SetActive derives from
// mask: remembered, or derived now and remembered in place of the entry
// set longest ago.
func (s *Scanner) set(mask uint64) int {
	for i := range s.sets {
		if s.sets[i].mask == mask {
			return i
		}
	}
	if s.setNext == s.slot { // the active set's entry stays: it will be SetActive's prev
		s.setNext = (s.setNext + 1) % setsKept
	}
	i := s.setNext
	s.sets[i] = s.derive(mask, i)
	s.setNext = (i + 1) % setsKept
	return i
}

// derive returns what SetActive derives from mask, for entry slot.
func (s *Scanner) derive(mask uint64, slot int) activeSet {
	e := activeSet{mask: mask, setFacts: setFacts{slot: slot, only: -1}}
	for m := mask; m != 0; m &= m - 1 {
		mk := s.markers[bits.TrailingZeros64(m)]
		if e.longest == 0 {
			e.lead, e.short = mk, len(mk)
		} else {
			e.lead = e.lead[:commonPrefix(e.lead, mk)]
		}
		e.longest, e.short = max(e.longest, len(mk)), min(e.short, len(mk))
	}
	if e.lead != "" {
		e.only = int(e.lead[0])
		if d, f := s.secondBytes(mask, e.lead[0]); d != 0 {
			e.only |= int(d)<<8 | int(f)<<16
		}
		return e
	}
	var a, b byte
	n := 0
	for m := mask; m != 0; m &= m - 1 {
		c := s.markers[bits.TrailingZeros64(m)][0]
		switch {
		case n > 0 && c == a || n > 1 && c == b:
		case n == 0:
			a, n = c, 1
		case n == 1:
			b, n = c, 2
		default:
			n = 3
		}
	}
	if n == 2 {
		e.pair = [2]uint64{uint64(a) * Lows, uint64(b) * Lows}
		c, c2 := s.secondBytes(mask, a)
		d, d2 := s.secondBytes(mask, b)
		if c != 0 && c == c2 && d != 0 && d == d2 {
			e.only = ^(int(c) | int(d)<<8)
		}
	}
	return e
}

// secondBytes returns the second bytes of the markers of mask that begin
// with c where they have at most two, neither NUL: d and e (e = d where
// they have one); else 0, 0, as where one of them is a byte long.
func (s *Scanner) secondBytes(mask uint64, c byte) (d, e byte) {
	for m := mask; m != 0; m &= m - 1 {
		switch mk := s.markers[bits.TrailingZeros64(m)]; {
		case mk[0] != c:
		case len(mk) < 2 || mk[1] == 0:
			return 0, 0
		case d == 0:
			d, e = mk[1], mk[1]
		case mk[1] == d || mk[1] == e:
		case d == e:
			e = mk[1]
		default:
			return 0, 0
		}
	}
	return d, e
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// table returns the active set's table of first bytes (see Scanner.tabs).
func (s *Scanner) table() *[256]uint8 {
	if f := s.first; f != nil {
		return f
	}
	return s.firstTable()
}

// firstTable is table where it has not seen the active set's table since
// the set became active. It is a call of its own so that table, on every
// scan's path, stays small enough to inline.
//
//go:noinline
func (s *Scanner) firstTable() *[256]uint8 {
	if s.tabOf[s.slot] != s.active {
		s.fillTable()
	}
	s.first, s.grouped = &s.tabs[s.slot], s.groups[s.slot].mask
	s.sets[s.slot].first, s.sets[s.slot].grouped = s.first, s.grouped
	return s.first
}

// fillTable fills the active set's table for it.
func (s *Scanner) fillTable() {
	t, second := &s.tabs[s.slot], &s.seconds[s.slot]
	for m := s.tabOf[s.slot]; m != 0; m &= m - 1 { // the first bytes set so far, and no others
		t[s.markers[bits.TrailingZeros64(m)][0]] = 0
	}
	*second = [4]uint64{}
	pt := &s.parts[s.slot]
	*pt = parts{}
	q := len(s.lead)
	for m := s.active; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		mk := s.markers[k]
		if len(mk) > 1 {
			second[mk[1]>>6] |= 1 << (mk[1] & 63)
		}
		if len(mk) > q {
			pt.add(mk[q], k)
		}
		c := mk[0]
		if t[c] == 0 {
			t[c] = uint8(k + 1)
		} else {
			t[c] = manyFirst
		}
	}
	if pt.n >= 0 {
		pt.measure(s.markers)
	}
	s.groups[s.slot] = s.groupOf(t)
	s.tabOf[s.slot] = s.active
}

// A group is the markers of a set that begin with the one first byte
// several of them share, where they are not the whole set (see
// Scanner.groups).
type group struct {
	mask  uint64 // the markers; 0: no such group
	lead  string // their longest shared prefix, a proper prefix of each
	parts parts  // where they part, after lead
}

// groupOf returns the active set's group, t its table of first bytes.
func (s *Scanner) groupOf(t *[256]uint8) group {
	var g group
	if s.lead != "" {
		return g
	}
	for m := s.active; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		mk := s.markers[k]
		switch {
		case t[mk[0]] != manyFirst:
		case g.mask == 0:
			g.mask, g.lead = 1<<k, mk
		case mk[0] != g.lead[0]: // a second byte that several begin with
			return group{}
		default:
			g.mask |= 1 << k
			g.lead = g.lead[:commonPrefix(g.lead, mk)]
		}
	}
	for m := g.mask; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		g.parts.add(s.markers[k][len(g.lead)], k)
	}
	if g.parts.n >= 0 {
		g.parts.measure(s.markers)
	}
	return g
}

// manyFirst in Scanner.tabs: several active markers begin with the byte.
const manyFirst = 255

// parts holds the bytes a set's markers have where they part, after the
// prefix all of them share: up to 8 bytes, each with the markers that
// have it.
type parts struct {
	bytes uint64    // byte i is that of sets[i]; the rest repeat byte 0
	sets  [8]uint64 // the markers by byte
	n     int8      // bytes held; -1: more than 8
	// shared[i] is the length of the prefix the markers of sets[i]
	// share (the whole of one alone), where at most 255, else 0 (see
	// measure).
	shared [8]uint8
}

// add notes that marker k has byte c where the markers part.
func (p *parts) add(c byte, k int) {
	if p.n < 0 {
		return
	}
	x := p.bytes ^ uint64(c)*Lows
	if z := (x - Lows) &^ x & highs; z != 0 && p.n > 0 { // c is there: the lowest such byte is its own
		p.sets[bits.TrailingZeros64(z)>>3] |= 1 << k
		return
	}
	if p.n == 8 {
		p.n = -1
		return
	}
	if p.n == 0 {
		p.bytes = uint64(c) * Lows
	} else {
		p.bytes = p.bytes&^(0xff<<(8*p.n)) | uint64(c)<<(8*p.n)
	}
	p.sets[p.n] = 1 << k
	p.n++
}

// measure fills in p.shared for p's markers, all of them added.
func (p *parts) measure(markers []string) {
	for i := range max(p.n, 0) {
		m := p.sets[i]
		rep := markers[bits.TrailingZeros64(m)]
		n := len(rep)
		for m &= m - 1; m != 0; m &= m - 1 {
			n = commonPrefix(rep[:n], markers[bits.TrailingZeros64(m)])
		}
		if n <= 255 {
			p.shared[i] = uint8(n)
		}
	}
}

// sharedBy returns the length of the prefix that the markers with byte c
// where p's markers part share (0: not known), where p parts them (p.n >=
// 0) and some of them have c.
func (p *parts) sharedBy(c byte) int {
	x := p.bytes ^ uint64(c)*Lows
	z := (x - Lows) &^ x & highs
	return int(p.shared[bits.TrailingZeros64(z)>>3&7])
}

// parted returns the active markers that have byte c where they part,
// after lead; all of them where there are more than 8 such bytes. The
// active set's table is filled (see table).
func (s *Scanner) parted(c byte) uint64 {
	return s.parts[s.slot].of(c, s.active)
}

// of returns the markers that have byte c where they part, or all where
// there are more than 8 such bytes.
func (p *parts) of(c byte, all uint64) uint64 {
	if p.n < 0 {
		return all
	}
	x := p.bytes ^ uint64(c)*Lows
	z := (x - Lows) &^ x & highs
	if z == 0 {
		return 0
	}
	return p.sets[bits.TrailingZeros64(z)>>3]
}

// Active returns the active set.
func (s *Scanner) Active() uint64 { return s.active }

// Feed gives s the next delta. Text of an earlier delta that Next has not
// reached yet is dropped, so call Next until it reports no marker first.
func (s *Scanner) Feed(delta string) {
	s.delta, s.cur, s.known = delta, 0, 0
	if !s.seen.fresh {
		s.seen.t = ""
	}
	s.seen.fresh = false
}

// Quiet reports whether Next would return all of t, fed next, as text of
// its own: nothing is held and no active marker starts in t, whole or cut
// short by its end. A caller may then take t as text without feeding it;
// the Scanner is as Next would leave it. Quiet may report false for such
// a t (one that has the first byte all markers share), never true for
// another.
func (s *Scanner) Quiet(t string) bool {
	if s.held != "" {
		return false
	}
	work.Add(len(t))
	if o := s.only; o >= 0 { // no byte of t is the first byte all markers share, or none goes on as they do
		// A t of at most 8 bytes, the common delta, is read as one word
		// of its bytes alone, some of them twice, which costs less than
		// strings.IndexByte's call: two overlapping halves of 4 bytes,
		// or t[0], t[n/2] and t[n-1], which are all of a shorter t.
		var x uint64
		switch n := len(t); {
		case n >= 4 && n <= 8:
			x = uint64(Word32(t)) | uint64(Word32(t[n-4:]))<<32
			y := x ^ uint64(byte(o))*Lows
			f := (y - Lows) &^ y & highs // at each byte that is the first byte, and maybe others
			if f == 0 {
				return true
			}
			// Where the markers go on from it with one of two bytes
			// (only's second and third bytes), t with the first byte is
			// quiet still where the byte after it is neither, nor is it
			// t's last: every two bytes next to each other in t are so
			// in x (see the pair's test below).
			v, w := x^uint64(byte(o>>8))*Lows, x^uint64(byte(o>>16))*Lows
			const last = 0x80 << 56 // x's last byte, t's
			return o > 0xff && f&(((v-Lows)&^v|(w-Lows)&^w)&highs>>8|last) == 0
		case n > 0 && n < 4:
			x = uint64(t[0])*Lows&^0xffff00 | uint64(t[n>>1])<<8 | uint64(t[n-1])<<16
		default:
			return strings.IndexByte(t, byte(s.only)) < 0
		}
		return !HoldsByte(x, byte(s.only))
	}
	// Where the active markers do not all begin with one byte, and one of
	// their first bytes may be common in text (Muse's "to="): one pass
	// over t's bytes, here rather than in a call of its own, which every
	// delta of such a family would pay. False for a long t, which Next
	// searches once. Where it answers false it notes the first marker it
	// found (seen) for Next's search of t.
	if s.active == 0 {
		return true
	}
	if s.pair[0] != 0 && len(t) >= 4 && len(t) <= 8 {
		// Two first bytes ("[" and "<"): the common delta of 4 to 8 bytes
		// with neither is read as one word, as above, each byte tested at
		// once, before the test of a long t that it makes needless.
		// (Deltas of 1 to 3 bytes read so cost more than they save.)
		x := uint64(Word32(t)) | uint64(Word32(t[len(t)-4:]))<<32
		y, z := x^s.pair[0], x^s.pair[1]
		f := ((y-Lows)&^y | (z-Lows)&^z) & highs // at each byte that is one of them, and maybe others
		if f == 0 {
			return true
		}
		// Where the markers that begin with each first byte all go on
		// with one byte (Muse's "<|" and "to=", which only, negative,
		// holds), t with them is quiet still where the byte after each
		// is neither second byte, nor is the first byte t's last: every
		// two bytes next to each other in t are so in x, whose bytes 3
		// and 4 may be apart in t (a test that says a byte is there where
		// it is not only costs the byte test below).
		if o := s.only; o < -1 {
			v, w := x^uint64(byte(^o))*Lows, x^uint64(byte(^o>>8))*Lows
			const last = 0x80 << 56 // x's last byte, t's
			if f&(((v-Lows)&^v|(w-Lows)&^w)&highs>>8|last) == 0 {
				return true
			}
		}
	}
	if len(t) > 32 {
		return false
	}
	first := s.table()
	_ = first[0] // its nil check, once, not in the loop
	for i := 0; i < len(t); i++ {
		c := first[t[i]]
		switch {
		case c == 0:
			continue
		case c == manyFirst:
			if k, cand := s.startAt(c, t[i:]); k >= 0 || cand != 0 {
				s.see(t, i, k, cand)
				return false
			}
			continue
		}
		// The one marker that begins with t[i] is none where no active
		// marker's second byte follows it, as a rule (Muse's "t" in text).
		if i+1 < len(t) && s.seconds[s.slot][t[i+1]>>6]&(1<<(t[i+1]&63)) == 0 && s.short > 1 {
			continue
		}
		mk := s.markers[c-1] // the one marker to try
		work.Add(len(mk))
		j := 1
		for j < len(mk) && i+j < len(t) && mk[j] == t[i+j] {
			j++
		}
		switch {
		case j == len(mk): // whole
			s.see(t, i, int(c)-1, 0)
			return false
		case i+j == len(t): // cut short by t's end
			s.see(t, i, -1, 1<<(c-1))
			return false
		}
	}
	return true
}

// HoldsByte reports whether a byte of x, a word of a text's bytes, is c.
func HoldsByte(x uint64, c byte) bool {
	x ^= uint64(c) * Lows
	return (x-Lows)&^x&highs != 0 // a byte of x is 0
}

// Word32 returns t's first 4 bytes as one little-endian word.
func Word32(t string) uint32 {
	_ = t[3]
	return uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24
}

// Lows is the lowest bit of every byte of a word, highs the highest.
const (
	Lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// see notes what Quiet found in t (see Scanner.seen).
func (s *Scanner) see(t string, at, k int, cand uint64) {
	s.seen.t, s.seen.of, s.seen.at, s.seen.k, s.seen.cand, s.seen.fresh = t, s.active, at, k, cand, true
}

// startAt returns the active marker t begins with, whole, or -1 and the
// active markers of which t is a proper prefix; c, not 0, is t's first
// byte's entry in the active set's table. Both cannot be: markers are not
// inside one another.
func (s *Scanner) startAt(c uint8, t string) (k int, cand uint64) {
	if c != manyFirst { // the one marker to try
		k := int(c) - 1
		mk := s.markers[k]
		work.Add(len(mk))
		n := min(len(mk), len(t))
		for i := 1; i < n; i++ {
			if mk[i] != t[i] {
				return -1, 0
			}
		}
		if len(mk) <= len(t) {
			return k, 0
		}
		return -1, 1 << k
	}
	switch {
	case len(t) > 1:
		if s.seconds[s.slot][t[1]>>6]&(1<<(t[1]&63)) == 0 { // no marker goes on with t[1]
			return -1, 0
		}
		if g := &s.groups[s.slot]; g.mask != 0 { // t[0] is the group's first byte, the one several begin with
			return s.startGroup(g, t)
		}
	case s.lead != "": // t, one byte, is the first of every active marker
		return -1, s.active
	case s.parts[s.slot].n >= 0: // t, one byte, is the first of those that part with it
		return -1, s.parted(t[0])
	}
	for m := s.active; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		mk := s.markers[j]
		work.Add(len(mk))
		switch n := commonPrefix(mk, t); {
		case n == len(mk):
			return j, 0
		case n == len(t):
			cand |= 1 << j
		}
	}
	return -1, cand
}

// startGroup is startAt for t, of two bytes or more, that begins with the
// first byte of g, the active set's group.
func (s *Scanner) startGroup(g *group, t string) (k int, cand uint64) {
	q := len(g.lead)
	work.Add(q)
	for i := 1; i < min(q, len(t)); i++ {
		if g.lead[i] != t[i] {
			return -1, 0
		}
	}
	if len(t) <= q {
		return -1, g.mask
	}
	for m := g.parts.of(t[q], g.mask); m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		mk := s.markers[j]
		work.Add(len(mk) - q)
		i := q
		for n := min(len(mk), len(t)); i < n && mk[i] == t[i]; i++ {
		}
		switch {
		case i == len(mk):
			return j, 0
		case i == len(t):
			cand |= 1 << j
		}
	}
	return -1, cand
}

// Drop returns the text held back, where it is one byte that no active
// marker begins with followed by the first byte of delta, the next to be
// fed, and holds nothing then: the byte is text, which Next, after
// delta's Feed, would return first. It returns "" and changes nothing
// otherwise.
func (s *Scanner) Drop(delta string) string {
	h := s.held
	if len(h) != 1 || delta == "" || s.cand == 0 || s.candOf != s.active {
		return ""
	}
	work.Add(1)
	for m := s.cand; m != 0; m &= m - 1 { // markers of which h is a proper prefix: two bytes or more
		if s.markers[bits.TrailingZeros64(m)][1] == delta[0] {
			return ""
		}
	}
	s.held, s.cand, s.missed = "", 0, false
	return h
}

// Release returns the text held back and reports true, holding nothing
// then, where delta, the next to be fed, shows all of it to be text (no
// active marker begins in it and goes on with delta's first byte) and is
// quiet (see Quiet): Feed(delta) and Next would return the held text and
// all of delta, as text. It returns "", false otherwise, and changes
// nothing but what Quiet notes of delta for Next's search of it (seen).
func (s *Scanner) Release(delta string) (string, bool) {
	h, cand, missed := s.held, s.cand, s.missed
	if h == "" || delta == "" || s.candOf != s.active {
		return "", false
	}
	// The common delta that is not one: the next bytes of a marker all of
	// the held text begins (cand), told by their first.
	for m := cand; m != 0; m &= m - 1 {
		if s.markers[bits.TrailingZeros64(m)][len(h)] == delta[0] {
			return "", false
		}
	}
	work.Add(len(h))
	for i := 1; i < len(h); i++ { // a marker that begins later in it
		for m := s.active; m != 0; m &= m - 1 {
			mk := s.markers[bits.TrailingZeros64(m)]
			if n := len(h) - i; len(mk) > n && mk[n] == delta[0] && mk[:n] == h[i:] {
				return "", false
			}
		}
	}
	s.held, s.cand, s.missed = "", 0, false
	if s.Quiet(delta) {
		return h, true
	}
	s.held, s.cand, s.missed = h, cand, missed
	return "", false
}

// HoldWhole takes t, the next delta, where nothing is held and all of t
// is the beginning of an active marker (a "<" token): it holds t, as
// Feed(t) and Next would, and reports true. It reports false, and changes
// nothing, for any other t.
func (s *Scanner) HoldWhole(t string) bool {
	if s.held != "" || t == "" || len(t) >= s.longest || s.only >= 0 && t[0] != byte(s.only) {
		return false
	}
	var cand uint64
	for m := s.active; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		mk := s.markers[k]
		if len(t) >= len(mk) {
			continue
		}
		j := 0 // a byte at a time: t is short, and mostly parts at once
		for j < len(t) && mk[j] == t[j] {
			j++
		}
		if j == len(t) {
			cand |= 1 << k
		}
	}
	if cand == 0 {
		return false
	}
	work.Add(len(t))
	s.Feed(t)
	s.held, s.cand, s.candOf, s.cur = t, cand, s.active, len(t)
	return true
}

// Plain reports whether Next would return all of t, fed next, as text of
// its own with nothing held, where every active marker begins with one
// byte: exact where Quiet may report false because t has that byte but no
// marker begins there, whole or cut short by t's end (a "<tool_call>"
// token where <think> and </think> are looked for). A caller may then take
// t as text without feeding it; the Scanner is as Next would leave it. It
// reports false where text is held or the markers do not share a first
// byte.
func (s *Scanner) Plain(t string) bool {
	if s.held != "" || s.only < 0 {
		return false
	}
	work.Add(len(t))
	c := byte(s.only)
	for i := 0; ; i++ {
		j := strings.IndexByte(t[i:], c)
		if j < 0 {
			return true
		}
		i += j
		for m := s.active; m != 0; m &= m - 1 {
			mk := s.markers[bits.TrailingZeros64(m)]
			if n := min(len(mk), len(t)-i); mk[:n] == t[i:i+n] { // whole, or cut short by t's end
				return false
			}
		}
	}
}

// HoldEnd takes t, the next delta, where Quiet has just reported false
// for it because an active marker begins in it cut short by its end, and
// no other place of it: it holds that end and returns the text before
// it, as Feed(t) and Next would, and reports true. It reports false, and
// changes nothing, for any other t.
func (s *Scanner) HoldEnd(t string) (string, bool) {
	// The first test here, inlined: a caller whose Quiet never notes what
	// it found (markers that share a first byte) pays little for it.
	if !s.seen.fresh {
		return "", false
	}
	return s.holdEnd(t)
}

// holdEnd is HoldEnd past its first test.
func (s *Scanner) holdEnd(t string) (string, bool) {
	if s.seen.k >= 0 || s.seen.of != s.active || s.held != "" || !sameString(s.seen.t, t) {
		return "", false
	}
	i := s.seen.at
	s.delta, s.cur, s.known, s.seen.fresh = t, len(t), 0, false
	s.held, s.cand, s.candOf = t[i:], s.seen.cand, s.active
	return t[:i], true
}

// HoldTail is HoldEnd where the active markers share a first byte (whose
// Quiet notes nothing) and nothing is held: where all of t from its first
// such byte on is a proper prefix of an active marker (a header's "<|"),
// it holds that end and returns the text before it, as Feed(t) and Next
// would, and reports true. It reports false, and changes nothing, for any
// other t.
func (s *Scanner) HoldTail(t string) (string, bool) {
	if s.held != "" || s.only < 0 {
		return "", false
	}
	i := 0 // a byte at a time: t is a delta, a few bytes long
	for i < len(t) && t[i] != byte(s.only) {
		i++
	}
	h := t[i:]
	if h == "" || len(h) >= s.longest {
		return "", false
	}
	// The markers h is a proper prefix of, as partial finds them: all
	// where h is lead or part of it, else those that part from lead with
	// h's next byte and go on with h.
	q := len(s.lead)
	p := 0
	for p < len(h) && p < q && h[p] == s.lead[p] {
		p++
	}
	var cand uint64
	switch {
	case p == len(h):
		cand = s.active
	case p == q:
		s.table()
		for m := s.parted(h[q]); m != 0; m &= m - 1 {
			if k := bits.TrailingZeros64(m); len(h) < len(s.markers[k]) && equalFrom(s.markers[k], h, q) {
				cand |= 1 << k
			}
		}
	}
	if cand == 0 {
		return "", false
	}
	work.Add(len(t))
	s.Feed(t)
	return s.holdFrom(t, i, cand), true
}

// DropMissed returns the text held back, where it is one byte at which
// Step, which has just reported false, found no active marker to begin
// with the delta it was given, and holds nothing then: the byte is text,
// which Next, after that delta's Feed, would return first. It returns ""
// and changes nothing otherwise.
func (s *Scanner) DropMissed() string {
	h := s.held
	if !s.missed || len(h) != 1 {
		return ""
	}
	s.held, s.cand, s.missed = "", 0, false
	return h
}

// Spent reports whether Next has nothing left to return: nothing is held
// and the delta fed last is consumed, as after a marker that ends it.
func (s *Scanner) Spent() bool { return s.held == "" && s.cur == len(s.delta) }

// NextRest is Next for what is left of the delta after a marker, where
// the delta does not end with it (not Spent), nothing is held and the
// rest is a few bytes (at most 8, as a rule): it returns the text before
// the next active marker and the marker's index, as Next would (held
// being empty), and reports true. It reports false, and changes nothing,
// where it does not tell: where the active markers share a first byte
// and the rest has it, or its table is not read yet. Next then does.
func (s *Scanner) NextRest() (text string, m int, ok bool) {
	rest := s.delta[s.cur:]
	if s.held != "" || len(rest) > 8 {
		return "", -1, false
	}
	if s.only >= 0 { // text of its own, unless it has the byte
		for j := 0; j < len(rest); j++ {
			if rest[j] != byte(s.only) {
				continue
			}
			if len(rest) >= s.short { // it may hold a marker: Next's search
				return "", -1, false
			}
			n, cand := s.partial(rest) // the end that may begin a marker, as Next finds it
			return s.holdFrom(rest, len(rest)-n, cand), -1, true
		}
		work.Add(len(rest))
		s.cur = len(s.delta)
		return rest, -1, true
	}
	f := s.first
	if f == nil {
		return "", -1, false
	}
	work.Add(len(rest))
	for j := 0; j < len(rest); j++ { // nextShort's search, without its look at seen
		c := f[rest[j]]
		if c == 0 {
			continue
		}
		switch k, cand := s.startAt(c, rest[j:]); {
		case k >= 0:
			return s.upTo(rest, j, k), k, true
		case cand != 0:
			return s.holdFrom(rest, j, cand), -1, true
		}
	}
	s.cur = len(s.delta)
	return rest, -1, true
}

// Held returns the text held back between deltas. It stays as returned:
// held text is part of a delta or of a marker's own string.
func (s *Scanner) Held() string { return s.held }

// Next returns the text before the next active marker in the text fed so far
// and the marker's index, consuming both. The text comes in two pieces: held,
// bytes kept from earlier deltas, and text, bytes of the current delta. When
// no further marker is found, m is -1, the pieces are everything that cannot
// start an active marker, and the rest is held for the next delta or Flush.
func (s *Scanner) Next() (held, text string, m int) {
	if h := s.held; h != "" {
		work.Add(len(h))
		i := 0
		if s.missed { // Step found that no marker starts at h[0]
			s.missed = false
			i = 1
		} else if s.cand != 0 && s.candOf == s.active { // the common held text: a marker's beginning
			k, more := s.extend(h, s.delta[s.cur:])
			switch {
			case k >= 0:
				s.held, s.cand = "", 0
				s.cur += len(s.markers[k]) - len(h)
				return "", "", k
			case more != 0: // still a beginning: keep waiting
				s.hold(more, len(h)+len(s.delta)-s.cur)
				s.cur = len(s.delta)
				return "", "", -1
			}
			i = 1 // no marker starts at h[0]
		}
		first := s.table()
		for ; i < len(h); i++ {
			if first[h[i]] == 0 {
				continue
			}
			k, more := s.matchAcross(h[i:], s.delta[s.cur:])
			if more != 0 { // h[i:]+rest is a proper prefix of these: keep waiting
				s.hold(more, len(h)-i+len(s.delta)-s.cur)
				s.cur = len(s.delta)
				return h[:i], "", -1
			}
			if k < 0 {
				continue
			}
			if n := len(h) - i; len(s.markers[k]) <= n { // a marker inside what is held
				s.held, s.cand = h[i+len(s.markers[k]):], 0
			} else {
				s.held, s.cand = "", 0
				s.cur += len(s.markers[k]) - n
			}
			return h[:i], "", k
		}
		held, s.held, s.cand = h, "", 0
	}
	rest := s.delta[s.cur:]
	if rest == "" { // the delta's end, often right after a marker
		return held, "", -1
	}
	if s.only < 0 && len(rest) <= 32 && s.active != 0 { // a delta, where the markers do not all begin with one byte
		return s.nextShort(held, rest)
	}
	if len(rest) == 1 && s.short > 1 { // one byte, no marker: a marker's beginning (a "<" token), which partial finds without Quiet's look first
		n, cand := s.partial(rest)
		return held, s.holdFrom(rest, len(rest)-n, cand), -1
	}
	// The common delta: nothing to look for. Quiet (nothing is held now)
	// answers for a short rest where the markers share a first byte, or
	// where none is active; a longer rest is index's, which searches it
	// once.
	if (len(rest) <= 32 || s.active == 0) && s.Quiet(rest) {
		s.cur = len(s.delta)
		return held, rest, -1
	}
	if len(rest) >= s.short { // a shorter delta holds no marker: only its end may start one
		if pos, k := s.index(rest); k >= 0 {
			return held, s.upTo(rest, pos, k), k
		}
	}
	n, cand := s.partial(rest) // the end that may begin a marker
	return held, s.holdFrom(rest, len(rest)-n, cand), -1
}

// upTo consumes rest, what is left of the delta, up to the end of marker
// k, which begins at offset pos of it, and returns the text before the
// marker.
func (s *Scanner) upTo(rest string, pos, k int) string {
	s.cur += pos + len(s.markers[k])
	return rest[:pos]
}

// holdFrom consumes rest, what is left of the delta, and holds it from
// offset i on, a proper prefix of the markers in cand: it returns the text
// before what it holds.
func (s *Scanner) holdFrom(rest string, i int, cand uint64) string {
	s.held, s.cand, s.candOf, s.cur = rest[i:], cand, s.active, len(s.delta)
	return rest[:i]
}

// nextShort is Next's search of rest, what remains of a short delta, with
// held, the held text it returns first, where the active markers do not
// all begin with one byte: one pass over rest's bytes, trying the markers
// that begin with each. The first place where one begins, whole or cut
// short by rest's end, is the answer: nothing after the beginning of a
// marker cut short may be another marker, which would be inside it.
func (s *Scanner) nextShort(held, rest string) (string, string, int) {
	work.Add(len(rest))
	if s.seen.of == s.active && sameString(s.seen.t, rest) { // Quiet has looked (see seen)
		if i, k := s.seen.at, s.seen.k; k >= 0 {
			return held, s.upTo(rest, i, k), k
		}
		return held, s.holdFrom(rest, s.seen.at, s.seen.cand), -1
	}
	first := s.table()
	_ = first[0] // its nil check, once, not in the loop
	for i := 0; i < len(rest); i++ {
		c := first[rest[i]]
		if c == 0 {
			continue
		}
		switch k, cand := s.startAt(c, rest[i:]); {
		case k >= 0:
			return held, s.upTo(rest, i, k), k
		case cand != 0:
			return held, s.holdFrom(rest, i, cand), -1
		}
	}
	s.cur = len(s.delta)
	return held, rest, -1
}

// sameString reports whether a and b are one string: the same bytes in
// memory, which a string's never change. Strings that are equal but lie
// apart are not: nextShort then looks again, as for another string, where
// comparing their bytes would cost a delta more than it spares.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// Step takes t, the next delta, where the text held is the beginning of
// an active marker and t goes on with it: with all of the rest of one
// marker, or the start of it, or, where held text begins several, with
// the start of some of them or all of one. It returns the marker when t
// completes one, else -1, and reports true, the Scanner as Feed(t) and
// Next would leave it (Next returns the text of t after the marker). It
// reports false for any other t, which Feed and Next must then take
// before any other call but DropMissed: they then know what Step found.
func (s *Scanner) Step(t string) (k int, ok bool) {
	h, cand := s.held, s.cand
	if cand == 0 || s.candOf != s.active || t == "" {
		return -1, false
	}
	if cand&(cand-1) != 0 { // several: extend tells them apart
		if len(t) == 1 {
			// The common t here, the next byte of the prefix that all
			// active markers, or all of the group's, share ("|" after
			// "<"), what extend would find: all of them go on with it
			// (cand), their shared bytes, which are the first one's, held.
			lead, p := s.lead, len(h)
			if len(lead) >= s.short {
				lead = ""
			}
			if p >= len(lead) && cand == s.grouped {
				lead = s.groups[s.slot].lead
			}
			if p < len(lead) && lead[p] == t[0] {
				s.delta, s.cur, s.known = t, 1, 0 // Feed(t), all of it read
				if !s.seen.fresh {
					s.seen.t = ""
				}
				s.seen.fresh = false
				s.held = lead[:p+1]
				return -1, true
			}
		}
		k, more := s.extend(h, t)
		switch {
		case k >= 0:
			s.Feed(t)
			s.cur = len(s.markers[k]) - len(h)
			s.held, s.cand = "", 0
			return k, true
		case more != 0: // Feed(t), all of it read, and hold, candOf being the active set
			s.delta, s.cur, s.known = t, len(t), 0
			if !s.seen.fresh {
				s.seen.t = ""
			}
			s.seen.fresh = false
			s.held, s.cand = s.markers[bits.TrailingZeros64(more)][:len(h)+len(t)], more
			return -1, true
		}
		s.missed = true
		return -1, false
	}
	k = bits.TrailingZeros64(cand)
	mk := s.markers[k]
	rest := mk[len(h):]  // h is a proper prefix of mk
	if rest[0] != t[0] { // the common t that does not go on with it: text after a "t" held
		s.missed = true
		return -1, false
	}
	n := min(len(rest), len(t))
	work.Add(n)
	for i := 1; i < n; i++ {
		if rest[i] != t[i] {
			s.missed = true
			return -1, false
		}
	}
	s.Feed(t)
	s.cur = n
	if n == len(rest) {
		s.held, s.cand = "", 0
		return k, true
	}
	s.held = mk[:len(h)+n]
	return -1, true
}

// hold makes the first n bytes of the markers in cand, of which they are a
// proper prefix, the held text.
func (s *Scanner) hold(cand uint64, n int) {
	s.held = s.markers[bits.TrailingZeros64(cand)][:n]
	s.cand, s.candOf = cand, s.active
}

// extend returns the marker of cand that h+b begins with, whole, or -1 and
// those of which h+b is still a proper prefix; h, held text, is a proper
// prefix of every marker in cand.
func (s *Scanner) extend(h, b string) (k int, more uint64) {
	p := len(h)
	if b == "" {
		return -1, s.cand
	}
	cand := s.cand
	if q := len(s.lead); p <= q && q < s.short { // h is lead, or part of it: every active marker is in cand
		n := min(q-p, len(b))
		work.Add(n)
		for i := range n {
			if s.lead[p+i] != b[i] {
				return -1, 0
			}
		}
		if n == len(b) {
			return -1, cand
		}
		p, b = q, b[n:]
		s.table()
		if pt := &s.parts[s.slot]; pt.n >= 0 { // those that have b[0] where they part: where b ends in what they share, within tells
			if cand &= pt.of(b[0], cand); len(b) == 1 || cand&(cand-1) != 0 && p+len(b) <= pt.sharedBy(b[0]) {
				return s.within(cand, p, b)
			}
		} else {
			cand &= s.parted(b[0])
		}
	} else if cand == s.grouped && p <= len(s.groups[s.slot].lead) { // h is the group's lead, or part of it: the group is cand
		g := &s.groups[s.slot]
		q := len(g.lead)
		n := min(q-p, len(b))
		work.Add(n)
		for i := range n {
			if g.lead[p+i] != b[i] {
				return -1, 0
			}
		}
		if n == len(b) {
			return -1, cand
		}
		p, b = q, b[n:]
		if g.parts.n >= 0 { // as above
			if cand &= g.parts.of(b[0], cand); len(b) == 1 || cand&(cand-1) != 0 && p+len(b) <= g.parts.sharedBy(b[0]) {
				return s.within(cand, p, b)
			}
		} else {
			cand &= g.parts.of(b[0], cand)
		}
	}
	if n := len(b); n >= 4 && n <= 8 {
		// A token of 4 to 8 bytes ("message", "_THI"): compared as two
		// words with each candidate that goes on past it, a byte at a
		// time with one that ends in it.
		lo, hi := Word32(b), Word32(b[n-4:])
		for m := cand; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			rest := s.markers[k][p:]
			if len(rest) < n {
				work.Add(len(rest))
				i := 0
				for i < len(rest) && rest[i] == b[i] {
					i++
				}
				if i == len(rest) {
					return k, 0 // markers are not inside one another: no other begins h+b
				}
				continue
			}
			work.Add(n)
			if Word32(rest) == lo && Word32(rest[n-4:]) == hi {
				if n == len(rest) {
					return k, 0
				}
				more |= 1 << k
			}
		}
		return -1, more
	}
	for m := cand; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		mk := s.markers[k]
		if mk[p] != b[0] { // they part at once: the common case where several go on from h
			continue
		}
		work.Add(len(mk) - p)
		i := 1
		for n := min(len(mk)-p, len(b)); i < n && mk[p+i] == b[i]; i++ {
		}
		switch {
		case p+i == len(mk):
			return k, 0 // markers are not inside one another: no other begins h+b
		case i == len(b):
			more |= 1 << k
		}
	}
	return -1, more
}

// within is extend's answer where the markers of cand are those that go
// on from h, p bytes long, with b[0], and b is one byte long or goes no
// further than the prefix they share: b compared with the first of them
// (Inkling's "content" after "<|"), rather than with each.
func (s *Scanner) within(cand uint64, p int, b string) (int, uint64) {
	if cand == 0 {
		return -1, 0
	}
	k := bits.TrailingZeros64(cand)
	rep := s.markers[k]
	if len(b) == 1 { // the common b here
		if cand&(cand-1) == 0 && len(rep) == p+1 { // markers are not inside one another: the only one
			return k, 0
		}
		return -1, cand
	}
	work.Add(len(b))
	r := rep[p : p+len(b)]
	if n := len(b); n >= 4 && n <= 8 {
		if Word32(r) != Word32(b) || Word32(r[n-4:]) != Word32(b[n-4:]) {
			return -1, 0
		}
		return -1, cand
	}
	for i := 1; i < len(r); i++ {
		if r[i] != b[i] {
			return -1, 0
		}
	}
	return -1, cand
}

// Flush ends the input and returns the text held back.
func (s *Scanner) Flush() string {
	h := s.join(s.held, s.delta[s.cur:])
	s.held, s.cand, s.delta, s.cur = "", 0, "", 0
	return h
}

// matchAcross looks for an active marker that starts at the beginning of
// a+b. It returns the marker when one is complete there, else -1 and the
// markers of which a+b is a proper prefix (none when no marker starts
// there). Both cannot be: markers are not inside one another.
func (s *Scanner) matchAcross(a, b string) (k int, more uint64) {
	for i, mk := range s.markers {
		if s.active&(1<<i) == 0 || mk[0] != a[0] {
			continue
		}
		work.Add(len(mk))
		switch {
		case len(mk) <= len(a):
			if strings.HasPrefix(a, mk) {
				return i, 0
			}
		case strings.HasPrefix(mk, a):
			tail := mk[len(a):]
			if strings.HasPrefix(b, tail) {
				return i, 0
			}
			if strings.HasPrefix(tail, b) {
				more |= 1 << i
			}
		}
	}
	return -1, more
}

// index returns the position in rest, what remains of the delta after
// cur, and the index of the earliest active marker there; k is -1 when
// none.
//
// Where the active markers share a prefix (most families: "<", Harmony's
// "<|"), one pass looks for it and tries the markers only where it is, so
// that a delta dense in markers costs one search per marker found rather
// than one per active marker. Text where the prefix comes often without a
// marker (code full of "<") goes to a search per marker instead
// (indexEach), which strings.Index makes fast there. A prefix of one byte
// is looked for with strings.IndexByte, a longer one (or the one active
// marker) in a text longer than farText with indexFar, in a shorter one
// with strings.Index. NextWhole makes the search for a lead of one byte
// itself: keep the two alike (TestNextWhole).
func (s *Scanner) index(rest string) (pos, k int) {
	switch {
	case s.lead == "": // a long delta (a short one is nextShort's)
		return s.indexEach(s.cur, true)
	case s.active&(s.active-1) == 0: // one marker, the lead: its own search
		i := -1
		if far := len(rest) > farText; far && len(s.lead) > 1 {
			i = indexFar(rest, s.lead)
		} else {
			i = strings.Index(rest, s.lead)
		}
		if i < 0 {
			work.Add(len(rest))
			return 0, -1
		}
		work.Add(i + 1)
		return i, bits.TrailingZeros64(s.active)
	}
	for off, misses := 0, 0; ; {
		var i int
		switch {
		case len(s.lead) == 1: // most: "<"
			i = strings.IndexByte(rest[off:], s.lead[0])
		case len(rest)-off > farText:
			i = indexFar(rest[off:], s.lead)
		default:
			i = strings.Index(rest[off:], s.lead)
		}
		if i < 0 {
			work.Add(len(rest) - off)
			return 0, -1
		}
		work.Add(i + 1)
		off += i
		if len(rest)-off < s.short { // no marker fits in what is left
			return 0, -1
		}
		if k := s.startsAt(rest[off:]); k >= 0 {
			return off, k
		}
		off++
		if misses++; misses > 4+off>>4 {
			return s.indexEach(s.cur+off, false)
		}
	}
}

// farText is the length past which index searches with indexFar:
// Extract's text, not a stream's delta, which keeps strings.Index, whose
// search of a text up to 64 bytes compares many offsets at once (indexFar
// for every text index searches put kimi_k2's token deltas up 2.6% in
// instructions).
const farText = 1024

// indexFar is strings.Index(t, mk) for a long t (farText) and a marker,
// or a prefix markers share, of two bytes or more, which t holds rarely
// where it holds mk's first byte: it looks for that byte
// (strings.IndexByte) and compares the rest there, as strings.Index does
// but for the checks it makes first at every call, which cost a text dense
// in markers (Extract's: a search per marker) as much as the search. Where
// the byte comes often without mk, strings.Index searches the rest.
func indexFar(t, mk string) int {
	c := mk[0]
	for off, misses := 0, 0; ; {
		j := strings.IndexByte(t[off:], c)
		if j < 0 {
			return -1
		}
		off += j
		if len(t)-off < len(mk) {
			return -1
		}
		if t[off+1] == mk[1] && t[off:off+len(mk)] == mk {
			return off
		}
		off++
		if misses++; misses > 4+off>>4 {
			if j := strings.Index(t[off:], mk); j >= 0 {
				return off + j
			}
			return -1
		}
	}
}

// startsAt returns the active marker t starts with, whole, or -1; t starts
// with lead.
func (s *Scanner) startsAt(t string) int {
	p := len(s.lead)
	for m := s.active; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		mk := s.markers[k]
		switch {
		case len(mk) == p: // lead is the one active marker
			return k
		case len(mk) <= len(t) && mk[p] == t[p] && t[:len(mk)] == mk:
			return k
		}
	}
	return -1
}

// NextWhole is Next for a scanner fed a whole text at once (Extract's):
// where nothing is held and what is left of the delta is long, as it is
// but near the end, it searches that for the next active marker without
// Next's tests for held text and short deltas.
func (s *Scanner) NextWhole() (held, text string, m int) {
	rest := s.delta[s.cur:]
	if s.held != "" || len(rest) <= 32 || s.active == 0 || len(rest) < s.short {
		return s.Next()
	}
	// index's search for several markers that share a lead of one byte,
	// the most common, made here without index's call, which cost a text
	// dense in markers (Extract's) 2-5% of its instructions: keep the two
	// alike.
	if len(s.lead) == 1 && s.active&(s.active-1) != 0 {
		c := s.lead[0]
		for off, misses := 0, 0; ; {
			i := strings.IndexByte(rest[off:], c)
			if i < 0 {
				work.Add(len(rest) - off)
				break
			}
			work.Add(i + 1)
			off += i
			if len(rest)-off < s.short { // no marker fits in what is left
				break
			}
			if k := s.startsAt(rest[off:]); k >= 0 {
				return "", s.upTo(rest, off, k), k
			}
			off++
			if misses++; misses > 4+off>>4 {
				if pos, k := s.indexEach(s.cur+off, false); k >= 0 {
					return "", s.upTo(rest, pos, k), k
				}
				break
			}
		}
	} else if pos, k := s.index(rest); k >= 0 {
		return "", s.upTo(rest, pos, k), k
	}
	n, cand := s.partial(rest)
	return "", s.holdFrom(rest, len(rest)-n, cand), -1
}

// indexEach is index by a search per active marker, from offset from of
// the delta on; a marker's next occurrence is kept (next) until it is
// passed. With grouped, markers that share a first byte are searched
// together (indexGroup), where a search of each would pass over the places
// of that byte once per marker.
func (s *Scanner) indexEach(from int, grouped bool) (pos, k int) {
	var first *[256]uint8
	if grouped {
		first = s.table()
	}
	for {
		best, k := len(s.delta), -1
		for m := s.active; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if s.known&(1<<i) == 0 || s.next[i] < from {
				if mk := s.markers[i]; grouped && first[mk[0]] == manyFirst {
					s.indexGroup(mk[0], from)
				} else {
					s.indexOne(i, from)
				}
			}
			// Where a marker has its place, the others found not to occur
			// before it (loose) have the same: it wins.
			if n := s.next[i]; n < best || n == best && k >= 0 && s.loose&(1<<k) != 0 {
				best, k = n, i
			}
		}
		if k < 0 || s.loose&(1<<k) == 0 {
			return best - s.cur, k
		}
		// The marker found there is no longer active: look again.
		for m := s.active & s.loose; m != 0; m &= m - 1 {
			if i := bits.TrailingZeros64(m); s.next[i] == best {
				s.known &^= 1 << i
			}
		}
	}
}

// indexOne finds where marker i next occurs from offset from of the delta
// on (next).
func (s *Scanner) indexOne(i, from int) {
	work.Add(len(s.delta) - from)
	s.next[i] = len(s.delta)
	if j := strings.Index(s.delta[from:], s.markers[i]); j >= 0 {
		s.next[i] = from + j
	}
	s.known |= 1 << i
	s.loose &^= 1 << i
}

// indexGroup finds where the active markers that begin with byte c (there
// are several) next occur from offset from of the delta on, by one pass
// over the places of c: the first of them found has its place (next), the
// others the same place as where they do not occur before (loose). Where
// c comes often without any of them, each is searched on its own from
// there (indexOne), as strings.Index would turn from the first byte's
// places to its own search.
func (s *Scanner) indexGroup(c byte, from int) {
	var group uint64
	for m := s.active; m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(m); s.markers[i][0] == c {
			group |= 1 << i
		}
	}
	s.known |= group
	s.loose &^= group
	d := s.delta
	at := len(d) // where one of them is; none: the end
	for off, misses := from, 0; ; {
		j := strings.IndexByte(d[off:], c)
		if j < 0 {
			work.Add(len(d) - off)
			break
		}
		work.Add(j + 1)
		off += j
		if k := s.startsIn(group, d[off:]); k >= 0 {
			at, s.loose = off, s.loose|group&^(1<<k)
			break
		}
		off++
		if misses++; misses > 4+(off-from)>>4 {
			for m := group; m != 0; m &= m - 1 {
				s.indexOne(bits.TrailingZeros64(m), off)
			}
			return
		}
	}
	for m := group; m != 0; m &= m - 1 {
		s.next[bits.TrailingZeros64(m)] = at
	}
}

// startsIn returns the marker of group t starts with, whole, or -1; the
// markers of group share t's first byte, and none is one byte long.
func (s *Scanner) startsIn(group uint64, t string) int {
	for m := group; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		if mk := s.markers[k]; len(mk) <= len(t) && mk[1] == t[1] && t[:len(mk)] == mk {
			return k
		}
	}
	return -1
}

// partial returns the length of the longest suffix of t that is a proper
// prefix of an active marker, and the active markers it is a prefix of.
func (s *Scanner) partial(t string) (n int, cand uint64) {
	work.Add(min(len(t), s.longest))
	first := s.table()
	for i := max(0, len(t)-s.longest+1); i < len(t); i++ {
		if first[t[i]] == 0 {
			continue
		}
		suffix := t[i:]
		// Every active marker begins with lead: a suffix no longer than
		// what it shares with lead is a proper prefix of every one (a
		// marker that short would be inside the others, or the only one,
		// the longest), and one that parts from lead of none.
		p := commonPrefix(suffix, s.lead)
		if p == len(suffix) { // of all: none is as short as suffix, which is shorter than the longest
			return p, s.active
		} else if p == len(s.lead) {
			for m := s.parted(suffix[p]); m != 0; m &= m - 1 {
				j := bits.TrailingZeros64(m)
				if mk := s.markers[j]; len(suffix) < len(mk) && equalFrom(mk, suffix, p) {
					cand |= 1 << j
				}
			}
		}
		if cand != 0 {
			return len(suffix), cand
		}
	}
	return 0, 0
}

// equalFrom reports whether mk begins with t, given that it does up to p
// (a prefix the markers share).
func equalFrom(mk, t string, p int) bool {
	for i := p; i < len(t); i++ {
		if mk[i] != t[i] {
			return false
		}
	}
	return true
}
