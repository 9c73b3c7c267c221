package marker

import (
	"encoding/binary"
	"unsafe"

	"github.com/reasoning-go/reasoning/internal/work"
)

// A Slab joins short strings without an allocation per join: it copies them
// into an append-only buffer and returns the result as a string that shares
// the buffer. A byte once written is never written again (a full buffer is
// replaced, not reused), so every string a Slab returned stays valid and
// unchanged for as long as it is referenced, which keeps its buffer alive.
//
// Joining then costs one allocation per buffer, whose size doubles from
// 256 bytes to 16 KiB, instead of one per join. A join larger than a
// quarter of the largest buffer gets an allocation of its own.
//
// The zero Slab is ready to use. Copies of a Slab share its current buffer,
// which is safe as long as they are not used concurrently.
type Slab struct {
	// buf is the current buffer. Its first slabHeader bytes hold how many
	// bytes of it are used, so that copies of the Slab, which share the
	// buffer, share that count with it and one allocation holds both.
	buf  []byte
	size int // capacity of the next buffer
}

const (
	slabMin    = 256
	slabMax    = 16 << 10
	slabHeader = 8 // an int, the bytes used, at the start of each buffer
)

// used is the count of bytes used in the current buffer, header included.
func (s *Slab) used() *int { return (*int)(unsafe.Pointer(unsafe.SliceData(s.buf))) }

// Join returns the concatenation of parts.
func (s *Slab) Join(parts ...string) string {
	n, nonEmpty, last := 0, 0, ""
	for _, p := range parts {
		if p != "" {
			n += len(p)
			nonEmpty++
			last = p
		}
	}
	if nonEmpty <= 1 {
		return last
	}
	start := s.Begin(n)
	for _, p := range parts {
		s.WriteString(p)
	}
	return s.End(start)
}

// Copy returns a copy of str.
func (s *Slab) Copy(str string) string {
	if str == "" {
		return ""
	}
	start := s.Begin(len(str))
	s.WriteString(str)
	return s.End(start)
}

// Begin starts a string of n bytes, which WriteString writes and End
// returns. Between Begin and End only WriteString may be called, with n
// bytes in all.
func (s *Slab) Begin(n int) (start int) {
	work.Add(n)
	if s.buf == nil || len(s.buf)-*s.used() < n {
		size := n
		if n <= slabMax/4 {
			s.size = min(max(2*s.size, slabMin), slabMax)
			size = max(n, s.size) // a first join may be larger than the first slab
		}
		// One allocation of bytes, which hold no pointers: the GC does not
		// scan it, and used's pointer into it keeps it alive as any does.
		s.buf = make([]byte, slabHeader+size)
		*s.used() = slabHeader
	}
	return *s.used()
}

// WriteString appends str to the string Begin started.
func (s *Slab) WriteString(str string) {
	u := s.used()
	*u += copy(s.buf[*u:], str)
}

// Write appends b to the string Begin started.
func (s *Slab) Write(b []byte) {
	u := s.used()
	*u += copy(s.buf[*u:], b)
}

// End returns the string written since Begin returned start.
func (s *Slab) End(start int) string {
	n := *s.used() - start
	if n == 0 {
		return ""
	}
	return unsafe.String(&s.buf[start], n)
}

// Append returns str+more. A join of at most 16 bytes is written whole,
// wherever str is, where the buffer has room for it (up to 8 a byte at a
// time, but for a more of 4 to 7 bytes, two words that overlap, and for a
// shorter one, its first, middle and last bytes; else a word at a time
// where it can). For a longer one, when str
// ends where the slab last wrote (it is the last string the slab returned,
// or its tail) and the buffer has room for more, only more is written,
// after str: text held back across deltas and read again with each new
// one is copied once, as it comes; otherwise the two are copied.
func (s *Slab) Append(str, more string) string {
	if n := len(str) + len(more); n <= 8 && str != "" && more != "" && len(s.buf) > 0 {
		// A byte at a time (more, of 4 bytes or more, two words, else its
		// first, middle and last bytes): that costs less than the look for
		// str at the end of the slab and two calls of memmove. Where the
		// buffer has no room for the n bytes, the join is made below, so
		// that this path calls nothing.
		if start := *s.used(); n <= len(s.buf)-start {
			work.Add(n)
			// The join's n bytes from start, which the buffer has.
			head := unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.buf)), start)
			tail := unsafe.Add(head, len(str))
			if len(str) == 1 { // the common str: a delta's one byte of trailing whitespace
				*(*byte)(head) = str[0]
			} else {
				for i := range len(str) {
					*(*byte)(unsafe.Add(head, i)) = str[i]
				}
			}
			if m := len(more); m >= 4 { // two words, which overlap where m < 8
				binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(tail), 4), Word32(more))
				binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(unsafe.Add(tail, m-4)), 4), Word32(more[m-4:]))
			} else { // its first, middle and last bytes, which are all of it
				*(*byte)(tail) = more[0]
				*(*byte)(unsafe.Add(tail, m>>1)) = more[m>>1]
				*(*byte)(unsafe.Add(tail, m-1)) = more[m-1]
			}
			*s.used() = start + n
			return unsafe.String((*byte)(head), n)
		}
	}
	if n := len(str) + len(more); n <= 16 && str != "" && more != "" && len(s.buf) > 0 {
		// Two calls of put, a word or a byte at a time, which cost less
		// than two calls of memmove there.
		if start := *s.used(); n <= len(s.buf)-start {
			work.Add(n)
			head := unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.buf)), start)
			put(head, str)
			put(unsafe.Add(head, len(str)), more)
			*s.used() = start + n
			return unsafe.String((*byte)(head), n)
		}
	}
	if n := len(str); n > 0 && len(s.buf) > 0 {
		u := *s.used()
		if n <= u-slabHeader && len(more) <= len(s.buf)-u &&
			unsafe.Pointer(unsafe.StringData(str)) == unsafe.Add(unsafe.Pointer(unsafe.SliceData(s.buf)), u-n) {
			work.Add(len(more))
			*s.used() = u + copy(s.buf[u:], more)
			return unsafe.String(unsafe.StringData(str), n+len(more))
		}
	}
	if str == "" || more == "" {
		return str + more // one of them: no copy
	}
	n := len(str) + len(more)
	start := s.Begin(n)
	b := s.buf[start : start+n]
	copy(b[len(str):], more)
	copy(b, str)
	*s.used() = start + n
	return unsafe.String(&b[0], n)
}

// put writes src, of at most 16 bytes, at p: as two words of 8 or 4 bytes
// where it has that many, which overlap where it is shorter than two,
// else as its first, middle and last bytes, which are all of it.
func put(p unsafe.Pointer, src string) {
	switch n := len(src); {
	case n >= 8:
		binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(p), 8), word64(src))
		binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(unsafe.Add(p, n-8)), 8), word64(src[n-8:]))
	case n >= 4:
		binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(p), 4), Word32(src))
		binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(unsafe.Add(p, n-4)), 4), Word32(src[n-4:]))
	case n > 0:
		*(*byte)(p) = src[0]
		*(*byte)(unsafe.Add(p, n>>1)) = src[n>>1]
		*(*byte)(unsafe.Add(p, n-1)) = src[n-1]
	}
}

// word64 returns t's first 8 bytes as one little-endian word.
func word64(t string) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}
