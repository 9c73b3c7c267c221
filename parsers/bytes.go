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
