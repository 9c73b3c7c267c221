# Sourced by instr-compare.sh and instr-positions.sh: building a revision's
# parsers tests with the instruction-counting harness (scripts/testdata),
# running them under valgrind's callgrind, and reading the profiles' totals.
# The caller sets root (the repository's top).

# instr_build SRC OUT FILE...: builds the parsers tests of SRC (a checkout)
# into OUT, with the harness's FILEs (scripts/testdata/FILE, such as
# instr_test.go) and its callgrind client request (valgrind.go,
# valgrind_amd64.s) added to the package as zz_FILE by go test -overlay
# (written to OUT.overlay.json).
instr_build() {
	local src=$1 out=$2 pairs='' f
	shift 2
	for f in "$@" valgrind.go valgrind_amd64.s; do
		pairs+="${pairs:+,}\"$src/parsers/zz_$f\":\"$root/scripts/testdata/$f\""
	done
	printf '{"Replace":{%s}}\n' "$pairs" >"$out.overlay.json"
	(cd "$src" && go test -overlay "$out.overlay.json" -c -o "$out" ./parsers/)
}

# instr_run SRC TEST PROFILE LOG RUN [FLAG...]: runs test RUN of TEST (a
# binary instr_build made) in SRC's parsers directory under callgrind,
# instrumentation off until the harness switches it on, with FLAGs, each
# profile the harness asks for written to PROFILE.k (k = 1, 2, ... in call
# order), the output to LOG. The collector, the scheduler, preemption and
# RDTSCP (which valgrind cannot run) stay out of the count: GOGC=off,
# GOMAXPROCS=1. The caller's environment passes the harness its INSTR_
# variables. On failure it prints LOG and returns 1.
instr_run() {
	local src=$1 test=$2 profile=$3 log=$4 run=$5
	shift 5
	(cd "$src/parsers" && GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
		valgrind --tool=callgrind --instr-atstart=no "$@" --callgrind-out-file="$profile" \
		"$test" -test.run "^$run\$" -test.count 1 >"$log" 2>&1) ||
		{ cat "$log" >&2; return 1; }
}

# instr_totals LIST PROFILE FIELDS: each line k of LIST (the harness's list
# of what it measured, in order) followed by a tab and FIELDS (an awk
# print list, such as '$2') of the totals line of PROFILE.k, which sums the
# costs the profile lists (its summary line, the event counter, can be
# wrong when instrumentation is switched on midway). A last profile, at
# exit, has no line in the list.
instr_totals() {
	local list=$1 profile=$2 fields=$3 k
	for k in $(seq 1 "$(wc -l <"$list")"); do
		awk "/^totals:/ { print $fields; exit }" "$profile.$k"
	done | paste "$list" -
}
