#!/usr/bin/env bash
# Usage: scripts/instr-compare.sh [-n NAME_REGEX] REV...
#
# Prints a Markdown table of instructions per unit of work, for every
# registered name matching NAME_REGEX (default: all) at each REV (any
# revision git knows, the first being the baseline): per ~4-byte delta and
# per one-token delta with IDs (BenchmarkTable's streams of the sample
# repeated to 64 KiB), per byte of Extract (the sample repeated to 1 MiB),
# and for BenchmarkIDs's names per token of IsReasoningEndStreaming (one
# call per token), ExtractContentIDs and CountReasoningTokens. The last
# column is the last REV against the first.
#
#   REASONING_VOCAB_DIR=/work/shared/vocab scripts/instr-compare.sh 8e14570 431c2bd HEAD
#
# Instruction counts, unlike ns, do not move with what else the machine
# runs: two runs of one revision agree within 0.6% in the delta and Extract
# columns; the ID columns (end-streaming, content-ids, count) allocate and
# vary by about 2% run to run with the allocator's state. They are counted by
# valgrind's callgrind (perf's instruction counter needs a PMU, which this
# virtual machine does not expose), in one process per revision, with
# GOGC=off and GOMAXPROCS=1 and the memory profiler off (the harness sets
# runtime.MemProfileRate to 0) so that the collector, the scheduler and the
# profiler's sampling add nothing, and without RDTSCP, which valgrind cannot
# run.
# scripts/testdata/instr_test.go, added to each revision's parsers tests
# with go test -overlay (with valgrind.go and valgrind_amd64.s, a client
# request), runs each workload once to warm up and once inside irMeasure,
# which switches callgrind's instrumentation on for the workload alone and
# writes a profile after it. The token columns need the real vocabularies
# (REASONING_VOCAB_DIR, as for make bench). Each revision is checked out
# into a temporary worktree, removed afterwards (INSTR_KEEP=1 keeps them and
# the profiles). All names take about 15 minutes per revision on the 2-core
# machine when it is busy; revisions run one after the other (run one
# revision per invocation in parallel to go faster).
set -euo pipefail

names='.'
if [ "${1:-}" = -n ]; then
	names=$2
	shift 2
fi
[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }

root=$(git rev-parse --show-toplevel)
. "$root/scripts/instr-lib.sh"
: "${REASONING_VOCAB_DIR:=$root/testdata/vocab}"
case $REASONING_VOCAB_DIR in /*) ;; *) REASONING_VOCAB_DIR=$root/$REASONING_VOCAB_DIR ;; esac
export REASONING_VOCAB_DIR

tmp=$(mktemp -d)
cleanup() {
	for wt in "$tmp"/wt.*; do
		[ -d "$wt" ] && git -C "$root" worktree remove --force "$wt"
	done
	rm -rf "$tmp"
}
[ -n "${INSTR_KEEP:-}" ] && echo "keeping $tmp" >&2 || trap cleanup EXIT

for i in $(seq 1 $#); do
	rev=${!i}
	wt=$tmp/wt.$i
	git -C "$root" worktree add --quiet --detach "$wt" "$rev"
	instr_build "$wt" "$tmp/parsers.test" instr_test.go
	mkdir "$tmp/cg.$i"
	echo "$rev: counting (valgrind)" >&2
	# One profile per irMeasure call.
	INSTR_OUT="$tmp/list.$i" INSTR_NAMES="$names" \
		instr_run "$wt" "$tmp/parsers.test" "$tmp/cg.$i/out" "$tmp/log.$i" TestInstrCount || exit 1
	instr_totals "$tmp/list.$i" "$tmp/cg.$i/out" '$2' >"$tmp/counts.$i"
	git -C "$root" worktree remove --force "$wt"
done

# counts.i: name, workload, units, instructions.
revs=("$@")
awk -F'\t' -v nrev=$# -v revs="${revs[*]}" '
	BEGIN { split(revs, rv, " ") }
	FNR == 1 { r++ }
	{
		key = $1 "\t" $2
		if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		v[key, r] = $4 / $3
	}
	END {
		printf "| name | workload |"
		for (i = 1; i <= nrev; i++) printf " %s |", rv[i]
		printf " %s vs %s |\n|---|---|", rv[nrev], rv[1]
		for (i = 1; i <= nrev; i++) printf "---:|"
		print "---:|"
		for (j = 1; j <= n; j++) {
			key = order[j]
			split(key, kw, "\t")
			printf "| `%s` | %s |", kw[1], kw[2]
			for (i = 1; i <= nrev; i++) {
				if ((key, i) in v) printf(v[key, i] < 100 ? " %.2f |" : " %.1f |", v[key, i]); else printf " — |"
			}
			if ((key, 1) in v && (key, nrev) in v && v[key, 1] > 0)
				printf " %+.1f%% |\n", 100 * (v[key, nrev] / v[key, 1] - 1)
			else
				print " — |"
		}
	}' $(for i in $(seq 1 $#); do echo "$tmp/counts.$i"; done)
