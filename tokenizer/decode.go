package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A decoder turns tokens back into text, as a chain of steps over the list
// of token strings (Hugging Face's decode_chain).
type decoder interface {
	decodeChain(tokens []string) []string
}

// byteLevelDecoder joins the bytes that byte-level tokens spell. A token
// with characters outside the byte alphabet (an added token such as
// "<｜Assistant｜>") is taken as written. Unlike Hugging Face it keeps bytes
// that do not form valid UTF-8 (a character split between two calls), so
// decodings of consecutive pieces concatenate to the decoding of the whole.
type byteLevelDecoder struct{}

func (byteLevelDecoder) decodeChain(tokens []string) []string {
	n := 0
	for _, tok := range tokens {
		n += len(tok)
	}
	var b strings.Builder
	b.Grow(n) // a token spells at most as many bytes as it has
	for _, tok := range tokens {
		if isByteLevel(tok) {
			writeByteLevel(&b, tok)
		} else {
			b.WriteString(tok)
		}
	}
	return []string{b.String()}
}

// A oneDecoder decodes one token, as decodeChain of a list of it does (of
// none for "", a token outside the vocabulary), with less work: Decode of
// one ID, which the parsers' token walks ask a token at a time. ok is
// false where the decoder has no shorter way.
type oneDecoder interface {
	decodeOne(tok string) (text string, ok bool)
}

// decodeOne gives text made only of ASCII as it is: the printable
// characters stand for themselves, and any other makes the token one taken
// as written.
func (byteLevelDecoder) decodeOne(tok string) (string, bool) {
	for i := 0; i < len(tok); i++ {
		if tok[i] >= utf8.RuneSelf {
			if !isByteLevel(tok) {
				return tok, true
			}
			var b strings.Builder
			b.Grow(len(tok))
			writeByteLevel(&b, tok)
			return b.String(), true
		}
	}
	return tok, true
}

func (d replaceDecoder) decodeOne(tok string) (string, bool) {
	return strings.ReplaceAll(tok, d.old, d.new), true
}

func (byteFallbackDecoder) decodeOne(tok string) (string, bool) {
	if b, ok := fallbackByte(tok); ok {
		return string([]byte{b}), true
	}
	return tok, true
}

func (fuseDecoder) decodeOne(tok string) (string, bool) { return tok, true }

func (seq decoderSeq) decodeOne(tok string) (string, bool) {
	for _, d := range seq {
		one, ok := d.(oneDecoder)
		if !ok {
			return "", false
		}
		if tok, ok = one.decodeOne(tok); !ok {
			return "", false
		}
	}
	return tok, true
}

type replaceDecoder struct{ old, new string }

func (d replaceDecoder) decodeChain(tokens []string) []string {
	for i, tok := range tokens {
		tokens[i] = strings.ReplaceAll(tok, d.old, d.new)
	}
	return tokens
}

// byteFallbackDecoder turns runs of <0xXX> tokens into the bytes they name.
// As with byteLevelDecoder, bytes that are not valid UTF-8 are kept.
type byteFallbackDecoder struct{}

func (byteFallbackDecoder) decodeChain(tokens []string) []string {
	out := tokens[:0] // in place: each token gives at most one piece, after it is read
	var pending []byte
	flush := func() {
		if len(pending) > 0 {
			out = append(out, string(pending))
			pending = pending[:0]
		}
	}
	for _, tok := range tokens {
		if b, ok := fallbackByte(tok); ok {
			pending = append(pending, b)
			continue
		}
		flush()
		out = append(out, tok)
	}
	flush()
	return out
}

// fallbackByte reads a byte-fallback token such as "<0x0A>".
func fallbackByte(tok string) (byte, bool) {
	if len(tok) != 6 || !strings.HasPrefix(tok, "<0x") || tok[5] != '>' {
		return 0, false
	}
	var b byte
	for _, c := range []byte(tok[3:5]) {
		var v byte
		switch {
		case '0' <= c && c <= '9':
			v = c - '0'
		case 'A' <= c && c <= 'F':
			v = c - 'A' + 10
		case 'a' <= c && c <= 'f':
			v = c - 'a' + 10
		default:
			return 0, false
		}
		b = b<<4 | v
	}
	return b, true
}

type fuseDecoder struct{}

func (fuseDecoder) decodeChain(tokens []string) []string {
	if len(tokens) == 0 {
		return []string{""}
	}
	tokens[0] = strings.Join(tokens, "")
	return tokens[:1]
}

// stripDecoder removes up to start leading and stop trailing copies of a
// character from each token.
type stripDecoder struct {
	content     rune
	start, stop int
}

func (d stripDecoder) decodeChain(tokens []string) []string {
	c := string(d.content)
	for i, tok := range tokens {
		for n := 0; n < d.start && strings.HasPrefix(tok, c); n++ {
			tok = tok[len(c):]
		}
		for n := 0; n < d.stop && strings.HasSuffix(tok, c); n++ {
			tok = tok[:len(tok)-len(c)]
		}
		tokens[i] = tok
	}
	return tokens
}

// metaspaceDecoder turns the replacement back into spaces; in the first
// token it is dropped instead, unless the scheme never prepends one.
type metaspaceDecoder struct {
	replacement string
	scheme      prependScheme
}

func (d metaspaceDecoder) decodeChain(tokens []string) []string {
	for i, tok := range tokens {
		with := " "
		if i == 0 && d.scheme != prependNever {
			with = ""
		}
		tokens[i] = strings.ReplaceAll(tok, d.replacement, with)
	}
	return tokens
}

type decoderSeq []decoder

func (seq decoderSeq) decodeChain(tokens []string) []string {
	for _, d := range seq {
		tokens = d.decodeChain(tokens)
	}
	return tokens
}

// buildDecoder turns the "decoder" of a tokenizer.json into a decoder; nil
// when there is none.
func buildDecoder(raw []byte) (decoder, error) {
	c, ok, err := parseComponent("decoder", raw)
	if err != nil || !ok {
		return nil, err
	}
	switch c.Type {
	case "ByteLevel":
		return byteLevelDecoder{}, nil
	case "ByteFallback":
		return byteFallbackDecoder{}, nil
	case "Fuse":
		return fuseDecoder{}, nil
	case "Replace":
		if c.Pattern == nil || c.Pattern.String == nil || c.Content == nil {
			return nil, fmt.Errorf("decoder Replace: only a String pattern with content is supported")
		}
		if *c.Pattern.String == "" {
			// It would put content between every two characters; no
			// vocabulary has one, and it is refused as the normalizer's is.
			return nil, fmt.Errorf("decoder Replace: empty pattern")
		}
		return replaceDecoder{*c.Pattern.String, *c.Content}, nil
	case "Strip":
		if c.Content == nil || utf8.RuneCountInString(*c.Content) != 1 {
			return nil, fmt.Errorf("decoder Strip: content must be one character")
		}
		r, _ := utf8.DecodeRuneInString(*c.Content)
		return stripDecoder{content: r, start: c.Start, stop: c.Stop}, nil
	case "Metaspace":
		scheme, err := parsePrependScheme(c.PrependScheme, c.AddPrefixSpace)
		if err != nil {
			return nil, fmt.Errorf("decoder Metaspace: %w", err)
		}
		return metaspaceDecoder{replacement: stringOr(c.Replacement, "▁"), scheme: scheme}, nil
	case "Sequence":
		var seq decoderSeq
		for _, sub := range c.Decoders {
			d, err := buildDecoder(sub)
			if err != nil {
				return nil, err
			}
			if d != nil {
				seq = append(seq, d)
			}
		}
		return seq, nil
	}
	return nil, unsupportedf("unsupported decoder %q", c.Type)
}
