#!/usr/bin/env bash
# Runs every fuzz target of every package of this module for FUZZTIME each
# (go test -fuzz takes one target at a time); the first finding fails it.
#
# Go 1.26's fuzz coordinator can report a bare "context deadline exceeded"
# when a duration budget ends while a worker is still busy (go.dev/issue/75804,
# fixed in Go 1.27): a race in go test at shutdown, not a finding, and likelier
# on a loaded machine. A run that ends that way, with no failing input written,
# runs again with a budget of as many executions as it reached: a count has no
# deadline to race, so the target does the same work and any finding still
# fails it.
set -euo pipefail
: "${GO:=go}" "${FUZZTIME:=10s}"

log=$(mktemp)
trap 'rm -f "$log"' EXIT

fuzz() { # package target budget
	"$GO" test -run '^$' -fuzz "^$2\$" -fuzztime "$3" "$1" >"$log" 2>&1
}

for pkg in $("$GO" list ./...); do
	for target in $("$GO" test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz $pkg $target"
		if ! fuzz "$pkg" "$target" "$FUZZTIME"; then
			if ! grep -q 'context deadline exceeded' "$log" || grep -q 'Failing input' "$log"; then
				cat "$log"
				exit 1
			fi
			execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || true)
			execs=$(( ${execs:-0} > 1000 ? ${execs:-0} : 1000 ))
			echo "  (go test's fuzz shutdown race, go.dev/issue/75804, not a finding: again for ${execs} executions)"
			fuzz "$pkg" "$target" "${execs}x" || { cat "$log"; exit 1; }
		fi
		grep execs "$log" | tail -n 1 || true
	done
done
