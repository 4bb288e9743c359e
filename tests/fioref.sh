#!/bin/sh
# Makes the fio reference outputs the tests compare iotrial against, by running
# the fio installed here (so a clone needs nothing but fio): the same five jobs
# as fio 3.33's samples in the project's spec folder, each about one second.
#   null.json   ioengine=null randread QD8
#   psync.json  psync randread on a file (buffered), with disk_util
#   uring.json  io_uring randrw 70/30 QD16 on a file, kb_base=1024
#   jp.json     --output-format=json+ (latency "bins")
#   ss.json     steadystate=iops:20% on a rate-limited job, so it is attained
# Usage: tests/fioref.sh OUTDIR.  Writes OUTDIR/fio-version last, so a run that
# was cut short is made again next time.  Exits 0 without output when fio is
# missing (tests that need these files then skip, saying why).
set -u
out=$1
command -v fio >/dev/null 2>&1 || exit 0
ver=$(fio --version 2>/dev/null)
[ -f "$out/fio-version" ] && [ "$(cat "$out/fio-version")" = "$ver" ] && exit 0
rm -rf "$out" && mkdir -p "$out" || exit 1
d=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-fioref.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
f=$d/f1
run() {	# run NAME ARGS...
	n=$1; shift
	fio --output="$out/$n.json" "$@" >"$d/log" 2>&1 || { echo "fioref: fio $n failed: $(tail -n 3 "$d/log")" >&2; exit 1; }
}
run null --output-format=json --name=nulltest --ioengine=null --rw=randread --bs=4k --size=64m --iodepth=8 --runtime=1
run psync --output-format=json --ioengine=psync --name=psync --filename="$f" --size=64m --rw=randread --bs=4k --runtime=1
run uring --output-format=json --kb_base=1024 --ioengine=io_uring --name=uring --filename="$f" --size=64m --rw=randrw --rwmixread=70 --bs=4k --iodepth=16 --runtime=1 --direct=0
run jp --output-format=json+ --ioengine=psync --name=jp --filename="$f" --size=64m --rw=randread --bs=4k --runtime=1
run ss --output-format=json --name=ss --ioengine=psync --filename="$f" --size=64m --rw=randread --bs=4k --rate_iops=2000 --runtime=8 --steadystate=iops:20% --steadystate_duration=2 --steadystate_ramp_time=0
echo "$ver" >"$out/fio-version"
