#!/bin/sh
# ab --host-qmp against a fake QMP server (python3, in this test): the
# host's view joined into each run's result, and every way the socket can
# fail keeping the guest's results with a one-line warning (docs/vm.md).
#  - host_join: a server that answers like QEMU 7.2 (greeting, capabilities,
#    blockstats whose drive moves 1000 ops of 50 us, block, iothreads,
#    cpus): each result has iotrial.host with that drive, 1000 ops, a
#    backend latency of 50 us, CPU by role; compare has host.* rows; check
#    flags the host page cache the server reports.
#  - host_breakdown_text: ab's text has the time per I/O across the
#    hypervisor, a line per side with the host backend at 50.0 us; its
#    report.html the same as a table row per side.
#  - host_not_passed: the runner (a script logging its arguments) never
#    sees --host-qmp, and a runner that knows nothing of it works.
#  - host_missing, host_refused, host_dies: no socket; a socket nobody
#    listens on; a server that answers the sample before the run and exits:
#    each a warning naming the socket, exit 0, every run's result kept.
#  - host_bad_option: --host-qmp=S,drv=x is a one-line usage error (exit 2).
#  - host_hostile: a reply of 2 MiB, and one with a counter of the wrong
#    type: a warning naming the limit or the field, the run kept.
#  - host_stdout_runner: a runner that drops --output and prints the JSON
#    on stdout (a log line on stderr): each result is taken from stdout
#    and joined with the host's view; the log keeps the stderr line.
#  - host_stdout_garbage: a runner whose stdout is not one JSON document
#    and that writes no result: ab fails naming the result, and the text
#    it printed is in the run's log.
#  - host_series: a server whose drive counts 1000 ops/s from the runner's
#    start for the job's 3 s (ramp 1 s + 2 s), sampled every 100 ms (the
#    job's series_interval): each result has iotrial.host.series (ramp and
#    measured intervals, ops moving in each), and ops over the measured
#    window within 3% of the guest's total_ios (the whole run: +50%; the
#    fake's clock-driven count is not the guest's, see within).
#  - host_vanish: the server goes away 2 s into the first run: one warning
#    line per run, exit 0, each result kept, the first with the host's view
#    up to its last sample (window lost; part of the guest's I/Os; the
#    host_partial pitfall that check flags).
#  - host_single_run: one run driven from the host (iotrial --runner
#    --host-qmp, no ab): JSON on stdout with iotrial.host, ops within 3% of
#    total_ios with the ramp; the text output ends with the host's lines;
#    --output=FILE with normal,json from a runner that prints on stdout;
#    the runner never sees --host-qmp or --runner.
#  - host_single_bad: --host-qmp without --runner, and under an MPI
#    launcher: one-line usage errors (exit 2), nothing run.
#  - host_runner_only: --runner without --host-qmp: the runner's result
#    written as a run's (JSON on stdout), no iotrial.host.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || { for n in host_join host_breakdown_text host_not_passed host_missing host_refused host_dies host_bad_option host_hostile host_stdout_runner host_stdout_garbage host_series host_vanish host_single_run host_single_bad host_runner_only; do skip $n "python3 is missing"; done; exit 0; }

cat >"$T/fakeqmp.py" <<'PY'
import json, os, socket, sys, time
path, mode = sys.argv[1], sys.argv[2]
# rate modes: the drive counts 1000 ops/s for 3 s from each run's start
# (the mtime of the file its runner touches before it execs iotrial)
gofile = sys.argv[3] if len(sys.argv) > 3 else ""
last_t0, base = None, 0
def rate_ops():
    global last_t0, base
    try:
        t0 = os.stat(gofile).st_mtime
    except OSError:
        return base
    if last_t0 is not None and t0 != last_t0:
        # what the start before counted until this one (at most its 3 s)
        base += int(1000 * min(max(t0 - last_t0, 0), 3.0))
    last_t0 = t0
    return base + int(1000 * min(max(time.time() - t0, 0), 3.0))
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(4)
ops = 0
conns = 0
while True:
    c, _ = s.accept()
    conns += 1
    f = c.makefile("rwb")
    def send(o):
        f.write((json.dumps(o) + "\r\n").encode()); f.flush()
    send({"QMP": {"version": {"qemu": {"major": 7, "minor": 2, "micro": 0}}, "capabilities": []}})
    for line in f:
        cmd = json.loads(line)["execute"]
        if cmd == "qmp_capabilities":
            send({"event": "RESUME", "timestamp": {"seconds": 1, "microseconds": 0}})
            send({"return": {}})
        elif cmd == "query-blockstats":
            if mode == "huge":
                f.write(b'{"return": [' + b" " * (2 << 20)); f.flush(); break
            if mode.startswith("rate"):
                ops = rate_ops()
            st = {"rd_operations": ops, "wr_operations": 0, "flush_operations": 0, "rd_bytes": ops * 4096,
                  "wr_bytes": 0, "rd_total_time_ns": ops * 50000, "wr_total_time_ns": 0, "flush_total_time_ns": 0}
            if mode == "badtype":
                st["rd_operations"] = str(ops)
            idle = dict(st, rd_operations=5, rd_total_time_ns=5)
            send({"return": [{"device": "drive-virtio0", "stats": st}, {"device": "drive-nvme0-ns1", "stats": idle}]})
            if not mode.startswith("rate"):
                ops += 1000
        elif cmd == "query-block":
            send({"return": [{"device": "drive-virtio0", "inserted": {"cache": {"direct": False, "writeback": True, "no-flush": False},
                  "image": {"virtual-size": 1 << 30, "actual-size": 1 << 30}}}]})
        elif cmd == "query-iothreads":
            send({"return": []})
        elif cmd == "query-cpus-fast":
            send({"return": [{"cpu-index": 0, "thread-id": os.getpid()}]})
        else:
            send({"error": {"class": "CommandNotFound", "desc": "no " + cmd}})
    c.close()
    if (mode == "dies" and conns >= 1) or (mode == "ratedies" and conns >= 20):
        os.unlink(path)
        sys.exit(0)
PY
# a runner that logs its arguments and runs this iotrial (knows nothing of --host-qmp)
cat >"$T/runner.sh" <<RUNNER
#!/bin/sh
echo "\$@" >>"$T/runner.args"
exec "$IOTRIAL" "\$@"
RUNNER
chmod +x "$T/runner.sh"

SRV=""
serve() {	# serve MODE: a fake server on $T/q.sock
	rm -f "$T/q.sock" "$T/go"
	python3 "$T/fakeqmp.py" "$T/q.sock" "$1" "$T/go" 2>"$T/srv.err" &
	SRV=$!
	i=0
	while [ ! -S "$T/q.sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
}
stop() { [ -n "$SRV" ] && kill "$SRV" 2>/dev/null; wait "$SRV" 2>/dev/null; SRV=""; }
trap 'stop; lib_cleanup' EXIT

# ab DIR SOCKETSPEC: two runs of each side of the null engine, quick; sampled
# before and after only (the interval is longer than the run), as the server
# counts 1000 ops per sample
ab() {
	"$IOTRIAL" ab --runs=2 --dir="$T/$1" --runner="$T/runner.sh" --host-qmp="$2" \
		--a iodepth=1 --b iodepth=2 --name=j --ioengine=null --size=1m --rw=randread \
		--runtime=100ms --time_based --series_interval=30s >"$T/$1.out" 2>"$T/$1.err"
}
kept() {	# kept DIR: every run's result is there
	[ "$(ls "$T/$1"/run-*.json 2>/dev/null | wc -l)" -eq 4 ]
}

serve ok
ab join "$T/q.sock"
rc=$?
stop
got=$(python3 - "$T/join" <<'PY'
import glob, json, sys
why = []
for f in sorted(glob.glob(sys.argv[1] + "/run-*.json")):
    h = json.load(open(f))["iotrial"].get("host")
    if not h:
        why.append("%s: no iotrial.host" % f); continue
    if h["drive"] != "drive-virtio0" or h["ops"] != 1000 or abs(h["backend_lat_ns"] - 50000) > 1e-6:
        why.append("%s: drive %s ops %s lat %s" % (f, h["drive"], h["ops"], h["backend_lat_ns"]))
    if set(h["cpu_per_io_ns_by_role"]) != {"vcpu", "iothread", "main_loop", "worker", "other"}:
        why.append("roles %s" % list(h["cpu_per_io_ns_by_role"]))
    if not any(p["id"] == "host_page_cache" for p in h["pitfalls"]):
        why.append("no host_page_cache pitfall: %s" % h["pitfalls"])
print("; ".join(why) or "ok")
PY
)
if [ $rc -ne 0 ]; then fail host_join "ab exit $rc: $(tail -3 "$T/join.err")"
elif [ "$got" != ok ]; then fail host_join "$got"
elif ! grep -q "^host.backend_lat_ns " "$T/join.out" || ! grep -q "^host.cpu_per_io_ns " "$T/join.out"; then
	fail host_join "no host.* rows in ab's table: $(grep -c host "$T/join.out")"
elif ! "$IOTRIAL" check "$T"/join/run-001-?.json 2>&1 | grep -q "host_page_cache"; then
	fail host_join "check does not flag the host page cache"
else pass host_join; fi

bd=$(grep -A2 "^time per I/O across the hypervisor" "$T/join.out")
if [ "$(printf '%s\n' "$bd" | grep -c "^  [AB]  guest tool .*  virtual device path .*  host backend 50.0  (2 runs)$")" -ne 2 ]; then
	fail host_breakdown_text "no line per side with the host backend at 50.0 us: $bd"
elif ! grep -q "<h2>Time per I/O across the hypervisor</h2>" "$T/join/report.html"; then fail host_breakdown_text "no such section in report.html"
elif [ "$(grep -c '<td class="num">50.0</td><td class="num">2</td></tr>' "$T/join/report.html")" -ne 2 ]; then
	fail host_breakdown_text "report.html has no row per side with 50.0 us: $(grep -A4 'across the hypervisor</h2>' "$T/join/report.html" | head -8)"
else pass host_breakdown_text; fi

if grep -q -- "host-qmp" "$T/runner.args"; then fail host_not_passed "$(grep -- host-qmp "$T/runner.args" | head -1)"
elif [ "$(grep -c -- '--output=' "$T/runner.args")" -ne 4 ]; then fail host_not_passed "the runner ran $(wc -l <"$T/runner.args") times"
else pass host_not_passed; fi

# fails NAME DIR WANT RC: exit 0, the runs kept, a warning line with WANT
fails() {
	if [ "$4" -ne 0 ]; then fail "$1" "ab exit $4: $(tail -2 "$T/$2.err")"
	elif ! kept "$2"; then fail "$1" "runs not kept: $(ls "$T/$2")"
	elif ! grep -q "^ab: warning: --host-qmp: .*$3" "$T/$2.err"; then fail "$1" "no warning with '$3': $(grep -m2 warning "$T/$2.err")"
	else pass "$1"; fi
}
ab missing "$T/nothere.sock"
fails host_missing missing "cannot connect: No such file" $?

python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$T/dead.sock"
ab refused "$T/dead.sock"
fails host_refused refused "Connection refused" $?

serve dies
ab dies "$T/q.sock"
rc=$?
stop
fails host_dies dies "no sample after the run" $rc

"$IOTRIAL" ab --runs=2 --host-qmp="$T/q.sock,drv=x" --name=j --ioengine=null --size=1m >"$T/bad.out" 2>"$T/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -q "drive=ID" "$T/bad.err"; then pass host_bad_option
else fail host_bad_option "exit $rc: $(head -c 300 "$T/bad.err")"; fi

serve huge
ab huge "$T/q.sock"
rc=$?
stop
serve badtype
ab badtype "$T/q.sock"
rc2=$?
stop
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ] || ! kept huge || ! kept badtype; then fail host_hostile "exit $rc/$rc2"
elif ! grep -q "longer than 1048576 bytes" "$T/huge.err" || ! grep -q '"rd_operations" is not an integer' "$T/badtype.err"; then
	fail host_hostile "$(grep -m1 warning "$T/huge.err"); $(grep -m1 warning "$T/badtype.err")"
else pass host_hostile; fi

# a runner that ignores --output: JSON on stdout, its messages on stderr
cat >"$T/stdout.sh" <<RUNNER
#!/bin/sh
for a; do shift; case "\$a" in --output=*) ;; *) set -- "\$@" "\$a";; esac; done
echo "guest: running \$*" >&2
exec "$IOTRIAL" "\$@"
RUNNER
chmod +x "$T/stdout.sh"
serve ok
"$IOTRIAL" ab --runs=2 --dir="$T/so" --runner="$T/stdout.sh" --host-qmp="$T/q.sock" \
	--a iodepth=1 --b iodepth=2 --name=j --ioengine=null --size=1m --rw=randread \
	--runtime=100ms --time_based --series_interval=30s >"$T/so.out" 2>"$T/so.err"
rc=$?
stop
got=$(python3 - "$T/so" <<'PY'
import glob, json, sys
why = []
fs = sorted(glob.glob(sys.argv[1] + "/run-*.json"))
if len(fs) != 4: why.append("%d results" % len(fs))
for f in fs:
    h = json.load(open(f))["iotrial"].get("host")
    if not h or h["ops"] != 1000: why.append("%s: host %s" % (f, h and h["ops"]))
print("; ".join(why) or "ok")
PY
)
if [ $rc -ne 0 ]; then fail host_stdout_runner "ab exit $rc: $(tail -3 "$T/so.err")"
elif [ "$got" != ok ]; then fail host_stdout_runner "$got"
elif ls "$T"/so/*.stdout >/dev/null 2>&1; then fail host_stdout_runner "stdout files left: $(ls "$T"/so/*.stdout)"
elif ! grep -q "^guest: running" "$T"/so/run-001-?.log 2>/dev/null; then fail host_stdout_runner "the runner's stderr is not in its log: $(ls "$T/so")"
elif grep -q "{" "$T"/so/run-00?-?.log; then fail host_stdout_runner "the JSON went to the log too"
else pass host_stdout_runner; fi

cat >"$T/garbage.sh" <<'RUNNER'
#!/bin/sh
echo "not json: the result was left in the guest"
RUNNER
chmod +x "$T/garbage.sh"
"$IOTRIAL" ab --runs=1 --dir="$T/gb" --runner="$T/garbage.sh" --a iodepth=1 --b iodepth=2 \
	--name=j --ioengine=null --size=1m >"$T/gb.out" 2>"$T/gb.err"
rc=$?
if [ $rc -eq 0 ]; then fail host_stdout_garbage "ab exit 0"
elif [ "$(wc -l <"$T/gb.err" | tr -d ' ')" -gt 3 ] || ! grep -q "run-001-[AB].json: cannot open" "$T/gb.err"; then fail host_stdout_garbage "$(tail -2 "$T/gb.err")"
elif ! grep -q "^not json: the result was left" "$T"/gb/run-001-?.log 2>/dev/null; then fail host_stdout_garbage "stdout not in the log: $(ls "$T/gb")"
elif ls "$T"/gb/*.stdout >/dev/null 2>&1; then fail host_stdout_garbage "stdout file left"
else pass host_stdout_garbage; fi

# a runner that marks its start (the rate server counts from there)
cat >"$T/rate.sh" <<RUNNER
#!/bin/sh
echo "\$@" >>"$T/rate.args"
touch "$T/go"
exec "$IOTRIAL" "\$@"
RUNNER
chmod +x "$T/rate.sh"
RATEJOB="--name=j --ioengine=null --size=1m --rw=randread --rate_iops=1000 --ramp_time=1 --runtime=2 --time_based --series_interval=100ms"
# within FILE...: each result's host ops near its total_ios (tol below), with a series
within() {
	python3 - "$@" <<'PY'
import json, sys
# the fake counts 1000 ops/s of ideal time; the guest's rate limiter on a busy
# machine falls behind and catches up inside its intervals, which the window
# follows (its series) and the fake does not: 3% here (0.3% when quiet), 1%
# against a real QEMU (vm_host_single), where the drive counts the guest's I/Os
tol = 0.03
why = []
for f in sys.argv[1:]:
    try:
        r = json.load(open(f))
    except ValueError as e:
        why.append("%s: %s" % (f, e)); continue
    h = r["iotrial"].get("host")
    ios = sum(j[k]["total_ios"] for j in r["jobs"] for k in ("read", "write", "trim"))
    if not h:
        why.append("%s: no iotrial.host" % f); continue
    if abs(h["ops"] - ios) > tol * ios:
        why.append("%s: host ops %s, guest total_ios %d (window %s)" % (f[-13:], h["ops"], ios, h.get("window")))
    ser = h.get("series") or []
    phases = set(x.get("phase") for x in ser)
    if h.get("series_interval_ms") != 100 or not {"ramp", "measured"} <= phases:
        why.append("%s: series of %d, interval %s, phases %s" % (f[-13:], len(ser), h.get("series_interval_ms"), sorted(map(str, phases))))
    elif sum(1 for x in ser if x["phase"] == "measured" and x["ops"] > 0) < 10:
        why.append("%s: ops moved in %d measured intervals" % (f[-13:], sum(1 for x in ser if x["ops"] > 0)))
print("; ".join(why) or "ok")
PY
}

serve rate
"$IOTRIAL" ab --runs=1 --dir="$T/rate" --runner="$T/rate.sh" --host-qmp="$T/q.sock" \
	--a iodepth=1 --b iodepth=2 $RATEJOB >"$T/rate.out" 2>"$T/rate.err"
rc=$?
stop
got=$(within "$T"/rate/run-*.json)
if [ $rc -ne 0 ]; then fail host_series "ab exit $rc: $(tail -3 "$T/rate.err")"
elif [ "$got" != ok ]; then fail host_series "$got"
else pass host_series; fi

serve ratedies
"$IOTRIAL" ab --runs=1 --dir="$T/van" --runner="$T/rate.sh" --host-qmp="$T/q.sock" \
	--a iodepth=1 --b iodepth=2 $RATEJOB >"$T/van.out" 2>"$T/van.err"
rc=$?
stop
got=$(python3 - "$T/van" <<'PY'
import glob, json, sys
why = []
fs = sorted(glob.glob(sys.argv[1] + "/run-*.json"))
if len(fs) != 2: why.append("%d results" % len(fs))
kept = 0
for f in fs:
    h = json.load(open(f))["iotrial"].get("host")
    if h:
        kept += 1
        if not h["window"].get("lost") or not 0 < h["ops"] < 0.95 * h["guest_ios"]:
            why.append("%s: window %s ops %s" % (f[-13:], h["window"], h["ops"]))
        elif not any(p["id"] == "host_partial" for p in h["pitfalls"]):
            why.append("%s: no host_partial pitfall: %s" % (f[-13:], h["pitfalls"]))
if not kept: why.append("no result kept the samples taken before")
print("; ".join(why) or "ok")
PY
)
if [ $rc -ne 0 ]; then fail host_vanish "ab exit $rc: $(tail -3 "$T/van.err")"
elif [ "$got" != ok ]; then fail host_vanish "$got"
elif [ "$(grep -c 'warning: --host-qmp' "$T/van.err")" -ne 2 ] || ! grep -q "^ab: warning: --host-qmp: run 1: the socket went away mid-run" "$T/van.err"; then
	fail host_vanish "not one warning per run: $(grep warning "$T/van.err")"
else pass host_vanish; fi

# one run from the host, no ab: JSON on stdout, text with the host's lines, --output
serve rate
: >"$T/rate.args"
"$IOTRIAL" --runner="$T/rate.sh" --host-qmp="$T/q.sock" --output-format=json $RATEJOB \
	>"$T/single.json" 2>"$T/single.err"
rc=$?
stop
got=$(within "$T/single.json")
serve rate
"$IOTRIAL" --runner="$T/rate.sh" --host-qmp "$T/q.sock" $RATEJOB >"$T/single.txt" 2>"$T/single_txt.err"
rc2=$?
stop
serve ok
"$IOTRIAL" --runner="$T/stdout.sh" --host-qmp="$T/q.sock" --output-format=normal,json \
	--output="$T/single_file.out" --name=j --ioengine=null --size=1m --series_interval=30s >"$T/single_file.stdout" 2>"$T/single_file.err"
rc3=$?
stop
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ] || [ $rc3 -ne 0 ]; then
	fail host_single_run "exit $rc/$rc2/$rc3: $(tail -2 "$T/single.err") $(tail -2 "$T/single_txt.err") $(tail -2 "$T/single_file.err")"
elif [ "$got" != ok ]; then fail host_single_run "$got"
elif ! grep -q "^j: (groupid=0" "$T/single.txt" || ! grep -q "^The host's side (QEMU" "$T/single.txt" ||
	! grep -q "^  ops  *: [0-9]* (.*) for the guest's [0-9]* I/Os" "$T/single.txt" ||
	! grep -q "^  time per I/O (us)  *: guest tool .*host backend" "$T/single.txt"; then
	fail host_single_run "text output: $(grep -A8 "host's side" "$T/single.txt" | head -9)"
elif grep -q '^{' "$T/single.txt"; then fail host_single_run "JSON in the text output"
elif [ -s "$T/single_file.stdout" ] || ! grep -q "^The host's side" "$T/single_file.out" ||
	! sed -n '/^{/,$p' "$T/single_file.out" | python3 -c "import json,sys; sys.exit(json.load(sys.stdin)['iotrial']['host']['ops'] != 1000)"; then
	fail host_single_run "--output=FILE with normal,json (a runner printing on stdout): $(head -c 300 "$T/single_file.out")"
elif grep -q -- "--host-qmp\|--runner" "$T/rate.args"; then fail host_single_run "the runner saw $(grep -h -- "host-qmp\|runner" "$T/rate.args" | head -1)"
else pass host_single_run; fi

"$IOTRIAL" --host-qmp="$T/q.sock" --name=j --ioengine=null --size=1m >"$T/sb1.out" 2>"$T/sb1.err"
rc=$?
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 "$IOTRIAL" --runner="$T/runner.sh" --host-qmp="$T/q.sock" \
	--name=j --ioengine=null --size=1m >"$T/sb2.out" 2>"$T/sb2.err"
rc2=$?
if [ $rc -ne 2 ] || [ "$(wc -l <"$T/sb1.err")" -ne 1 ] || ! grep -q "needs --runner" "$T/sb1.err"; then
	fail host_single_bad "no --runner: exit $rc: $(cat "$T/sb1.err")"
elif [ $rc2 -ne 2 ] || [ "$(wc -l <"$T/sb2.err")" -ne 1 ] || ! grep -q "MPI launcher" "$T/sb2.err"; then
	fail host_single_bad "MPI: exit $rc2: $(cat "$T/sb2.err")"
elif [ -s "$T/sb1.out" ] || [ -s "$T/sb2.out" ]; then fail host_single_bad "something ran"
else pass host_single_bad; fi

# --runner alone: one run through the runner, its result as a run's, no host's view
"$IOTRIAL" --runner="$T/runner.sh" --output-format=json --name=j --ioengine=null --size=1m \
	>"$T/ro.json" 2>"$T/ro.err"
rc=$?
if [ $rc -ne 0 ]; then fail host_runner_only "exit $rc: $(tail -2 "$T/ro.err")"
elif ! python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit('host' in r['iotrial'] or r['jobs'][0]['read']['total_ios'] != 256)" "$T/ro.json"; then
	fail host_runner_only "not the run's result: $(head -c 200 "$T/ro.json")"
else pass host_runner_only; fi
