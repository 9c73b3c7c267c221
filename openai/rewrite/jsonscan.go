package rewrite

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// A small scanner over one JSON document held in memory, for the streaming
// hot path: it finds the spans of the members the gateway rewrites so that
// everything else of a chunk is copied byte for byte, with no decoding into
// maps. It accepts what json.Valid accepts, nesting limit included,
// except that it does not check that strings are valid UTF-8
// (encoding/json does not either when it decodes); the tests compare the
// two.

var errSyntax = errors.New("rewrite: invalid JSON")

// maxDepth bounds how deeply arrays and objects nest, as encoding/json
// bounds it: the scanner recurses once per level, and a document nested
// millions deep (an event may be 64 MiB) would overflow the goroutine's
// stack, a fatal error no caller can recover from.
const maxDepth = 10000

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the index just after the JSON value that starts at b[i].
func valueEnd(b []byte, i int) (int, error) { return valueEndIn(b, i, 0) }

// valueEndIn is valueEnd for a value inside depth arrays and objects.
func valueEndIn(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := stringEnd(b, i)
		return end, err
	case c == '{':
		return membersIn(b, i, nil, depth+1)
	case c == '[':
		return elementsIn(b, i, nil, depth+1)
	case c == 't':
		return literalEnd(b, i, "true")
	case c == 'f':
		return literalEnd(b, i, "false")
	case c == 'n':
		return literalEnd(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return numberEnd(b, i)
	}
	return 0, errSyntax
}

// stringEnd returns the index just after the string that starts at b[i]
// (a '"'), and whether it holds escapes.
func stringEnd(b []byte, i int) (end int, escaped bool, err error) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return 0, false, errSyntax
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return 0, false, errSyntax
				}
				i += 5
			default:
				return 0, false, errSyntax
			}
		case c < 0x20:
			return 0, false, errSyntax
		}
	}
	return 0, false, errSyntax
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func literalEnd(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, errSyntax
	}
	return i + len(lit), nil
}

// numberEnd returns the index just after the number that starts at b[i]:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(b []byte, i int) (int, error) {
	digits := func(i int) (int, bool) {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i, i > start
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i, _ = digits(i)
	default:
		return 0, errSyntax
	}
	var ok bool
	if i < len(b) && b[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return 0, errSyntax
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return 0, errSyntax
		}
	}
	return i, nil
}

// members walks the object that starts at b[i] (a '{'), calling fn, when
// not nil, with each member's key as written (between its quotes), where
// the member starts, and where its value starts and ends. It returns the
// index just after the object.
func members(b []byte, i int, fn func(key []byte, member, start, end int)) (int, error) {
	return membersIn(b, i, fn, 1)
}

// membersIn is members for an object that is the depth-th array or object
// it is inside, counting itself.
func membersIn(b []byte, i int, fn func(key []byte, member, start, end int), depth int) (int, error) {
	if depth > maxDepth {
		return 0, errSyntax
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, errSyntax
		}
		member := i
		keyEnd, _, err := stringEnd(b, i)
		if err != nil {
			return 0, err
		}
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return 0, errSyntax
		}
		start := skipSpace(b, i+1)
		end, err := valueEndIn(b, start, depth)
		if err != nil {
			return 0, err
		}
		if fn != nil {
			fn(b[member+1:keyEnd-1], member, start, end)
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, errSyntax
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

// elements walks the array that starts at b[i] (a '['), calling fn, when
// not nil, with where each element starts and ends. It returns the index
// just after the array.
func elements(b []byte, i int, fn func(start, end int)) (int, error) {
	return elementsIn(b, i, fn, 1)
}

// elementsIn is elements for an array that is the depth-th array or
// object it is inside, counting itself.
func elementsIn(b []byte, i int, fn func(start, end int), depth int) (int, error) {
	if depth > maxDepth {
		return 0, errSyntax
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		start := i
		end, err := valueEndIn(b, start, depth)
		if err != nil {
			return 0, err
		}
		if fn != nil {
			fn(start, end)
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, errSyntax
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return i + 1, nil
		default:
			return 0, errSyntax
		}
	}
}

// unquote returns the text of the JSON string s (with its quotes).
func unquote(s []byte, escaped bool) (string, bool) {
	if !escaped {
		return string(s[1 : len(s)-1]), true
	}
	var out string
	return out, json.Unmarshal(s, &out) == nil
}

// smallInt reads a JSON number that is a non-negative integer below
// maxChoices; ok is false for anything else.
func smallInt(b []byte) (n int, ok bool) {
	if len(b) == 0 || len(b) > 4 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < maxChoices
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: invalid UTF-8 becomes U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// A member is a key and the raw JSON of its value.
type member struct {
	key string
	raw []byte
}

// appendObject appends a JSON object of members, in order; a member with
// a nil raw value is left out.
func appendObject(dst []byte, ms ...member) []byte {
	dst = append(dst, '{')
	n := 0
	for _, m := range ms {
		if m.raw == nil {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendJSONString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, m.raw...)
	}
	return append(dst, '}')
}

// appendReplaced appends the object at data[at] with the value of each
// member of set that it has replaced in place, every other byte as it
// came; members of set it lacks are added at its end.
func appendReplaced(dst, data []byte, at int, set ...member) []byte {
	end, err := valueEnd(data, at)
	if err != nil || data[at] != '{' {
		return append(dst, data[at:]...)
	}
	var seen uint64 // bit i: set[i] was found (at most 64 members are set)
	copied := at
	members(data, at, func(key []byte, _, start, stop int) {
		for i, m := range set {
			if string(key) == m.key {
				dst = append(dst, data[copied:start]...)
				dst = append(dst, m.raw...)
				copied = stop
				seen |= 1 << i
			}
		}
	})
	closing := end - 1
	dst = append(dst, data[copied:closing]...)
	empty := skipSpace(data, at+1) == closing
	for i, m := range set {
		if seen&(1<<i) != 0 {
			continue
		}
		if !empty {
			dst = append(dst, ',')
		}
		empty = false
		dst = appendJSONString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, m.raw...)
	}
	return append(dst, '}')
}

// jsonString returns s as the raw JSON of a string.
func jsonString(s string) []byte { return appendJSONString(nil, s) }

// jsonInt returns n as the raw JSON of a number.
func jsonInt(n int) []byte { return strconv.AppendInt(nil, int64(n), 10) }

// stringValue returns the text of the JSON string value at data[start:end],
// "" when it is not a string.
func stringValue(data []byte, start, end int) string {
	if start < 0 || data[start] != '"' {
		return ""
	}
	_, escaped, _ := stringEnd(data, start)
	s, _ := unquote(data[start:end], escaped)
	return s
}
