# The worker's batched paths keep every I/O counted: with
# iodepth_batch_submit=0 a refill is committed at once (iodepth_submit 17-32),
# by default each I/O alone (1-4), as fio; I/Os reaped together are accounted as runs (counts,
# bytes and histogram totals still match I/O for I/O, mixed directions
# included), and io_uring's submit-and-wait step (disable_slat=1
# disable_clat=1) issues exactly the job.
. "$(dirname "$0")/lib.sh"

cat >"$T/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want_ios, want_bytes, want_sub = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
lats = sys.argv[5].split(",")
j = d["jobs"][0]
errs = []
ios = sum(j[k]["total_ios"] for k in ("read", "write"))
nbytes = sum(j[k]["io_bytes"] for k in ("read", "write"))
if ios != want_ios:
    errs.append("total_ios %d, wanted %d" % (ios, want_ios))
if nbytes != want_bytes:
    errs.append("io_bytes %d, wanted %d" % (nbytes, want_bytes))
for k in ("read", "write"):
    x = j[k]
    if x["io_bytes"] != 4096 * x["total_ios"]:
        errs.append("%s: io_bytes %d != 4096 x %d" % (k, x["io_bytes"], x["total_ios"]))
    for lat in lats:
        if x[lat]["N"] != x["total_ios"]:
            errs.append("%s %s: N %d != total_ios %d" % (k, lat, x[lat]["N"], x["total_ios"]))
    bins = x["clat_ns"].get("bins")
    if x["total_ios"] and bins is not None and sum(bins.values()) != x["total_ios"]:
        errs.append("%s: clat bins hold %d I/Os, not %d" % (k, sum(bins.values()), x["total_ios"]))
    if x["total_ios"] and not x["lat_ns"]["min"] <= x["lat_ns"]["mean"] <= x["lat_ns"]["max"]:
        errs.append("%s: lat min/mean/max out of order" % k)
if want_sub != "0" and j["iodepth_submit"][want_sub] < 99.0:
    errs.append("iodepth_submit bucket %s is %.1f%%, wanted all commits there" % (want_sub, j["iodepth_submit"][want_sub]))
if errs:
    print("; ".join(errs))
    sys.exit(1)
PY

# run NAME IOS BYTES SUB32 LATS ARGS...: the job must exit 0 and pass check.py
# (LATS: the latencies whose N must equal total_ios).
run() {
	name=$1 ios=$2 bytes=$3 sub=$4 lats=$5; shift 5
	if "$IOTRIAL" "$@" --output-format=json+ >"$T/$name.json" 2>"$T/err"; then
		if msg=$(python3 "$T/check.py" "$T/$name.json" "$ios" "$bytes" "$sub" "$lats" 2>&1); then
			pass "$name"
		else
			fail "$name" "$msg"
		fi
	else
		fail "$name" "exit $?: $(head -c 300 "$T/err")"
	fi
}

# 64 MiB of 4k I/O = 16384, in 512 refills of 32 (the null engine completes at once)
run null_qd32_runs 16384 67108864 32 lat_ns,clat_ns,slat_ns --name=n --ioengine=null --rw=randread --bs=4k \
	--size=16m --io_size=64m --iodepth=32 --iodepth_batch_submit=0
# directions drawn per I/O: runs break at every change, every I/O still counted once
run null_qd32_mixed 16384 67108864 32 lat_ns,clat_ns,slat_ns --name=m --ioengine=null --rw=randrw --rwmixread=70 \
	--bs=4k --size=16m --io_size=64m --iodepth=32 --iodepth_batch_submit=0
# the default: one I/O per commit, as fio's iodepth_batch_submit=1
run null_qd32_default 16384 67108864 4 lat_ns,clat_ns,slat_ns --name=e --ioengine=null --rw=randread --bs=4k \
	--size=16m --io_size=64m --iodepth=32
# the batching options mean what they mean to fio 3.33: the same submit and
# complete distributions on the same null job (fio enters once per I/O by
# default, reaps what it will resubmit, a whole queue with 0)
if command -v fio >/dev/null 2>&1; then
	for a in "" "--iodepth_batch_submit=8" "--iodepth_batch_submit=0" "--iodepth_batch_complete_min=4"; do
		n=batch_like_fio${a:+_$(echo "$a" | tr -d ' -' | tr '=' '_')}
		# shellcheck disable=SC2086
		fio --name=b --ioengine=null --rw=read --bs=4k --size=16m --iodepth=32 $a \
			--output-format=json >"$T/f.json" 2>/dev/null &&
		# shellcheck disable=SC2086
		"$IOTRIAL" --name=b --ioengine=null --rw=read --bs=4k --size=16m --iodepth=32 $a \
			--output-format=json >"$T/i.json" 2>"$T/err" &&
		msg=$(pyjson "import json
def dist(f):
    j = json.load(open(f))['jobs'][0]
    return {k: {b: round(v) for b, v in j[k].items() if round(v)} for k in ('iodepth_submit', 'iodepth_complete')}
f, i = dist('$T/f.json'), dist('$T/i.json')
assert f == i, 'fio %s, iotrial %s' % (f, i)" 2>&1) && pass "$n" || fail "$n" "${msg:-$(head -c 300 "$T/err")}"
	done
else
	skip batch_like_fio "fio is not installed"
fi
# an explicit batch keeps fio's meaning: commits of 8 (bucket 5-8), none of 32
"$IOTRIAL" --name=b --ioengine=null --rw=read --bs=4k --size=4m --iodepth=32 \
	--iodepth_batch_submit=8 --output-format=json >"$T/b8.json" 2>"$T/err" &&
	pyjson "import json; s=json.load(open('$T/b8.json'))['jobs'][0]['iodepth_submit']
assert s['8'] > 99.0 and s['32'] == 0, s" 2>/dev/null &&
	pass batch_submit_8 || fail batch_submit_8 "$(cat "$T/b8.json" "$T/err" | head -c 300)"
# io_uring, submit and wait in one enter: 8 MiB over a 4 MiB file = 2048 reads
run uring_commit_wait 2048 8388608 0 lat_ns --name=u --ioengine=io_uring --rw=randread --bs=4k \
	--size=4m --io_size=8m --iodepth=16 --disable_slat=1 --disable_clat=1 --directory="$T"
# and the usual path, for the same counts
run uring_default 2048 8388608 0 lat_ns,clat_ns,slat_ns --name=u --ioengine=io_uring --rw=randread --bs=4k \
	--size=4m --io_size=8m --iodepth=16 --directory="$T"
