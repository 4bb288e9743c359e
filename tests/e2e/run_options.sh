# Options that must really work, checked through the JSON they produce.
. "$(dirname "$0")/lib.sh"

run_json() { # NAME ARGS... -> $T/NAME.json, fails the test on a non-zero exit
	n=$1; shift
	"$IOTRIAL" "$@" --output-format=json >"$T/$n.json" 2>"$T/$n.err" || {
		fail "$n" "exit $?: $(head -c 300 "$T/$n.err")"; return 1; }
}
py_check() { # NAME PYTHON (with j = first job, d = document)
	n=$1
	if msg=$(python3 -c "
import json, sys
d = json.load(open('$T/$n.json'))
j = d['jobs'][0]
$2
" 2>&1); then pass "$n"; else fail "$n" "$(echo "$msg" | tail -n 1)"; fi
}

# rate_iops holds the rate: 2 s at 500 IOPS.
run_json rate_iops --name=r --ioengine=null --rw=randread --size=64m --rate_iops=500 --runtime=2 --time_based &&
py_check rate_iops "assert abs(j['read']['iops'] - 500) < 25, j['read']['iops']"

# ramp_time: statistics restart after the ramp; runtime counts after it.
# (job_runtime up to +200 ms: time_based runs overran by 0-14 ms under
# tests/load.sh, lib.sh)
run_json ramp --name=r --ioengine=null --rw=read --size=64m --rate_iops=1000 --ramp_time=1 --runtime=1 --time_based &&
py_check ramp "
n = j['read']['total_ios']
assert 900 <= n <= 1100, n
assert 900 <= j['job_runtime'] <= 1200, j['job_runtime']
assert j['elapsed'] >= 2, j['elapsed']"

# numjobs without group_reporting: one entry per clone; with it: one merged.
run_json clones --name=c --ioengine=null --rw=read --size=4m --numjobs=3 &&
py_check clones "
assert len(d['jobs']) == 3, len(d['jobs'])
assert all(x['read']['total_ios'] == 1024 for x in d['jobs'])"
run_json grouped --name=c --ioengine=null --rw=read --size=4m --numjobs=3 --group_reporting &&
py_check grouped "
assert len(d['jobs']) == 1, len(d['jobs'])
assert j['read']['total_ios'] == 3072, j['read']['total_ios']
assert j['read']['clat_ns']['N'] == 3072"

# group bw/iops samples add the threads' samples period by period (fio): the
# group's iops_mean is the group's rate, not one thread's.
run_json group_samples --name=g --ioengine=null --rw=read --size=64m --rate_iops=500 --numjobs=3 \
	--group_reporting --runtime=2 --time_based &&
py_check group_samples "
r = j['read']
assert abs(r['iops_mean'] - 1500) < 60, r['iops_mean']
assert r['iops_samples'] >= 3, r['iops_samples']"

# io_size and loops bound a non-time_based job exactly.
run_json loops --name=l --ioengine=null --rw=read --bs=4k --size=1m --loops=3 &&
py_check loops "assert j['read']['total_ios'] == 768, j['read']['total_ios']"
run_json io_size --name=l --ioengine=null --rw=randread --bs=4k --size=1m --io_size=3m &&
py_check io_size "assert j['read']['total_ios'] == 768, j['read']['total_ios']"

# rwmixread=70 on randrw.
run_json rwmix --name=m --ioengine=null --rw=randrw --rwmixread=70 --size=64m --io_size=400m &&
py_check rwmix "
r, w = j['read']['total_ios'], j['write']['total_ios']
assert abs(r / (r + w) - 0.70) < 0.01, r / (r + w)"

# fsync=4 issues one fsync per 4 writes, on a real file.
run_json fsync --name=f --rw=write --bs=4k --size=256k --fsync=4 --directory="$T" &&
py_check fsync "assert j['sync']['total_ios'] == 16, j['sync']['total_ios']"

# stonewall: the second job starts after the first ends, in a new group.
run_json stonewall --name=a --ioengine=null --rw=read --size=1m --rate_iops=1000 --name=b --stonewall --ioengine=null --rw=read --size=1m &&
py_check stonewall "assert [x['groupid'] for x in d['jobs']] == [0, 1], [x['groupid'] for x in d['jobs']]"

# json+ carries bins that fio's own fio_jsonplus_clat2csv reads.
if command -v fio_jsonplus_clat2csv >/dev/null; then
	"$IOTRIAL" --name=p --ioengine=null --rw=randread --size=4m --output-format=json+ >"$T/plus.json" 2>/dev/null
	if (cd "$T" && fio_jsonplus_clat2csv plus.json plus.csv >/dev/null 2>&1) && ls "$T"/plus*.csv >/dev/null 2>&1; then
		pass jsonplus_clat2csv
	else
		fail jsonplus_clat2csv "fio_jsonplus_clat2csv could not read our json+"
	fi
else
	skip jsonplus_clat2csv "fio_jsonplus_clat2csv not installed"
fi

# --output writes the file whole; stdout stays empty.
"$IOTRIAL" --name=o --ioengine=null --rw=read --size=1m --output-format=json --output="$T/o.json" >"$T/o.stdout" 2>&1
if [ ! -s "$T/o.stdout" ] && pyjson "import json; json.load(open('$T/o.json'))"; then
	pass output_file
else
	fail output_file "stdout: $(head -c 200 "$T/o.stdout")"
fi

# normal output: fio-like text with the run status line.
"$IOTRIAL" --name=t --ioengine=null --rw=randrw --size=4m >"$T/t.txt" 2>&1
if grep -q "Run status group 0" "$T/t.txt" && grep -q "read: IOPS=" "$T/t.txt"; then
	pass text_output
else
	fail text_output "$(head -c 300 "$T/t.txt")"
fi

# cpus_allowed pins the worker thread; a CPU the machine lacks is a usage error.
if [ "$(nproc)" -ge 2 ]; then
	"$IOTRIAL" --name=c --ioengine=null --rw=randread --size=64m --runtime=2 --time_based \
		--cpus_allowed=1 --output-format=json >/dev/null 2>&1 &
	pid=$!
	sleep 1
	psr=$(ps -L -o psr= -p $pid | tail -n 1 | tr -d ' ')
	wait $pid
	if [ "$psr" = 1 ]; then pass cpus_allowed_pins; else fail cpus_allowed_pins "worker ran on CPU '$psr'"; fi
else
	skip cpus_allowed_pins "needs 2 CPUs"
fi
expect_exit cpus_allowed_missing 2 "cpus_allowed" "$IOTRIAL" --name=c --ioengine=null --size=1m --cpus_allowed=1000

# fadvise_hint (fio's default 1): random jobs advise POSIX_FADV_RANDOM so that
# readahead does not turn buffered random reads into cache hits.
if command -v strace >/dev/null; then
	strace -f -e trace=fadvise64 -o "$T/fadv.txt" "$IOTRIAL" --name=a --rw=randread --size=1m \
		--directory="$T" --output-format=json >/dev/null 2>&1
	if grep -q POSIX_FADV_RANDOM "$T/fadv.txt"; then pass fadvise_random; else fail fadvise_random "$(cat "$T/fadv.txt")"; fi
	strace -f -e trace=fadvise64 -o "$T/fadv0.txt" "$IOTRIAL" --name=a --rw=randread --size=1m \
		--fadvise_hint=0 --directory="$T" --output-format=json >/dev/null 2>&1
	if ! grep -q "POSIX_FADV_RANDOM\|POSIX_FADV_SEQUENTIAL" "$T/fadv0.txt"; then pass fadvise_none; else fail fadvise_none "advised with fadvise_hint=0"; fi
else
	skip fadvise_random "strace not installed"
fi
