#!/bin/sh
# Issue 16: per-interval device views kept bounded while the job runs.  A 2 s
# O_DIRECT job on a file under a temp dir (the block device under it watched)
# with 10 ms intervals and series_max=8: at most 8 elements, every one with
# its device view, and the views add up to the totals: the sum over elements
# of read_iops x dur_us is the job's reads (within 5%, plus what others read
# from the same disk) and the measured-time view's reads.  Once more with
# group_reporting over 2 threads (the views are the first thread's, of the
# whole device: both threads' reads).
. "$(dirname "$0")/lib.sh"

cat >"$T/check.py" <<'PY'
import json, sys
name = sys.argv[2]
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
iv = j["iotrial"]["intervals"]
if not 1 <= len(iv) <= 8:
    print("FAIL %s: %d elements, series_max 8" % (name, len(iv))); sys.exit()
nodev = [k for k, e in enumerate(iv) if "device" not in e]
if nodev:
    print("FAIL %s: elements %s have no device view" % (name, nodev)); sys.exit()
n = sum(e.get("intervals", 1) for e in iv)
if n < 100:
    print("FAIL %s: the elements hold %d intervals, want ~200" % (name, n)); sys.exit()
dev = sum(e["device"]["read_iops"] * e["dur_us"] / 1e6 for e in iv)
ios = j["read"]["total_ios"]
du = [x["iotrial"] for x in d.get("disk_util", []) if "iotrial" in x]
# a group's disk_util view adds its threads' (each saw the whole device): not compared
whole = du[0]["read_iops"] * j["job_runtime"] / 1e3 if du and len(sys.argv) < 4 else None
if not (0.95 * ios - 20 <= dev <= 1.5 * ios + 200):
    print("FAIL %s: device views sum to %.0f reads, job %d" % (name, dev, ios))
elif whole is not None and abs(dev - whole) > 0.05 * whole + 40:
    print("FAIL %s: device views sum to %.0f reads, measured view %.0f" % (name, dev, whole))
else:
    print("PASS %s (%d elements over %d intervals; views %.0f reads, job %d, measured view %s)"
          % (name, len(iv), n, dev, ios, "%.0f" % whole if whole is not None else "-"))
PY

# the block device under $T, found as iotrial finds it: from st_dev through
# /sys/dev/block (a chroot's mount table may not name it; df then says "-")
majmin=$(stat -c '%Hd:%Ld' "$T" 2>/dev/null)
if [ ! -e "/sys/dev/block/$majmin" ]; then
	skip device_bounded "no block device under $T (st_dev $majmin has no /sys/dev/block entry)"
	skip device_bounded_group "same"
	exit 0
fi
job="--ioengine=psync --rw=randread --direct=1 --bs=4k --size=16m --rate_iops=1000 --time_based
 --runtime=2 --series_interval=10ms --series_max=8 --output-format=json"
# shellcheck disable=SC2086
if ! "$IOTRIAL" --name=one --filename="$T/f" $job --output="$T/one.json" >"$T/one.err" 2>&1; then
	if grep -qi "direct\|EINVAL" "$T/one.err"; then
		skip device_bounded "O_DIRECT not supported under $T"
		skip device_bounded_group "same"
		exit 0
	fi
	fail device_bounded "exit $(cat "$T/one.err")"
else
	python3 "$T/check.py" "$T/one.json" device_bounded
fi
# shellcheck disable=SC2086
if ! "$IOTRIAL" --name=grp --filename="$T/f" $job --numjobs=2 --group_reporting \
	--output="$T/grp.json" >"$T/grp.err" 2>&1; then
	fail device_bounded_group "exit $(cat "$T/grp.err")"
else
	# the first thread's views, but of the whole device: both threads' reads
	python3 "$T/check.py" "$T/grp.json" device_bounded_group group
fi
