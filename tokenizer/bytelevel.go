package tokenizer

import "strings"

// Byte-level vocabularies (GPT-2 and its descendants) spell every byte as a
// printable character so that tokens are valid text: bytes that already are
// printable Latin-1 characters stand for themselves, the other 68 bytes are
// given the characters from U+0100 on, in byte order. A space is "Ġ" (U+0120).
var (
	byteToRune [256]rune
	runeToByte [256 + 68]int16 // by character of the alphabet: the byte it stands for; -1 for none
)

func init() {
	printable := func(b int) bool {
		return '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
	}
	for r := range runeToByte {
		runeToByte[r] = -1
	}
	next := rune(256)
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !printable(b) {
			r = next
			next++
		}
		byteToRune[b] = r
		runeToByte[r] = int16(b)
	}
}

// byteLevelDecode returns the bytes a byte-level token spells, and false if
// some character of tok is not in the byte alphabet (as in added tokens such
// as "<｜Assistant｜>", which are then taken as they are).
func byteLevelDecode(tok string) (string, bool) {
	if !isByteLevel(tok) {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(tok))
	writeByteLevel(&b, tok)
	return b.String(), true
}

// isByteLevel reports whether every character of tok is in the byte
// alphabet.
func isByteLevel(tok string) bool {
	for _, r := range tok {
		if r >= rune(len(runeToByte)) || runeToByte[r] < 0 {
			return false
		}
	}
	return true
}

// writeByteLevel writes the bytes that tok, a byte-level token (see
// isByteLevel), spells: one for each of its characters, so at most
// len(tok).
func writeByteLevel(b *strings.Builder, tok string) {
	for _, r := range tok {
		b.WriteByte(byte(runeToByte[r]))
	}
}
