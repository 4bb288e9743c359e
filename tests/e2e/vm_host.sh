#!/bin/sh
# The host's view of a real QEMU guest (docs/vm.md), through the guest
# harness (tests/vm): a trial of virtio-blk (with an iothread) against NVMe
# driven from the host, each run in the guest (tests/vm/guest-iotrial), QEMU
# sampled through its QMP socket (ab --host-qmp).
#  - vm_host_ops: per run, QMP's ops on the drive within 1% of the guest's
#    total_ios (the drive found from the counters, the one named in vm.json).
#  - vm_host_cpu: QEMU's CPU per I/O above 0 for each role that ran (vCPU and
#    main loop on both sides, the iothread on virtio-blk's).
#  - vm_host_virt: virt_path_ns >= 0 in every run.
#  - vm_host_verdicts: ab's comparison has every host.* metric with a verdict.
#  - vm_host_single: one run from the host (iotrial --runner --host-qmp, no
#    ab) with ramp_time: QMP's ops over the guest's measured window within 1%
#    of its total_ios (the ramp's I/Os left out), the window aligned; up to 3
#    tries (a busy TCG guest's rate swings move the window by a part of one
#    of its intervals).
#  - vm_host_report: that run's text ends with the host's lines, and
#    iotrial report shows the host's section with its series charts.
#  - vm_host_killed: QEMU killed mid-trial ends the trial (non-zero exit, one
#    error line) with the completed runs kept and a report that says so.
# Slow under TCG: skipped under SANITIZE=1 (the plain pass runs it once).
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
V="$SRC/tests/vm/vm.sh"
NAMES="vm_host_ops vm_host_cpu vm_host_virt vm_host_verdicts vm_host_single vm_host_report vm_host_killed"
skip_all() { for n in $NAMES; do skip $n "$1"; done; exit 0; }
case "$IOTRIAL" in */build/san/iotrial) SANITIZE=1 ;; esac
[ "${SANITIZE:-0}" = 1 ] && skip_all "SANITIZE=1: the guest tests run once, in the plain pass (TCG is slow)"
[ -x "$V" ] || skip_all "no guest harness in this tree (tests/vm/vm.sh)"
for c in qemu-system-x86_64 busybox cpio python3; do
	command -v $c >/dev/null 2>&1 || skip_all "$c is missing (scripts/deps.sh installs qemu-system-x86, busybox-static, cpio)"
done
export IOTRIAL_VM_RUN="$T/vm"
export IOTRIAL_VM_TIMEOUT=${IOTRIAL_VM_TIMEOUT:-180}	# as vm_setup (lib.sh)
G=h
trap '"$V" stop $G >/dev/null 2>&1; lib_cleanup' EXIT
if ! "$V" boot $G --iotrial "$IOTRIAL" --disks vblk-iothread,nvme --size 16M --lifetime 400 \
	>"$T/boot.out" 2>"$T/boot.err"; then
	for n in $NAMES; do fail $n "the guest did not boot: $(tail -c 300 "$T/boot.err")"; done
	exit 0
fi
"$V" info $G >"$T/vm.json"
info() { python3 -c "
import json, sys
d = json.load(open('$T/vm.json'))
if sys.argv[1] == 'qmp' or sys.argv[1] == 'pid': print(d[sys.argv[1]])
else: print([x for x in d['disks'] if x['kind'] == sys.argv[1]][0][sys.argv[2]])" "$@"; }
VD=$(info vblk-iothread guest_dev) ND=$(info nvme guest_dev) QMP=$(info qmp)
# write the disks first: reads of blocks never written cost the host nothing
"$V" sh $G "dd if=/dev/zero of=$VD bs=1M count=16 oflag=direct 2>/dev/null; dd if=/dev/zero of=$ND bs=1M count=16 oflag=direct 2>/dev/null" >/dev/null 2>&1

RUNNER="$SRC/tests/vm/guest-iotrial --vm $G"
"$IOTRIAL" ab --runs=2 --dir="$T/ab" --runner="$RUNNER" --host-qmp="$QMP" --output-format=json \
	--a filename="$VD" --b filename="$ND" --name=j --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=4 --size=16M --runtime=1 --time_based >"$T/ab.json" 2>"$T/ab.err"
rc=$?
python3 - "$T/ab" "$T/ab.json" "$rc" "$(info vblk-iothread drive)" "$(info nvme drive)" <<'PY' >"$T/res"
import glob, json, sys
d, cmpf, rc, dv, dn = sys.argv[1:6]
runs = sorted(f for f in glob.glob(d + "/run-*.json"))
ops, cpu, virt = [], [], []
for f in runs:
    r = json.load(open(f))
    h = r["iotrial"].get("host")
    ios = sum(j[k]["total_ios"] for j in r["jobs"] for k in ("read", "write", "trim"))
    if not h:
        ops.append("%s: no iotrial.host" % f); continue
    want = dv if f.endswith("-A.json") else dn
    if h["drive"] != want or abs(h["ops"] - ios) > 0.01 * ios:
        ops.append("%s: drive %s ops %s, guest %d I/Os" % (f[-13:], h["drive"], h["ops"], ios))
    by = h["cpu_per_io_ns_by_role"]
    roles = ["vcpu", "main_loop"] + (["iothread"] if f.endswith("-A.json") else [])
    bad = [x for x in roles if not (by.get(x) or 0) > 0]
    if bad:
        cpu.append("%s: %s" % (f[-13:], by))
    if h["virt_path_ns"] is None or h["virt_path_ns"] < 0:
        virt.append("%s: %s" % (f[-13:], h["virt_path_ns"]))
if len(runs) != 4:
    ops.append("%d runs (ab exit %s)" % (len(runs), rc))
try:
    c = json.load(open(cmpf))
    m = {x["name"]: x for x in c["metrics"]}
except (ValueError, KeyError) as e:
    m = {}
want = ["host.cpu_per_io_ns", "host.cpu_per_io_ns.vcpu", "host.cpu_per_io_ns.main_loop",
        "host.cpu_per_io_ns.iothread", "host.backend_lat_ns", "host.virt_path_ns"]
miss = [w for w in want if not (m.get(w) or {}).get("verdict")]
print("ops " + ("; ".join(ops) or "ok"))
print("cpu " + ("; ".join(cpu) or "ok"))
print("virt " + ("; ".join(virt) or "ok"))
print("verdicts " + ("missing %s of %s" % (miss, sorted(m)) if miss else "ok"))
PY
for k in ops cpu virt verdicts; do
	got=$(sed -n "s/^$k //p" "$T/res")
	if [ "$got" = ok ]; then pass vm_host_$k; else fail vm_host_$k "${got:-no result: $(tail -c 300 "$T/ab.err")}"; fi
done

# one run from the host (no ab) with a ramp: QMP's ops over the guest's measured
# window, the text's host lines, and iotrial report's host section.  Up to 3
# tries: where the guest's rate swings inside its intervals (TCG beside other
# tests) the window's start moves by a part of one; a ramp counted in, or I/Os
# not the guest's, miss by far more in every try.
tries=""
for try in 1 2 3; do
"$IOTRIAL" --runner="$RUNNER" --host-qmp="$QMP" --output-format=normal,json --output="$T/one.out" \
	--name=j --filename="$VD" --rw=randread --bs=4k --direct=1 --ioengine=io_uring --iodepth=4 \
	--size=16M --ramp_time=1 --runtime=2 --time_based --series_interval=100ms >"$T/one.stdout" 2>"$T/one.err"
rc=$?
sed -n '/^{/,$p' "$T/one.out" >"$T/one.json"
got=$(python3 - "$T/one.json" "$(info vblk-iothread drive)" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError as e:
    print("no JSON: %s" % e); sys.exit(0)
h = r["iotrial"].get("host")
ios = sum(j[k]["total_ios"] for j in r["jobs"] for k in ("read", "write", "trim"))
ramp = sum(x["read"]["ios"] for j in r["jobs"] for x in j["iotrial"]["intervals"] if x.get("ramp"))
if not h:
    print("no iotrial.host")
elif h["drive"] != sys.argv[2] or abs(h["ops"] - ios) > 0.01 * ios or h["window"]["from"] != "measured":
    print("drive %s ops %s, guest total_ios %d (ramp %d), window %s" % (h["drive"], h["ops"], ios, ramp, h["window"]))
elif ramp <= 0 or not any(x.get("phase") == "ramp" for x in h["series"]):
    print("no ramp: %d ramp I/Os, phases %s" % (ramp, sorted(set(str(x.get("phase")) for x in h["series"]))))
else:
    print("ok %s = %d (ramp %d left out, alignment spread %.1f ms)" % (h["ops"], ios, ramp, h["window"]["align_spread_ms"]))
PY
)
case "$got" in ok*) break ;; esac
tries="$tries [try $try, exit $rc: $got $(tail -c 200 "$T/one.err")]"
done
case "$got" in
ok*) pass "vm_host_single (${got#ok }${tries:+ after$tries})" ;;
*) fail vm_host_single "$tries" ;;
esac
"$IOTRIAL" report "$T/one.json" -o "$T/one.html" 2>"$T/rep.err"
if ! grep -q "^The host's side (QEMU" "$T/one.out" || ! grep -q "^  virtual device path: " "$T/one.out" ||
	! grep -q "^  time per I/O (us)  *: guest tool .* host backend [0-9]" "$T/one.out"; then
	fail vm_host_report "text: $(grep -A9 "host's side" "$T/one.out" | head -10)"
elif ! grep -q "<h3>The host's side (QEMU)</h3>" "$T/one.html" || ! grep -q 'id="host-ops"' "$T/one.html" ||
	! grep -q 'id="host-cpu"' "$T/one.html"; then
	fail vm_host_report "report.html has no host section or charts: $(cat "$T/rep.err")"
else pass vm_host_report; fi


# QEMU killed mid-trial: after a run of each side, kill -9
"$IOTRIAL" ab --runs=3 --dir="$T/ab2" --runner="$RUNNER" --host-qmp="$QMP" \
	--a filename="$VD" --b filename="$ND" --name=j --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=4 --size=16M --runtime=2 --time_based >"$T/ab2.out" 2>"$T/ab2.err" &
AB=$!
i=0
# up to 180 s: TCG beside other tests can take over 60 s for two runs
while [ $i -lt 1800 ] && ! ls "$T/ab2"/run-002-?.json >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -9 "$(info pid)" 2>/dev/null
wait $AB
rc=$?
n=$(ls "$T/ab2"/run-*.json 2>/dev/null | wc -l)
if [ $rc -ne 0 ] && [ "$n" -ge 2 ] && [ "$(grep -c '^iotrial: error:' "$T/ab2.err")" -eq 1 ] &&
	grep -q "ended early" "$T/ab2/report.html" 2>/dev/null; then
	pass "vm_host_killed (exit $rc, $n run(s) kept)"
else
	fail vm_host_killed "exit $rc, $n runs kept, report: $(ls "$T/ab2"); $(grep error "$T/ab2.err" | head -2)"
fi
