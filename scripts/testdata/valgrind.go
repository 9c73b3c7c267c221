package parsers

// This file and valgrind_amd64.s are not part of package parsers:
// scripts/instr-compare.sh adds them with go test -overlay, so that
// instr_test.go can switch callgrind's instrumentation on only around what
// it measures (everything else, such as loading vocabularies, then runs at
// the speed of valgrind's core, several times that of callgrind).

// ValgrindRequest makes the Valgrind client request args (the request code,
// then up to five arguments) and returns its answer; 0 outside Valgrind.
func ValgrindRequest(args *[6]uint64) uint64
