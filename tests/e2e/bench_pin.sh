#!/bin/sh
# bench/bench.sh's PIN=CPUS (docs/performance.md, "QD1, pinned"): besides
# taskset for every side, the kernel's unbound workers (the loop device's
# among them) are kept on the same CPUs for the run through
# /sys/devices/virtual/workqueue/cpumask, which is put back afterwards, also
# when the bench is refused.  One short psync case (fio and iotrial, 1 round
# of 1 s): it runs, says what it pinned, and the mask is the same after.
# Needs root (the loop device, the mask), fio and losetup; skipped under
# SANITIZE=1 (the bench times the plain binary; the plain pass runs it).
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
WQ=/sys/devices/virtual/workqueue/cpumask
NAMES="bench_pin_run bench_pin_restored bench_pin_refused"
skip_all() { for n in $NAMES; do skip $n "$1"; done; exit 0; }
case "$IOTRIAL" in */build/san/iotrial) skip_all "SANITIZE=1: the bench runs once, in the plain pass" ;; esac
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a loop device, the workqueue mask)"
[ -w "$WQ" ] || skip_all "no writable $WQ"
for c in fio losetup taskset python3; do
	command -v $c >/dev/null 2>&1 || skip_all "$c is missing"
done
m0=$(cat "$WQ")
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
want=$(printf '%x' $((1 << cpu)))
IOTRIAL="$IOTRIAL" PIN=$cpu REPS=1 RT=1 VERBOSE=1 "$SRC/bench/bench.sh" tio-psync-nj1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q "PIN=$cpu: the sides and the unbound kernel workers on CPUs $cpu (workqueue mask $m0 -> $want)" "$T/err" &&
	grep -Eq '^tio-psync-nj1 .*fio +[0-9.]+k .*iotrial +[0-9.]+k' "$T/out"
check bench_pin_run [ $? -eq 0 ]
[ $rc -eq 0 ] || echo "  exit $rc: $(tail -c 300 "$T/err") $(tail -c 300 "$T/out")"
check bench_pin_restored [ "$(cat "$WQ")" = "$m0" ]
PIN=x REPS=1 RT=1 "$SRC/bench/bench.sh" tio-psync-nj1 >"$T/out2" 2>"$T/err2"
rc=$?
[ $rc -eq 2 ] && grep -q 'PIN=x: a CPU list' "$T/err2" && [ "$(cat "$WQ")" = "$m0" ]
check bench_pin_refused [ $? -eq 0 ]
exit 0
