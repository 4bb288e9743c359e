#!/bin/sh
# MPI mode (docs/mpi.md) under OpenMPI on localhost: several ranks run one job
# and rank 0 writes one merged result.  Checks: merged totals are the sum of
# the ranks; R IOPS per rank gives N x R; merged histogram bins are the sum of
# the ranks' bins; the start skew is recorded and under 100 ms; SIGINT to
# mpirun leaves one valid partial result; a rank whose target cannot be
# opened fails the run with one line naming rank and host; ${RANK} and
# per-rank default file names; the MPI build started plainly runs as one
# rank; compare and ab (--runner="mpirun ...") read and make multi-rank runs.
# Each mpirun run is 1-2 s.
. "$(dirname "$0")/lib.sh"

if ! command -v mpirun >/dev/null 2>&1; then
	skip mpi_ranks "mpirun is not installed (openmpi-bin)"
	exit 0
fi
if ! grep -q MPI_Init "$IOTRIAL"; then
	skip mpi_ranks "iotrial was built without MPI (libopenmpi-dev absent or MPI=0)"
	exit 0
fi
# root needs OpenMPI's consent; 2 cores need --oversubscribe; OpenMPI's own
# allocations are not ours to report under LeakSanitizer
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPIRUN="mpirun --oversubscribe"
# for the SIGINT test: the ranks get 3 s (not OpenMPI's 1 s) between
# mpirun's SIGTERM and its SIGKILL, so a loaded machine does not lose the
# partial result (docs/mpi.md); not set globally: mpirun waits that long
# after every aborted job
SLOWKILL="env OMPI_MCA_odls_base_sigkill_timeout=3"

# wait_io FILE: until rank 0's first status line (I/O has started), at most 15 s
wait_io() {
	n=0
	while ! grep -q '^status:' "$1" 2>/dev/null && [ "$n" -lt 150 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
cd "$T" || exit 1

# --- 3 ranks, 200 IOPS each: one merged result -----------------------------
$MPIRUN -n 3 "$IOTRIAL" --name=m --ioengine=null --rw=randread --bs=4k --size=1m \
	--rate_iops=200 --time_based --runtime=1 --output-format=normal,json+ \
	--output="$T/m.out" >"$T/m.stdout" 2>"$T/m.err"
rc=$?
if [ "$rc" -ne 0 ]; then
	fail mpi_run "mpirun exit $rc: $(head -c 400 "$T/m.err")"
	exit 0
fi
awk 'f || /^{/ { f = 1; print }' "$T/m.out" >"$T/m.json"
pyjson '
import json, re, sys
d = json.load(open(sys.argv[1]))
def want(name, ok, why):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))
j = d["jobs"][0]["read"]
ranks = [c for c in d["client_stats"] if c["jobname"] != "All clients"]
allc = [c for c in d["client_stats"] if c["jobname"] == "All clients"]
want("mpi_client_stats_shape", len(ranks) == 3 and len(allc) == 1 and
     sorted(c["rank"] for c in ranks) == [0, 1, 2] and all(c["hostname"] for c in d["client_stats"]),
     "client_stats: %r" % [(c["jobname"], c.get("rank"), c.get("hostname")) for c in d["client_stats"]])
tot = sum(c["read"]["total_ios"] for c in ranks)
byt = sum(c["read"]["io_bytes"] for c in ranks)
want("mpi_totals_are_sums", j["total_ios"] == tot and j["io_bytes"] == byt and tot > 0 and
     allc[0]["read"]["total_ios"] == tot and d["jobs"][0]["iotrial"]["nr_threads"] == 3,
     "merged %d ios %d bytes, ranks %d ios %d bytes" % (j["total_ios"], j["io_bytes"], tot, byt))
# I/Os rather than IOPS: a rank descheduled at its deadline on a loaded
# machine stretches the runtime (and so lowers IOPS) without adding I/Os
want("mpi_rate_n_times_r", abs(j["total_ios"] - 600) <= 60 and
     all(abs(c["read"]["total_ios"] - 200) <= 20 for c in ranks),
     "3 ranks x 200 IOPS x 1 s merged to %d I/Os (%.1f IOPS), ranks %r" %
     (j["total_ios"], j["iops"], [c["read"]["total_ios"] for c in ranks]))
bins = {}
for c in ranks:
    for k, v in c["read"]["clat_ns"]["bins"].items():
        bins[k] = bins.get(k, 0) + v
want("mpi_hist_bins_summed", bins == j["clat_ns"]["bins"] and sum(bins.values()) == tot,
     "merged bins differ from the ranks summed")
ivs = d["jobs"][0]["iotrial"]["intervals"]
want("mpi_series_merged", sum(i["read"]["ios"] for i in ivs if not i.get("ramp")) == tot,
     "merged intervals add up to %d, not %d" % (sum(i["read"]["ios"] for i in ivs), tot))
rk = d["iotrial"]["ranks"]
st = [r["start_ns"] for r in rk]
skew = d["iotrial"]["mpi"]["start_skew_ns"]
want("mpi_start_skew_recorded", len(rk) == 3 and skew == max(st) - min(st) and skew < 100e6 and
     all(r["end_ns"] > r["start_ns"] and r["host"] and "kernel" in r["env"] for r in rk),
     "ranks %r skew %r" % (rk, skew))
want("mpi_not_partial", d["iotrial"]["partial"] is False, "partial without a signal")
# the plausibility checks judge the merged run: 3 ranks are 3 x the concurrency
lit = [w["message"] for w in d["iotrial"].get("warnings", []) if w["id"] == "littles_law"]
want("mpi_checks_count_ranks", len(lit) == 1 and "ranks x numjobs x iodepth = 3 x 1 x 1 = 3" in lit[0] and
     re.search(r"read (5[4-9]\d|6[0-5]\d) IOPS", lit[0]) is not None, "littles_law: %r" % lit)
' "$T/m.json"
if grep -q '^Per host (3 ranks' "$T/m.out" && [ "$(grep -cE '^ +[0-2] +[^ ]+ +m ' "$T/m.out")" -eq 3 ]; then
	pass mpi_text_per_host
else
	fail mpi_text_per_host "no per-host table of 3 rows in the text output"
fi
# only rank 0 speaks: nothing on stdout (it went to --output), no rank chatter
check mpi_quiet_ranks test ! -s "$T/m.stdout"

# --- SIGINT to mpirun: one valid partial result -----------------------------
$SLOWKILL $MPIRUN -n 2 "$IOTRIAL" --name=s --ioengine=null --rw=read --size=1m --rate_iops=500 \
	--time_based --runtime=30 --output-format=json --output="$T/s.json" \
	--status-interval=500ms >/dev/null 2>"$T/s.err" &
pid=$!
wait_io "$T/s.err"
sleep 0.5
kill -INT "$pid"
wait "$pid"
pyjson '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL mpi_sigint_partial: no valid result: %s" % e); sys.exit(0)
ranks = [c for c in d["client_stats"] if c["jobname"] != "All clients"]
ok = (d["iotrial"]["partial"] is True and len(ranks) == 2 and
      d["jobs"][0]["read"]["total_ios"] == sum(c["read"]["total_ios"] for c in ranks) > 0 and
      all(r["partial"] for r in d["iotrial"]["ranks"]))
print("PASS mpi_sigint_partial" if ok else "FAIL mpi_sigint_partial: %r" % d["iotrial"])
' "$T/s.json"

# --- one rank stopped (SIGTERM to that rank alone): the others stop too -----
t0=$(date +%s)
$MPIRUN -n 3 "$IOTRIAL" --name=k --ioengine=null --rw=read --size=1m --rate_iops=500 \
	--time_based --runtime=30 --output-format=json --output="$T/k.json" \
	--status-interval=500ms >/dev/null 2>"$T/k.err" &
pid=$!
wait_io "$T/k.err"
sleep 0.5
victim=$(ps -o pid= --ppid "$pid" | sed -n 2p)
[ -n "$victim" ] && kill -TERM "$victim"
wait "$pid"
rc=$?
secs=$(( $(date +%s) - t0 ))
pyjson '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL mpi_rank_stop_spreads: no valid result: %s" % e); sys.exit(0)
rk = d["iotrial"]["ranks"]
ok = (int(sys.argv[2]) < 20 and d["iotrial"]["partial"] is True and len(rk) == 3 and
      all(r["partial"] for r in rk) and sorted(r["signal"] for r in rk) == [0, 0, 15])
print("PASS mpi_rank_stop_spreads" if ok else
      "FAIL mpi_rank_stop_spreads: %s s, ranks %r" % (sys.argv[2], [(r["rank"], r["partial"], r["signal"]) for r in rk]))
' "$T/k.json" "$secs"
check mpi_rank_stop_exit_code test "$rc" -eq 5

# --- a rank whose target cannot be opened: one line naming rank and host ----
mkdir -p "$T/d0" "$T/d2"
printf '[t]\nioengine=psync\nrw=read\nsize=64k\ndirectory=%s/d${RANK}\n' "$T" >"$T/f.fio"
$MPIRUN -n 3 "$IOTRIAL" "$T/f.fio" --output-format=json --output="$T/f.json" >/dev/null 2>"$T/f.err"
rc=$?
n=$(grep -c '^iotrial: error:' "$T/f.err")
if [ "$rc" -eq 3 ] && [ "$n" -eq 1 ] &&
   grep -qE "^iotrial: error: rank 1 \($(hostname | cut -c1-64)\): .*/d1/t\.0\.0\.rank1" "$T/f.err" &&
   [ ! -e "$T/f.json" ]; then
	pass mpi_rank_target_fails
else
	fail mpi_rank_target_fails "exit $rc, $n error lines: $(grep -v '^-' "$T/f.err" | head -c 400)"
fi
# ${RANK} chose each rank's directory; default names carry the rank
check mpi_rank_default_names test -e "$T/d0/t.0.0.rank0" -a -e "$T/d2/t.0.0.rank2" -a ! -e "$T/d0/t.0.0"

# --- the MPI build started plainly is one plain rank ------------------------
"$IOTRIAL" --name=p --ioengine=null --size=64k --output-format=json >"$T/p.json" 2>"$T/p.err"
pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
ok = "client_stats" not in d and "ranks" not in d["iotrial"] and d["jobs"][0]["read"]["total_ios"] == 16
print("PASS mpi_plain_start" if ok else "FAIL mpi_plain_start: %r" % list(d.keys()))
' "$T/p.json"

# --- compare reads multi-rank results; ab runs each run as an MPI job -------
"$IOTRIAL" ab --runs=2 --order=alternate --dir="$T/ab" --runner="$MPIRUN -n 2 $IOTRIAL" \
	--a rate_iops=100 --b rate_iops=200 --name=a --ioengine=null --rw=read --size=1m \
	--time_based --runtime=1 >"$T/ab.out" 2>"$T/ab.err"
rc=$?
pyjson '
import json, sys, glob
runs = sorted(glob.glob(sys.argv[1] + "/run-*.json"))
ios = {}
for f in runs:
    d = json.load(open(f))
    side = f[-6]
    rk = [c["read"]["total_ios"] for c in d.get("client_stats", []) if c["jobname"] != "All clients"]
    ios.setdefault(side, []).append((len(rk), sum(rk), d["jobs"][0]["read"]["total_ios"]))
# 2 ranks x 100 (A) or 200 (B) IOPS x 1 s, merged
ok = (len(runs) == 4 and all(n == 2 and s == m for v in ios.values() for n, s, m in v) and
      all(abs(m - 200) <= 30 for _, _, m in ios.get("A", [])) and
      all(abs(m - 400) <= 60 for _, _, m in ios.get("B", [])))
print("PASS mpi_ab_runs_are_mpi_jobs" if ok else "FAIL mpi_ab_runs_are_mpi_jobs: %r" % ios)
' "$T/ab"
# total.iops: A and B are the merged runs' means (about 200 and 400 IOPS)
ratio() { awk '$1 == "total.iops" { if ($2 > 0) print $5 / $2; exit }' "$1"; }
r=$(ratio "$T/ab.out")
if [ "$rc" -eq 0 ] && awk -v r="${r:-0}" 'BEGIN { exit !(r > 1.5 && r < 2.5) }'; then
	pass mpi_ab_verdict
else
	fail mpi_ab_verdict "exit $rc, B/A $r: $(grep -E 'total.iops|error' "$T/ab.out" "$T/ab.err" | head -c 400)"
fi
# one run a side, whichever order ab drew
"$IOTRIAL" compare "$(ls "$T"/ab/run-*-A.json | head -n 1)" "$(ls "$T"/ab/run-*-B.json | head -n 1)" \
	>"$T/c.out" 2>"$T/c.err"
rc=$?
r=$(ratio "$T/c.out")
if [ "$rc" -eq 0 ] && awk -v r="${r:-0}" 'BEGIN { exit !(r > 1.5 && r < 2.5) }'; then
	pass mpi_compare_merged
else
	fail mpi_compare_merged "exit $rc: $(grep -E 'total.iops|error' "$T/c.out" "$T/c.err" | head -c 400)"
fi
# ab itself under a launcher is refused with one line (from rank 0 only)
$MPIRUN -n 2 "$IOTRIAL" ab --runs=2 --a rate_iops=1 --b rate_iops=2 --name=x >/dev/null 2>"$T/abm.err"
if [ "$(grep -c '^iotrial: error: ab under an MPI launcher' "$T/abm.err")" -eq 1 ]; then
	pass mpi_ab_under_launcher_refused
else
	fail mpi_ab_under_launcher_refused "$(head -c 300 "$T/abm.err")"
fi
