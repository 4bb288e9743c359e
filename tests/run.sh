#!/bin/sh
# Runs every unit-test program and every end-to-end script in $2 (an optional
# $3 keeps only names containing it), each under a timeout, and prints the
# tally "N passed, N failed, N skipped" as the last line.  The programs are
# those of the sources tests/unit/**/test_*.c, built under $1 at the same
# relative path (tests/unit/lib/test_vec.c -> $1/lib/test_vec), so a program
# left in $1 by a renamed test is not run; a test is named by its file's
# base name.  Each program prints "PASS name" / "FAIL name" / "SKIP name: why"
# lines; one that exits non-zero without printing FAIL (a crash, a timeout)
# counts as one failure.
# CHECK_FAST=1 (make check-fast) keeps the unit tests and only the scripts
# with a line "# check-fast" (tests/README: no real I/O run beyond a few ms).
#
# TEST_JOBS=N runs N tests at a time (default 3: most tests wait on timers,
# rate limits and devices rather than CPUs, and the suite ran in 8 minutes
# that way beside other work where one at a time took over 10; TEST_JOBS=1
# runs them one after another).  Each test owns its scratch
# directory and devices, and none may depend on an idle machine, so running
# them side by side changes how long the suite takes, not what it finds.  A
# test's lines are printed when it ends, whole.
#   sh tests/run.sh --one NAME OUTDIR CMD...   (internal: one test, for xargs)
if [ "${1:-}" = --one ]; then
	name=$2 dir=$3
	shift 3
	out="$dir/$name.out"
	t0=$(date +%s)
	timeout -k 10 "${TEST_TIMEOUT:-600}" "$@" >"$out" 2>&1
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
	{
		if [ "$f" -ne 0 ] || [ -n "${VERBOSE:-}" ]; then
			sed "s|^|  [$name] |" "$out"
		else
			grep '^SKIP ' "$out" | sed "s|^|  [$name] |"
		fi
		printf '%-28s %3d passed, %d failed, %d skipped (%ds)\n' "$name" "$p" "$f" "$s" "$secs"
	} >"$dir/$name.report"
	cat "$dir/$name.report"		# one write for the usual few lines
	echo "$p $f $s" >"$dir/$name.tally"
	exit 0
fi

unit_dir=$1
e2e_dir=$2
filter=${3:-}
jobs=${TEST_JOBS:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-run.XXXXXX")
trap 'rm -rf "$dir"' EXIT
self=$0

# the list, one test a line: NAME CMD...  (paths hold no spaces: they are ours)
src=$(dirname "$0")/unit
find "$src" -name 'test_*.c' | sort | while read -r c; do
	rel=${c#"$src"/}
	t=$unit_dir/${rel%.c}
	n=$(basename "$t")
	[ -n "$filter" ] && case "$n" in *"$filter"*) ;; *) continue ;; esac
	if [ -x "$t" ]; then
		echo "$n $t"
	else	# make builds every one: a missing program is a build gone wrong
		echo "$n echo FAIL $n: $t was not built"
	fi
done >"$dir/list"
for t in "$e2e_dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	case "$n" in lib) continue ;; esac
	[ -n "$filter" ] && case "$n" in *"$filter"*) ;; *) continue ;; esac
	[ -n "${CHECK_FAST:-}" ] && ! grep -q '^# check-fast' "$t" && continue
	echo "$n sh $t"
done >>"$dir/list"

# shellcheck disable=SC2016
sed "s|^|$self --one |; s|^\([^ ]* --one [^ ]*\) |\1 $dir |" "$dir/list" |
	xargs -P "$jobs" -L 1 sh

pass=0 fail=0 skip=0
failed_names=""
while read -r n _; do
	if [ -f "$dir/$n.tally" ]; then
		read -r p f s <"$dir/$n.tally"
	else
		p=0 f=1 s=0
		echo "FAIL $n: no result (the runner lost it)"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	[ "$f" -ne 0 ] && failed_names="$failed_names $n"
done <"$dir/list"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
