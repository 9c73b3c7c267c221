package parsers

// Byte tests for short texts, cheaper than the strings package's calls
// where a text is a delta of a few bytes.

// hasByte reports whether s, a short text (a few dozen bytes at most), has
// c: a byte at a time, which for so short a text costs less than the call
// of strings.IndexByte.
func hasByte(s string, c byte) bool {
	for i := range len(s) {
		if s[i] == c {
			return true
		}
	}
	return false
}

// word32 returns s's first 4 bytes as one little-endian word.
func word32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// lows and highs are the lowest and highest bit of every byte of a word.
const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// wordHasByte reports whether a byte of x is c.
func wordHasByte(x uint64, c byte) bool {
	x ^= uint64(c) * lows
	return (x-lows)&^x&highs != 0 // a byte of x is 0
}
