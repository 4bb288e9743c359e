# The per-I/O path's instruction budget (docs/performance.md "Per-I/O
# budget"). callgrind counts the instructions iotrial executes; two runs of the
# same 4k randread job, 1024 and 4096 I/Os, differ only in the I/Os, so their
# difference over 3072 is the cost of one I/O with set-up and report left out.
# Counts, not times: the same on a busy machine, to within a few instructions.
# The null engine only: on a real device the count depends on how often a reap
# finds its completion ready or must wait (746-875 per I/O for io_uring at QD32
# on a RAM loop device, run to run), which no budget can hold.
# A change that adds instructions to the hot path fails here. Raise a budget
# only with the reason in docs/performance.md's table.
. "$(dirname "$0")/lib.sh"

case "$IOTRIAL" in
*/build/san/*)
	skip hotpath_budget "the sanitized build counts ASan's instructions (the plain pass checks the budget)"
	exit 0 ;;
esac
if ! command -v valgrind >/dev/null 2>&1; then
	skip hotpath_budget "valgrind is missing (scripts/deps.sh installs it)"
	exit 0
fi

# ir OUT ARGS...: instructions of one run's job thread under callgrind (the
# file of the thread that ran worker_main; the main thread's status loop
# wakes on time, so its count varies with the run's speed)
ir() {
	out=$1; shift
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$T/$out.cg" \
		"$IOTRIAL" "$@" >"$T/$out.stdout" 2>"$T/$out.err" ||
		{ echo "exit $?: $(tail -c 300 "$T/$out.err")"; return 1; }
	f=$(grep -l worker_main "$T/$out".cg-* | head -1)
	[ -n "$f" ] || { echo "no thread ran worker_main"; return 1; }
	awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

# budget NAME MAX ARGS...: instructions per I/O of the job ARGS, at most MAX
budget() {
	name=$1 max=$2; shift 2
	a=$(ir "$name.a" "$@" --io_size=4m) || { fail "$name" "$a"; return; }
	b=$(ir "$name.b" "$@" --io_size=16m) || { fail "$name" "$b"; return; }
	per=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 3072 }')
	if awk -v p="$per" -v m="$max" 'BEGIN { exit !(p > 0 && p <= m) }'; then
		pass "$name ($per instructions per I/O, budget $max)"
	else
		fail "$name" "$per instructions per I/O, budget $max ($a and $b in all)"
	fi
}

# one series interval (the run's end): an interval's close costs ~10^5
# instructions, and how many a run under valgrind closes depends on its speed
job="--name=b --rw=randread --bs=4k --size=1g --series_interval=1h"
# measured 248 and 578 at the budget's last change (docs/performance.md)
budget hotpath_null_qd1 280 $job --ioengine=null --iodepth=1
budget hotpath_null_qd32 630 $job --ioengine=null --iodepth=32
