package tokenizer

import "strings"

// Byte-level vocabularies (GPT-2 and its descendants) spell every byte as a
// printable character so that tokens are valid text: bytes that already are
// printable Latin-1 characters stand for themselves, the other 68 bytes are
// given the characters from U+0100 on, in byte order. A space is "Ġ" (U+0120).
var (
	byteToRune [256]rune
	runeToByte = make(map[rune]byte, 256)
)

func init() {
	printable := func(b int) bool {
		return '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
	}
	next := rune(256)
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !printable(b) {
			r = next
			next++
		}
		byteToRune[b] = r
		runeToByte[r] = byte(b)
	}
}

// byteLevelDecode returns the bytes a byte-level token spells, and false if
// some character of tok is not in the byte alphabet (as in added tokens such
// as "<｜Assistant｜>", which are then taken as they are).
func byteLevelDecode(tok string) (string, bool) {
	var b strings.Builder
	b.Grow(len(tok))
	for _, r := range tok {
		c, ok := runeToByte[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}
