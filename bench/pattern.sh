#!/bin/bash
# What a device and the scheduler see per I/O while a tool runs: counts, not
# times, so two tools can be compared on a busy machine (docs/performance.md,
# "Round 2").  Runs CMD (a job of a few seconds), records 1 s of system-wide
# tracepoints from its 1st second on, and prints per I/O issued to the device
# MAJ:MIN: plugged batches flushed by the tool, the loop driver's work items
# started, the tool's sleeps, preemptions and wake-ups from the other CPU,
# and IPIs.  Root and perf needed.  The tool is CMD's program (after
# "taskset -c CPUS"), or TOOL=name.
#
#   bench/pattern.sh 7:0 fio --name=b --filename=/dev/loop0 ... --runtime=3
#   bench/pattern.sh 7:0 build/iotrial --name=b --filename=/dev/loop0 ... --runtime=3
set -u
[ $# -ge 2 ] || { echo "usage: bench/pattern.sh MAJ:MIN CMD..." >&2; exit 2; }
command -v perf >/dev/null || { echo "bench/pattern.sh: perf not found" >&2; exit 1; }
dev=${1/:/,}; shift
tool=$(basename "$1")
[ "$tool" = taskset ] && [ $# -ge 4 ] && tool=$(basename "$3")	# taskset -c CPUS TOOL ...
tool=${TOOL:-$tool}	# the thread's name, when it is not the program's
data=$(mktemp /tmp/iotrial-pattern.XXXXXX)
trap 'rm -f "$data"' EXIT
"$@" >/dev/null 2>&1 &
pid=$!
sleep 1
perf record -q -a -o "$data" -e block:block_rq_issue,block:block_unplug,workqueue:workqueue_execute_start,sched:sched_switch,sched:sched_wakeup,ipi:ipi_send_cpu \
	-- sleep 1 >/dev/null 2>&1
wait $pid
perf script -i "$data" -F comm,cpu,event,trace 2>/dev/null | awk -v dev="$dev" -v tool="$tool" '
	function istool(c) { return c == tool || c == substr(tool, 1, 15) }
	{
		comm = $1; cpu = $2; gsub(/[\[\]]/, "", cpu); ev = $3; sub(/:$/, "", ev)
	}
	ev == "block:block_rq_issue" && $4 == dev { io++ }
	ev == "block:block_unplug" && istool(comm) { unplug++ }
	ev == "workqueue:workqueue_execute_start" && /function loop/ { loopwork++ }
	ev == "sched:sched_switch" {
		match($0, /prev_comm=.* prev_pid/); pc = substr($0, RSTART + 10, RLENGTH - 19)
		match($0, /prev_state=[^ ]+/); st = substr($0, RSTART + 11, RLENGTH - 11)
		if (istool(pc)) { if (st ~ /^R/) preempt++; else sleep++ }
	}
	ev == "sched:sched_wakeup" {
		match($0, /comm=.* pid=/); nc = substr($0, RSTART + 5, RLENGTH - 10)
		match($0, /target_cpu=[0-9]+/); tc = substr($0, RSTART + 11, RLENGTH - 11) + 0
		if (istool(nc) && tc != cpu + 0) other++
	}
	ev == "ipi:ipi_send_cpu" { ipi++ }
	END {
		if (!io) { print "no I/O to " dev " in the traced second"; exit 1 }
		printf "%-12s %8d I/Os in 1 s | per I/O: unplug %.3f loop work %.3f sleeps %.3f preempted %.3f woken from the other CPU %.3f IPIs %.3f\n",
			tool, io, unplug / io, loopwork / io, sleep / io, preempt / io, other / io, ipi / io
	}'
