package parsers

// The markers several families share, each named once.
const (
	thinkOpen    = "<think>"
	thinkClose   = "</think>"
	qwenToolCall = "<tool_call>" // Qwen's tool-call opener: ends reasoning implicitly in several families; kept in content
	chatMLStart  = "<|im_start|>"
	chatMLEnd    = "<|im_end|>"
)

// spaces is the whitespace the families trim next to their markers.
const spaces = " \t\r\n"

// inSpaces reports whether b is one of spaces.
func inSpaces(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
