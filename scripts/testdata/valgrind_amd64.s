// Added to package parsers by scripts/instr-compare.sh (go test -overlay),
// with valgrind.go: a Valgrind client request, for switching callgrind's
// instrumentation on and off around what is measured.

#include "textflag.h"

// func ValgrindRequest(args *[6]uint64) uint64
TEXT ·ValgrindRequest(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), AX
	MOVQ $0, DX
	// Valgrind's magic sequence: rotations by 128 bits in all, which leave
	// DI as it was, then xchg %rbx,%rbx; natively it does nothing and
	// returns 0.
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET
