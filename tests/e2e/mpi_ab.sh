#!/bin/sh
# ab across hosts (docs/mpi.md, "A/B trials across hosts") under OpenMPI on
# localhost: two MPI ranks stand for two hosts, A on rank 0 (the controller),
# B on rank 1.  Trial 1 (null engine, 1000 vs 1180 IOPS, 4 pairs): the AB/BA
# order, each run made by its side's rank (${RANK} in the job), one side at a
# time (the runs' own I/O start and end), the one trial directory on the
# controller, the clock readings, the verdict.  Trial 2 (a disk file vs a RAM
# loop device): rank 1 is killed during its second run: the trial ends naming
# the host, the completed runs stay, compare reads them as incomplete with the
# disks' differences first.  A copy of trial 1 whose B ran on "another kernel"
# gets env_differs in the warnings and the verdicts.  Trial 3: a stopped rank
# is a hung host (--run-timeout).  Trial 5 (four ranks): rank 0 controls
# alone, B is two ranks whose runs are merged.  A run that fails names its
# host; bad rank lists are refused with one line.  Each run is 1 s (0.5 s in
# trial 5).  The kill and the stop wait until the rank is inside its run (its
# run.log), not for a fixed time, so a loaded machine cannot shift them.
. "$(dirname "$0")/lib.sh"

if ! command -v mpirun >/dev/null 2>&1; then
	skip ab_mpi "mpirun is not installed (openmpi-bin)"
	exit 0
fi
if ! grep -q MPI_Init "$IOTRIAL"; then
	skip ab_mpi "iotrial was built without MPI (libopenmpi-dev absent or MPI=0)"
	exit 0
fi
# as mpi_ranks.sh: root needs OpenMPI's consent, 2 cores --oversubscribe,
# OpenMPI's own allocations are not ours to report under LeakSanitizer
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPIRUN="mpirun --oversubscribe"
HOST=$(hostname)
cd "$T" || exit 1

# rank_pid MPIRUN_PID RANK: the pid of that rank of this test's own mpirun
rank_pid() {
	for p in $(pgrep -P "$1"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
			echo "$p"
			return
		fi
	done
}
# wait_line FILE PATTERN: until PATTERN is in FILE, at most 30 s
wait_line() {
	n=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ "$n" -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
# wait_running TMPDIR RANK: until that rank is inside a run, at most 30 s.  A
# side rank's run.log exists in its scratch directory (under the TMPDIR its
# mpirun was given; one per trial, as a killed rank leaves its own) from just
# before the run starts until just after it ends, and is gone before the rank
# answers: so after the controller says "run N", its presence means run N is
# under way on that rank, however slowly this machine gets there.
wait_running() {
	n=0
	while ! ls "$1"/iotrial-ab-rank"$2".*/run.log >/dev/null 2>&1 && [ "$n" -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
mkdir -p "$T/tmp2" "$T/tmp3"

# --- refusals: one line, before MPI starts ------------------------------------
expect_exit abmpi_needs_launcher 2 '--a-ranks/--b-ranks need an MPI launcher' \
	"$IOTRIAL" ab --a-ranks=0 --b-ranks=1 --a rate_iops=1 --b rate_iops=2 --name=x
$MPIRUN -n 2 "$IOTRIAL" ab --a-ranks=0 --b-ranks=0-1 --a rate_iops=1 --b rate_iops=2 \
	--name=x >/dev/null 2>"$T/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c '^iotrial: error: ab: rank 0 is in both --a-ranks and --b-ranks' "$T/bad.err")" -eq 1 ] &&
	[ "$(grep -c '^iotrial' "$T/bad.err")" -eq 1 ]; then
	pass abmpi_bad_ranks_refused
else
	fail abmpi_bad_ranks_refused "exit $rc: $(head -c 300 "$T/bad.err")"
fi

# --- trial 1: A 1000 IOPS on rank 0, B 1180 IOPS on rank 1 ---------------------
printf '[x]\nioengine=null\nrw=randread\nbs=4k\nsize=1m\nruntime=1\ntime_based\ndescription=rank${RANK}\n' >"$T/r.fio"
$MPIRUN -n 2 "$IOTRIAL" ab --a-ranks=0 --b-ranks=1 --runs=4 --seed=11 --dir="$T/t1" \
	--a rate_iops=1000 --b rate_iops=1180 "$T/r.fio" >"$T/t1.out" 2>"$T/t1.err"
rc=$?
if [ "$rc" -ne 0 ]; then
	fail abmpi_trial "mpirun exit $rc: $(head -c 600 "$T/t1.err")"
	exit 0
fi
pyjson '
import glob, json, os, re, sys
d, out, host = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
def want(name, ok, why):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))
m = json.load(open(d + "/manifest.json"))
runs = m["runs"]
sides = "".join(r["side"] for r in runs)
pairs = [sides[i:i + 2] for i in range(0, len(sides), 2)]
want("abmpi_order", len(runs) == 8 and all(p in ("AB", "BA") for p in pairs) and
     [r["file"] for r in runs] == ["run-%03d-%s.json" % (i + 1, s) for i, s in enumerate(sides)] and
     all(r["ranks"] == ([0] if r["side"] == "A" else [1]) and r["hosts"] == [host] for r in runs),
     "sides %s, runs %r" % (sides, [(r["side"], r.get("ranks")) for r in runs]))
res = {r["index"]: json.load(open(os.path.join(d, r["file"]))) for r in runs}
made = [res[r["index"]]["jobs"][0]["job options"].get("description") for r in runs]
want("abmpi_each_side_on_its_rank",
     made == ["rank0" if r["side"] == "A" else "rank1" for r in runs],
     "descriptions (${RANK} of the process that ran it) %r for sides %s" % (made, sides))
# one side at a time: each run'"'"'s own I/O start and end (its host'"'"'s clock;
# here one clock), in trial order, never overlap
iv = [(res[i]["iotrial"]["ranks"][0]["start_ns"], res[i]["iotrial"]["ranks"][0]["end_ns"])
      for i in sorted(res)]
gaps = [(iv[k + 1][0] - iv[k][1]) / 1e6 for k in range(len(iv) - 1)]
want("abmpi_one_side_at_a_time", all(g > 0 for g in gaps) and all(e > s for s, e in iv),
     "gaps between runs (ms) %r" % gaps)
files = sorted(os.listdir(d))
want("abmpi_one_trial_dir", files == sorted(["manifest.json", "report.html"] +
                                             [r["file"] for r in runs]) and
     m["stopped_by"] == "runs" and m["mpi"]["a"] == {"ranks": [0], "hosts": [host]} and
     m["mpi"]["b"] == {"ranks": [1], "hosts": [host]} and m["mpi"]["trial_of"] == "disk",
     "files %r, stopped_by %r, mpi %r" % (files, m["stopped_by"], m.get("mpi")))
# the controller started each run before its host did, and one clock here:
# the estimated offset lies within its own bound (+2 ms: the readings are
# whole ms); the report orders the runs by the controller'"'"'s clock
ok = all(r["start_ms"] <= r["host_start_ms"] <= r["host_end_ms"] and
         abs(r["clock_offset_ms"]) <= r["clock_offset_bound_ms"] + 2 for r in runs)
want("abmpi_clocks", ok and "\nruns in run order (from the trial'"'"'s manifest: " in out,
     "%r" % [(r["start_ms"], r["host_start_ms"], r["clock_offset_ms"],
              r["clock_offset_bound_ms"]) for r in runs])
# the verdict: the 95% CI holds the true +18%; it says "B is faster" when
# every run kept its rate (within 3%).  A run that this machine held up (a
# stall across its deadline costs it I/Os) widens the interval honestly: then
# the verdict may be inconclusive, never slower nor negligible.
rate = {"A": 1000.0, "B": 1180.0}
kept = all(abs(res[r["index"]]["jobs"][0]["read"]["iops"] / rate[r["side"]] - 1) <= 0.03 for r in runs)
line = [l for l in out.splitlines() if l.startswith("total.iops ")]
ci = re.search(r" ([-+][0-9.]+)\.\.([-+][0-9.]+)% ", line[0]) if line else None
verdict = line[0].split("%  ")[-1] if line else ""
want("abmpi_verdict", ci is not None and float(ci.group(1)) <= 18.0 <= float(ci.group(2)) + 0.5 and
     (re.search(r"B is [0-9.]+\.\.[0-9.]+% faster", line[0]) if kept else
      not re.search(r"slower|negligible", line[0])) and
     out.startswith("ab: 4 runs of A and 4 of B") and "differences between A and B" in out.split("metric ")[0],
     "runs kept their rates: %s (IOPS %r); total.iops line: %r" % (kept,
     [(r["side"], round(res[r["index"]]["jobs"][0]["read"]["iops"])) for r in runs], line))
' "$T/t1" "$T/t1.out" "$HOST"

# a copy of trial 1 whose B ran on another kernel: not the disk under trial
cp -r "$T/t1" "$T/t1k"
pyjson '
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/run-*-B.json"):
    d = json.load(open(f))
    d["iotrial"]["environment"]["kernel"]["release"] = "0.0.0-other"
    json.dump(d, open(f, "w"))
' "$T/t1k"
"$IOTRIAL" compare "$T/t1k" >"$T/t1k.out" 2>"$T/t1k.err"
# a verdict that decides carries the note (one that a held-up run left
# inconclusive, as abmpi_verdict allows, has none to carry)
case "$(grep '^total.iops ' "$T/t1k.out")" in
*"not the disk alone: kernel also differs)") noted=1 ;;
*" inconclusive ("*) noted=1 ;;
*) noted=0 ;;
esac
if grep -q '^! kernel.release  *A ".*", B "0.0.0-other"' "$T/t1k.out" &&
	grep -q '^  warning \[env_differs\] A and B also differ in kernel.release' "$T/t1k.out" &&
	[ "$noted" -eq 1 ] &&
	! grep -q 'trial_incomplete' "$T/t1k.out"; then
	pass abmpi_env_differs_warns
else
	fail abmpi_env_differs_warns "$(grep -E 'kernel|env_differs|^total.iops' "$T/t1k.out" | head -c 800) $(head -c 300 "$T/t1k.err")"
fi

# --- trial 5: rank 0 controls alone, A on rank 1, B on ranks 2-3 ------------
# (B's runs are two-rank runs at 590 IOPS a rank, merged: 1180 against A's
# 1000; one pair of 0.5 s runs.  The counts: B's is its ranks' sum, none
# above its rate's 295 (a held-up rank may do fewer))
printf '[x]\nioengine=null\nrw=randread\nbs=4k\nsize=1m\nruntime=500ms\ntime_based\ndescription=rank${RANK}\n' >"$T/h.fio"
$MPIRUN -n 4 "$IOTRIAL" ab --a-ranks=1 --b-ranks=2-3 --runs=1 --seed=5 --dir="$T/t5" \
	--a rate_iops=1000 --b rate_iops=590 "$T/h.fio" >"$T/t5.out" 2>"$T/t5.err"
rc=$?
pyjson '
import json, os, sys
d, host, rc, err = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def want(name, ok, why):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))
try:
    m = json.load(open(d + "/manifest.json"))
    runs = m["runs"]
    res = {r["side"]: json.load(open(os.path.join(d, r["file"]))) for r in runs}
except Exception as x:
    want("abmpi_side_of_two_ranks", False, "exit %d, %r: %s" % (rc, x, open(err).read()[-600:]))
    sys.exit(0)
a, b = res["A"], res["B"]
bios = b["jobs"][0]["read"]["total_ios"]
per = [c["read"]["total_ios"] for c in b.get("client_stats", []) if c.get("jobname") != "All clients"]
want("abmpi_side_of_two_ranks", rc == 0 and m["mpi"]["controller"] == {"rank": 0, "host": host} and
     m["mpi"]["a"]["ranks"] == [1] and m["mpi"]["b"]["ranks"] == [2, 3] and
     sorted((r["side"], r["ranks"]) for r in runs) == [("A", [1]), ("B", [2, 3])] and
     b["iotrial"]["mpi"]["ranks"] == 2 and len(per) == 2 and sum(per) == bios and
     all(0 < n <= 300 for n in per) and 0 < a["jobs"][0]["read"]["total_ios"] <= 505 and
     a["jobs"][0]["job options"]["description"] == "rank1" and
     b["jobs"][0]["job options"]["description"] == "rank2",
     "exit %d, runs %r, B per rank %r of %r, A %r, descriptions %r %r" % (rc,
     [(r["side"], r["ranks"]) for r in runs], per, bios, a["jobs"][0]["read"]["total_ios"],
     a["jobs"][0]["job options"].get("description"), b["jobs"][0]["job options"].get("description")))
# the controller ran nothing, and neither of B'"'"'s ranks ran while A did:
# every rank'"'"'s own I/O window, A'"'"'s run against both of B'"'"'s
ia = [(x["start_ns"], x["end_ns"]) for x in a["iotrial"]["ranks"]]
ib = [(x["start_ns"], x["end_ns"]) for x in b["iotrial"]["ranks"]]
want("abmpi_side_of_two_ranks_apart", len(ia) == 1 and len(ib) == 2 and
     all(e1 <= s2 or e2 <= s1 for s1, e1 in ia for s2, e2 in ib),
     "A %r, B %r" % (ia, ib))
# both sides remote from the controller: each offset within its own bound
want("abmpi_side_of_two_ranks_clocks", all(r["start_ms"] <= r["host_start_ms"] <= r["host_end_ms"] and
     abs(r["clock_offset_ms"]) <= r["clock_offset_bound_ms"] + 2 for r in runs),
     "%r" % [(r["start_ms"], r["host_start_ms"], r["clock_offset_ms"], r["clock_offset_bound_ms"]) for r in runs])
' "$T/t5" "$HOST" "$rc" "$T/t5.err"

# --- trial 2: a disk file vs a RAM loop device; rank 1 killed in its 2nd run ---
IMG=/dev/shm/iotrial-abmpi.$$
LOOP=
dd if=/dev/zero of="$T/a.dat" bs=1M count=4 status=none
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 && [ -e /dev/loop-control ] &&
	truncate -s 4m "$IMG" 2>/dev/null; then
	LOOP=$(attach_loop --direct-io=on "$IMG" 2>/dev/null)
	trap 'losetup -d "$LOOP" 2>/dev/null; rm -f "$IMG"; rm -rf "$T"' EXIT INT TERM
fi
if [ -n "$LOOP" ]; then
	BT=$LOOP BTYPE=block
else	# no loop device here: a file in RAM (tmpfs) still differs in its disk
	BT=$IMG.file BTYPE=file
	dd if=/dev/zero of="$BT" bs=1M count=4 status=none 2>/dev/null || BT=$T/b.dat
	[ -f "$BT" ] || dd if=/dev/zero of="$BT" bs=1M count=4 status=none
	trap 'rm -f "$IMG" "$IMG.file"; rm -rf "$T"' EXIT INT TERM
fi
# mpirun's SIGTERM to the controller comes ~1 s after the loss, its SIGKILL
# 3 s later (not OpenMPI's 1 s), so a loaded machine still writes everything
TMPDIR=$T/tmp2 OMPI_MCA_odls_base_sigkill_timeout=3 $MPIRUN -n 2 "$IOTRIAL" ab --a-ranks=0 --b-ranks=1 \
	--runs=2 --order=alternate --dir="$T/t2" --a "filename=$T/a.dat rate_iops=1000" \
	--b "filename=$BT rate_iops=1180" --name=x --ioengine=psync --rw=randread --bs=4k \
	--size=4m --runtime=1 --time_based >"$T/t2.out" 2>"$T/t2.err" &
MP=$!
wait_line "$T/t2.err" 'run 4 of 4: B'
wait_running "$T/tmp2" 1
R1=$(rank_pid "$MP" 1)
[ -n "$R1" ] && kill -KILL "$R1"
wait "$MP"
rc=$?
pyjson '
import json, os, sys
d, err, host, rc = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4])
def want(name, ok, why):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))
m = json.load(open(d + "/manifest.json"))
runs = m["runs"]
want("abmpi_rank_killed_named", rc != 0 and
     "during run 4 (B on rank 1 (%s))" % host in err and m["stopped_by"] == "interrupted",
     "exit %d, stopped_by %r, stderr %r" % (rc, m.get("stopped_by"), err[-600:]))
want("abmpi_rank_killed_keeps_runs",
     [(r["side"], r["exit_code"] == 0) for r in runs] == [("A", True), ("B", True), ("A", True), ("B", False)] and
     all(os.path.exists(os.path.join(d, f)) for f in ("run-001-A.json", "run-002-B.json", "run-003-A.json")) and
     not os.path.exists(os.path.join(d, "run-004-B.json")),
     "runs %r, files %r" % ([(r["side"], r["exit_code"]) for r in runs], sorted(os.listdir(d))))
' "$T/t2" "$T/t2.err" "$HOST" "$rc"
"$IOTRIAL" compare "$T/t2" >"$T/t2c.out" 2>"$T/t2c.err"
rc=$?
if [ "$rc" -eq 0 ] && head -1 "$T/t2c.out" | grep -q '^differences between A and B' &&
	grep -q "^  targets.0.type  *A \"file\", B \"$BTYPE\"" "$T/t2c.out" &&
	grep -q '^  warning \[trial_incomplete\] .*t2 is an ab trial that ended early (stopped by interrupted: run 4 (B on '"$HOST"') ' "$T/t2c.out" &&
	grep -q '^A: 2 runs' "$T/t2c.out" && grep -q '^B: 1 run' "$T/t2c.out" &&
	grep -q "^runs in run order (from the trial's manifest: " "$T/t2c.out" &&
	! grep -q 'env_differs\|job_differs' "$T/t2c.out"; then
	pass abmpi_incomplete_trial_compared
else
	fail abmpi_incomplete_trial_compared "exit $rc: $(head -c 600 "$T/t2c.out") $(grep -E 'warning' "$T/t2c.out" | head -c 600) $(head -c 300 "$T/t2c.err")"
fi
if [ -n "$LOOP" ] && grep -q '^  targets.0.device.driver  *A "[^"]*", B "loop"' "$T/t2c.out"; then
	pass abmpi_env_diff_disks
elif [ -z "$LOOP" ] && grep -q '^  targets.0.fs.type  *A "[^"]*", B "tmpfs"' "$T/t2c.out"; then
	pass abmpi_env_diff_disks
else
	fail abmpi_env_diff_disks "loop '$LOOP': $(grep -E 'targets.0.(device.driver|fs.type)' "$T/t2c.out")"
fi

# --- trial 3: a hung host (rank 1 stopped) ends the trial at --run-timeout ----
# (A on rank 1 this time, so that its first run is the one that hangs)
TMPDIR=$T/tmp3 $MPIRUN -n 2 "$IOTRIAL" ab --a-ranks=1 --b-ranks=0 --runs=1 --order=alternate \
	--run-timeout=2 --dir="$T/t3" --a rate_iops=1000 --b rate_iops=1180 "$T/r.fio" \
	>"$T/t3.out" 2>"$T/t3.err" &
MP=$!
wait_line "$T/t3.err" 'run 1 of 2: A'
wait_running "$T/tmp3" 1
R1=$(rank_pid "$MP" 1)
[ -n "$R1" ] && kill -STOP "$R1"
wait "$MP"
rc=$?
[ -n "$R1" ] && kill -KILL "$R1" 2>/dev/null
pyjson '
import glob, json, os, sys
d, err, host, rc = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4])
m = json.load(open(d + "/manifest.json"))
r = m["runs"]
ok = (rc == 70 and "no answer within 2 s (--run-timeout) from rank 1 (%s)" % host in err and
      m["stopped_by"] == "error" and len(r) == 1 and r[0]["exit_code"] == 70 and
      "rank 1 (%s)" % host in r[0].get("fault", "") and
      os.path.exists(os.path.join(d, "run-001-A.log")))
# the controller ends the job with MPI_Abort, having removed its scratch directory
left = glob.glob(sys.argv[5] + "/iotrial-ab-rank0.*")
print("PASS abmpi_hung_rank_timeout" if ok and not left else
      "FAIL abmpi_hung_rank_timeout: exit %d, %r, %r, left behind %r" %
      (rc, [(x["side"], x["exit_code"], x.get("fault")) for x in r], err[-500:], left))
' "$T/t3" "$T/t3.err" "$HOST" "$rc" "$T/tmp3"

# --- a run that fails on its host ends the trial naming the host ---------------
$MPIRUN -n 2 "$IOTRIAL" ab --a-ranks=1 --b-ranks=0 --runs=1 --order=alternate --dir="$T/t4" \
	--a "filename=$T/no/such/dir/f" --b "filename=$T/a.dat" --name=x --ioengine=psync \
	--rw=randread --bs=4k --size=1m --runtime=1 --time_based >"$T/t4.out" 2>"$T/t4.err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q "^iotrial: error: ab: run 1 (A on rank 1 ($HOST)) exited with 3: .*no/such/dir" "$T/t4.err" &&
	[ -f "$T/t4/run-001-A.log" ]; then
	pass abmpi_failed_run_names_host
else
	fail abmpi_failed_run_names_host "exit $rc: $(head -c 600 "$T/t4.err")"
fi
