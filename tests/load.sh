#!/bin/sh
# Runs a command (the test suite, for `make check-loaded`) with load beside it,
# as on a shared machine: two CPU hogs and a disk writer rewriting a scratch
# file with O_DIRECT on the filesystem the tests use (${TMPDIR:-/tmp}), so both
# the CPUs and the disk under the tests' files are busy.  The load is started
# here and always stopped here (on exit, Ctrl-C or TERM), by the ids of the
# processes this script started; the scratch file is removed.  (A TERM sent to
# this script alone takes effect when the command ends, as the shell defers it;
# should this script die without its trap, the load processes see it gone
# within a second and end themselves.)  The command's
# exit status is this script's.  At the end one line says how much load there
# was (the writer's MiB written and the hogs' CPU seconds), so a green run
# under load can be told from a run whose load never started.
#
#   sh tests/load.sh COMMAND [ARG]...
# LOAD_CPU=N hogs (default 2), LOAD_DISK_MB=N scratch file size (default 256).
set -u
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARG]..." >&2; exit 2; }

ncpu=${LOAD_CPU:-2}
mb=${LOAD_DISK_MB:-256}
D=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-load.XXXXXX") || exit 1
pids=""

stop_load() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=""
	rm -rf "$D"
}
trap 'stop_load' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

i=0
while [ $i -lt "$ncpu" ]; do
	# a shell busy loop: user CPU, no I/O, no memory; it checks every ~0.1 s
	# that this script still runs, so that even a SIGKILL here ends the load
	# shellcheck disable=SC2016
	sh -c 'while kill -0 "$1" 2>/dev/null; do i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; done' \
		load-hog $$ &
	pids="$pids $!"
	i=$((i + 1))
done

# The writer: a shell that runs dd in the background and waits for it, so
# that TERM (trapped, waking the wait) ends the dd it started too.  Each pass
# (about 1 s on this machine's disk) rewrites the file with O_DIRECT (the
# disk, not the page cache) and adds the MiB written to a counter file; the
# passes go on while this script runs (orphaned, the writer cleans up).
# shellcheck disable=SC2016
sh -c '
	d=$1 mb=$2 parent=$3 dd=""
	trap "[ -n \"\$dd\" ] && kill \$dd 2>/dev/null; exit 0" TERM
	while kill -0 "$parent" 2>/dev/null; do
		dd if=/dev/zero of="$d/scratch" bs=1M count="$mb" oflag=direct conv=notrunc \
			status=none 2>/dev/null &
		dd=$!
		wait $dd && echo "$mb" >>"$d/written"
		dd=""
	done
	rm -rf "$d"' load-writer "$D" "$mb" $$ &
pids="$pids $!"
echo "load: $ncpu CPU hogs and a $mb MiB O_DIRECT rewriter in $D (pids$pids)" >&2

t0=$(date +%s)
"$@"
rc=$?
secs=$(($(date +%s) - t0))

# the load's own account, before it is stopped
cpu=0
for p in $pids; do
	# utime + stime of the hogs (fields 14, 15 of /proc/PID/stat, in ticks)
	t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) && cpu=$((cpu + t))
done
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
written=$(awk '{s += $1} END {print s + 0}' "$D/written" 2>/dev/null || echo 0)
echo "load: over ${secs}s the hogs used $((cpu / hz)) CPU s and the writer wrote ${written} MiB" \
	"($((written / (secs > 0 ? secs : 1))) MiB/s) beside the command" >&2
exit $rc
