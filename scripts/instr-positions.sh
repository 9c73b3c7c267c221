#!/usr/bin/env bash
# Usage: scripts/instr-positions.sh NAME [REV]
#
# Prints, for registered name NAME at revision REV (default: the working
# tree), the instructions (Ir), conditional branches (Bc), their simulated
# mispredictions (Bcm) and indirect branches (Bi) of each ~4-byte delta of
# BenchmarkTable's bytes4 stream, by the delta's offset in the name's
# sample, the measure's own cost taken off: where in the sample a family's
# per-delta cost lies (a marker, a held byte), which instr-compare.sh's
# per-delta mean does not say. Counted by callgrind with --branch-sim=yes
# (scripts/testdata/positions_test.go, added with go test -overlay); its
# branch predictor is a simple model, so Bcm is a hint, not a measure.
# The mean is over offsets, unweighted. A sample whose length is not a
# multiple of 4 has deltas at more offsets (one per byte where its length
# is odd: about 4 times the rows and the time). INSTR_KEEP=1 keeps the
# profiles (one per offset, for callgrind_annotate), and the worktree of
# REV. INSTR_CHUNK=token measures the token column's deltas instead
# (the sample's real tokens with their IDs), by their offsets.
#
#   scripts/instr-positions.sh muse_spark
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,21p' "$0"; exit 2; }
name=$1
root=$(git rev-parse --show-toplevel)
. "$root/scripts/instr-lib.sh"
tmp=$(mktemp -d)
src=$root
cleanup() {
	if [ "$src" != "$root" ]; then
		git -C "$root" worktree remove --force "$src" || true
	fi
	rm -rf "$tmp"
}
[ -n "${INSTR_KEEP:-}" ] && echo "keeping $tmp" >&2 || trap cleanup EXIT
if [ $# -ge 2 ]; then
	git -C "$root" worktree add --quiet --detach "$tmp/wt" "$2"
	src=$tmp/wt
fi
instr_build "$src" "$tmp/parsers.test" instr_test.go positions_test.go
mkdir "$tmp/cg"
INSTR_OUT="$tmp/list" INSTR_POSITIONS="$name" \
	instr_run "$src" "$tmp/parsers.test" "$tmp/cg/out" "$tmp/log" TestInstrPositions \
	--collect-atstart=no --branch-sim=yes || exit 1
# Profile k (out.k) is line k of the list: the toggles first.
instr_totals "$tmp/list" "$tmp/cg/out" '$2, $3, $4, $5' | awk -F'\t' '
	{ split($4, e, " ") }
	NR == 1 { for (i = 1; i <= 4; i++) base[i] = e[i] / $3; next }
	{
		printf "%5d %-12s Ir %7.1f  Bc %6.1f  Bcm %5.2f  Bi %4.1f  (profile out.%d)\n", $1, $2,
			e[1] / $3 - base[1], e[2] / $3 - base[2], e[3] / $3 - base[3], e[4] / $3 - base[4], NR
		ir += e[1] / $3 - base[1]; bcm += e[3] / $3 - base[3]
	}
	END { printf "mean over %d offsets (unweighted): Ir %.1f  Bcm %.2f\n", NR - 1, ir / (NR - 1), bcm / (NR - 1) }'
