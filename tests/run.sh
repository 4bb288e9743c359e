#!/bin/sh
# Runs every unit-test program in $1 and every end-to-end script in $2 (an
# optional $3 keeps only names containing it), each under a timeout, and prints
# the tally "N passed, N failed, N skipped" as the last line.  Each program
# prints "PASS name" / "FAIL name" / "SKIP name: why" lines; one that exits
# non-zero without printing FAIL (a crash, a timeout) counts as one failure.
unit_dir=$1
e2e_dir=$2
filter=${3:-}
pass=0 fail=0 skip=0
failed_names=""
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run_one() {
	name=$1; shift
	t0=$(date +%s)
	timeout -k 10 ${TEST_TIMEOUT:-600} "$@" >"$out" 2>&1
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	p=$(grep -c '^PASS ' "$out")
	f=$(grep -c '^FAIL ' "$out")
	s=$(grep -c '^SKIP ' "$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL $name: exited with status $rc" >>"$out"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		f=1
		echo "FAIL $name: ran no test" >>"$out"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	if [ "$f" -ne 0 ] || [ -n "${VERBOSE:-}" ]; then
		sed "s|^|  [$name] |" "$out"
		[ "$f" -ne 0 ] && failed_names="$failed_names $name"
	else
		grep '^SKIP ' "$out" | sed "s|^|  [$name] |"
	fi
	printf '%-28s %3d passed, %d failed, %d skipped (%ds)\n' "$name" "$p" "$f" "$s" "$secs"
}

for t in "$unit_dir"/test_*; do
	[ -x "$t" ] || continue
	case "$t" in *.d) continue ;; esac
	n=$(basename "$t")
	[ -n "$filter" ] && case "$n" in *"$filter"*) ;; *) continue ;; esac
	run_one "$n" "$t"
done
for t in "$e2e_dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	case "$n" in lib) continue ;; esac
	[ -n "$filter" ] && case "$n" in *"$filter"*) ;; *) continue ;; esac
	run_one "$n" sh "$t"
done
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
