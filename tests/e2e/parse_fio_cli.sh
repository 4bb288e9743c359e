#!/bin/sh
# fio's command-line syntax as people type it (docs/compat.md, "Command line"): single-dash long
# options, unique prefixes, -o, --version, "%%", offset=0%, verify=0,
# gtod_reduce, engine-owned options; each checked against fio 3.33 when it is
# installed (fio must accept or refuse the same line).
. "$(dirname "$0")/lib.sh"
VERSION=$(cat "$(dirname "$0")/../../VERSION")
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here
F="$T/f"
: >"$F"
truncate -s 4m "$F"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3' && HAVE_FIO=1

# fio takes ~0.3 s to start: its side of both/neither is queued in $T/fioq
# (NAME.ok or NAME.no holding the arguments) and run 8 at a time at the end.
mkdir -p "$T/fioq"
# both NAME ARGS...: iotrial and fio (when present) both accept ARGS with --parse-only
both() {
	name=$1; shift
	if ! "$IOTRIAL" --parse-only "$@" >"$T/out" 2>"$T/err"; then
		fail "$name" "iotrial refused: $(head -c 300 "$T/err")"; return
	fi
	[ $HAVE_FIO = 1 ] && echo "$*" >"$T/fioq/$name.ok"
	pass "$name"
}
# neither NAME PATTERN ARGS...: iotrial refuses with PATTERN, fio refuses too
neither() {
	name=$1 pat=$2; shift 2
	"$IOTRIAL" --parse-only "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 2 ] || ! grep -qE -- "$pat" "$T/err"; then
		fail "$name" "exit $rc: $(head -c 300 "$T/err")"; return
	fi
	[ $HAVE_FIO = 1 ] && echo "$*" >"$T/fioq/$name.no"
	pass "$name"
}
# the queued fio checks: fio must accept the .ok lines and refuse the .no ones
fio_queue_check() {
	[ $HAVE_FIO = 1 ] || return 0
	ls "$T/fioq" | xargs -P 8 -I{} sh -c \
		'cd "$1" && fio --parse-only $(cat "fioq/$2") >/dev/null 2>&1; echo $? >"fioq/$2.rc"' sh "$T" {}
	for q in "$T"/fioq/*.ok "$T"/fioq/*.no; do
		[ -e "$q" ] || continue
		n=$(basename "$q"); rc=$(cat "$q.rc")
		case $n in
		*.ok) [ "$rc" -eq 0 ] && pass "fio_${n%.ok}" || fail "fio_${n%.ok}" "fio refuses it, so the test is wrong" ;;
		*.no) [ "$rc" -ne 0 ] && pass "fio_${n%.no}" || fail "fio_${n%.no}" "fio accepts it" ;;
		esac
	done
}

both single_dash -name=x -rw=randread -bs=4k -size=1m -ioengine=null -iodepth=4 -runtime=1 -time_based
both single_dash_values -name x -rw randread -size 1m -ioengine null
both prefix_time_base --name=x --size=1m --ioengine=null --runtime=1 --time_base
both prefix_process --name=x --size=1m --ioengine=null --output-fo=json
both dash_o -o "$T/o.txt" --name=x --size=1m --ioengine=null
both verify_0 --name=x --size=1m --ioengine=null --verify=0
both gtod_reduce --name=x --size=1m --ioengine=null --gtod_reduce=1
both offset_0pct --name=x --filename="$F" --size=1m --offset=0%
both double_pct --name=x --filename="$F" --size=100%% --ioengine=null
both small_opts --name=x --size=1m --ioengine=null --cpumask=1 --disable_bw=1 --exitall_on_error \
	--disk_util=0 --nice=1 --zonemode=none --exitall
both uring_opts --name=x --size=1m --ioengine=io_uring --fixedbufs --registerfiles --hipri=0
neither fixedbufs_psync "option 'fixedbufs' belongs to ioengine io_uring io_uring_cmd, not psync" \
	--name=x --size=1m --ioengine=psync --fixedbufs=1
neither sqthread_poll_psync "option 'sqthread_poll' belongs to ioengine io_uring io_uring_cmd, not psync" \
	--name=x --size=1m --ioengine=psync --sqthread_poll=1
neither hipri_libaio "option 'hipri' belongs to ioengine io_uring io_uring_cmd pvsync2, not libaio" \
	--name=x --size=1m --ioengine=libaio --hipri

expect_exit ambiguous 2 "ambiguous option '--rwmix': the start of 3 options: --rwmixread, --rwmixwrite, --rwmixcycle" \
	"$IOTRIAL" --parse-only --name=x --rwmix=50
expect_exit client 2 "unsupported option '--client': .*mpirun" "$IOTRIAL" --client=host1 job.fio
expect_exit server 2 "unsupported option '--server': .*mpirun" "$IOTRIAL" --server
expect_exit verify_crc7 2 "unsupported value 'crc7' for option 'verify'" \
	"$IOTRIAL" --parse-only --name=x --verify=crc7
expect_exit verify_trim_job 2 "verify needs rw=read, randread, write, randwrite, rw or randrw" \
	"$IOTRIAL" --parse-only --name=x --rw=trim --verify=md5

# --version in the form tools test for
got=$("$IOTRIAL" --version)
case $got in
"fio-3."*"(iotrial $VERSION)"|"fio-3."*"(iotrial $VERSION, git "*")") pass version_form ;;
*) fail version_form "$got" ;;
esac

# --help lists process options from the parser's table and no refused ones
"$IOTRIAL" --help >"$T/help" 2>&1
if grep -q -- '--output-format=LIST' "$T/help" && grep -q -- '--cmdhelp\[=OPTION\]' "$T/help" &&
   grep -q -- '--terse-version=N' "$T/help" && grep -q -- '--debug=parse' "$T/help" && grep -q -- '--bandwidth-log' "$T/help" &&
   grep -q -- '--idle-prof=system|percpu|calibrate' "$T/help" &&
   ! grep -qiE -- '--client|--server|--profile' "$T/help"; then pass help_table
else fail help_table "$(cat "$T/help")"; fi

# -o writes the output there; "job options" echoes canonical names, values as typed
"$IOTRIAL" -o "$T/o.json" --output-format=json --name=x --readwrite=randrw --blocksize=8k \
	--size=1m --ioengine=null --gtod_reduce=1 >"$T/out" 2>"$T/err"
if pyjson "
import json
d = json.load(open('$T/o.json'))
o = d['jobs'][0]['job options']
assert o.get('rw') == 'randrw' and 'readwrite' not in o, o
assert o.get('bs') == '8k' and 'blocksize' not in o, o
assert o.get('gtod_reduce') == '1', o
" 2>"$T/py"; then pass dash_o_canonical; else fail dash_o_canonical "$(cat "$T/py" "$T/err")"; fi

# offset=0% and size=100%% read the file as fio does: all of it from the start
"$IOTRIAL" --output-format=json --name=x --filename="$F" --rw=read --size=100%% --offset=0% \
	>"$T/pct.json" 2>"$T/err"
if pyjson "
import json
d = json.load(open('$T/pct.json'))
assert d['jobs'][0]['read']['io_bytes'] == 4 << 20, d['jobs'][0]['read']['io_bytes']
" 2>"$T/py"; then pass pct_bytes; else fail pct_bytes "$(cat "$T/py" "$T/err")"; fi

# exitall: the short job ending stops the time_based one long before its runtime
start=$(date +%s)
"$IOTRIAL" --output-format=json --ioengine=null --name=short --size=1m --exitall \
	--name=long --size=1m --time_based --runtime=30 >"$T/ex.json" 2>"$T/err"
rc=$?
end=$(date +%s)
if [ $rc -eq 0 ] && [ $((end - start)) -lt 20 ]; then pass exitall
else fail exitall "exit $rc after $((end - start)) s: $(head -c 300 "$T/err")"; fi

# randrepeat=1 loops under libaio replay each loop's directions, as fio 3.33
# (examples/fsx.fio): the read count is a multiple of the loop count, in both
truncate -s 256k "$T/mix"
for tool in iotrial fio; do
	[ $tool = fio ] && [ $HAVE_FIO = 0 ] && { skip loops_replay_fio "no fio 3"; continue; }
	bin=$IOTRIAL; [ $tool = fio ] && bin=fio
	$bin --output-format=json --name=x --filename="$T/mix" --rw=randrw --bs=4k --norandommap \
		--ioengine=libaio --size=256k --loops=20 >"$T/loop.json" 2>"$T/err"
	if pyjson "
import json
j = json.load(open('$T/loop.json'))['jobs'][0]
r, w = j['read']['total_ios'], j['write']['total_ios']
assert r + w == 1280 and r % 20 == 0 and w % 20 == 0, (r, w)
" 2>"$T/py"; then pass loops_replay_$tool; else fail loops_replay_$tool "$(cat "$T/py" "$T/err")"; fi
done

# posixaio: the written bytes arrive where they belong, fsyncs included, and a
# queue of 8 keeps more than one I/O in flight
rm -f "$T/pa"
if "$IOTRIAL" --output-format=json --name=pa --filename="$T/pa" --size=1m --bs=4k --rw=randwrite \
	--ioengine=posixaio --iodepth=8 --fsync=16 --end_fsync=1 --buffer_pattern='"posixaio"' \
	>"$T/pa.json" 2>"$T/err" && pyjson "
import json
j = json.load(open('$T/pa.json'))['jobs'][0]
assert j['error'] == 0 and j['write']['total_ios'] == 256, j['write']['total_ios']
d = open('$T/pa', 'rb').read()
assert len(d) == 1 << 20 and d == b'posixaio' * (len(d) // 8), 'content'
assert j['sync']['total_ios'] >= 16, j['sync']
" 2>"$T/py"; then pass posixaio_write
else fail posixaio_write "$(cat "$T/err" "$T/py")"; fi
if "$IOTRIAL" --output-format=json --name=pr --filename="$T/pa" --size=1m --bs=4k --rw=randread \
	--ioengine=posixaio --iodepth=8 >"$T/pr.json" 2>"$T/err" && pyjson "
import json
j = json.load(open('$T/pr.json'))['jobs'][0]
assert j['error'] == 0 and j['read']['io_bytes'] == 1 << 20, j['read']
" 2>"$T/py"; then pass posixaio_read
else fail posixaio_read "$(cat "$T/err" "$T/py")"; fi

# mmap: writes through the mapping land in the file (msync on fsync), reads
# come back whole, and a verify pass over the mapped writes succeeds
rm -f "$T/mm"
if "$IOTRIAL" --output-format=json --name=mm --filename="$T/mm" --size=1m --rw=randwrite \
	--ioengine=mmap --fsync=32 --buffer_pattern='"mmapdata"' >"$T/mm.json" 2>"$T/err" && pyjson "
import json
j = json.load(open('$T/mm.json'))['jobs'][0]
assert j['error'] == 0 and j['write']['io_bytes'] == 1 << 20 and j['sync']['total_ios'] == 8, j['sync']
d = open('$T/mm', 'rb').read()
assert d == b'mmapdata' * (len(d) // 8) and len(d) == 1 << 20, 'content'
" 2>"$T/py"; then pass mmap_write; else fail mmap_write "$(cat "$T/err" "$T/py")"; fi
if "$IOTRIAL" --output-format=json --name=mr --filename="$T/mm" --size=1m --rw=randread \
	--ioengine=mmap >"$T/mr.json" 2>"$T/err" && pyjson "
import json
j = json.load(open('$T/mr.json'))['jobs'][0]
assert j['error'] == 0 and j['read']['io_bytes'] == 1 << 20, j['read']
" 2>"$T/py"; then pass mmap_read; else fail mmap_read "$(cat "$T/err" "$T/py")"; fi
rm -f "$T/mv"
if "$IOTRIAL" --output-format=json --name=mv --filename="$T/mv" --size=1m --rw=write --ioengine=mmap \
	--verify=sha1 >"$T/mv.json" 2>"$T/err" && pyjson "
import json
v = json.load(open('$T/mv.json'))['jobs'][0]['iotrial']['verify']
assert v['blocks'] == 256 and v['failures'] == 0, v
" 2>"$T/py"; then pass mmap_verify; else fail mmap_verify "$(cat "$T/err" "$T/py")"; fi

# thinktime: a 2 ms pause after every thinktime_blocks I/Os bounds a 0.5 s run
# to 250 x blocks I/Os (a pause cannot be shorter); fio, on the same job, lands
# under the same bound.  The bare 2000 is microseconds, as in fio: read as
# milliseconds the first pause would outlast the run (blocks I/Os), so the
# lower bound is 5 pauses' worth, i.e. pauses under 100 ms each.  It is that
# low because a loaded machine stretches every pause by its wake-up delay:
# under tests/load.sh on this 2-CPU machine (load average 9-13) 10 runs gave
# 21..173 I/Os at blocks=1 and 120..608 at blocks=4, against the 5 and 20
# asked here.
# (fio 3.33 hangs with thinktime_spin on null: not run.)
for tb in 1 4; do
	for tool in iotrial fio; do
		[ $tool = fio ] && { [ $HAVE_FIO = 0 ] || [ $tb = 1 ]; } && continue
		bin=$IOTRIAL; [ $tool = fio ] && bin=fio
		timeout 30 $bin --output-format=json --name=t --ioengine=null --size=1g --rw=randread \
			--thinktime=2000 --thinktime_blocks=$tb --runtime=500ms --time_based >"$T/tt.json" 2>"$T/err"
		if pyjson "
import json
n = json.load(open('$T/tt.json'))['jobs'][0]['read']['total_ios']
hi = 250 * $tb * 1.02 + $tb
assert 5 * $tb <= n <= hi, (n, hi)
" 2>"$T/py"; then pass "thinktime_blocks${tb}_$tool"
		else fail "thinktime_blocks${tb}_$tool" "$(cat "$T/py" "$T/err")"; fi
	done
done
# spin: part of each pause is spent busy.  Per pause (one per I/O), a 1.5 ms
# spin costs CPU time that a sleeping pause does not: the job's CPU time over
# its I/O count, a figure the load barely moves (a preempted spin also makes
# fewer pauses).  Measured under tests/load.sh on this 2-CPU machine (load
# average 9-13), both jobs at once as here, 10 runs: 0.85..1.3 ms of CPU per
# pause with the spin, 0.011..0.019 ms without; the bound is 0.3 ms, about 3x
# under the one and 15x over the other.
for s in 1500us 0; do
	"$IOTRIAL" --output-format=json --name=t --ioengine=null --size=1g --rw=randread --thinktime=2ms \
		--thinktime_spin=$s --runtime=500ms --time_based >"$T/ts$s.json" 2>"$T/err$s" &
done
wait
if pyjson "
import json
def per_pause(f):
    j = json.load(open(f))['jobs'][0]
    n = j['read']['total_ios']
    assert 1 <= n <= 260, ('I/Os', n)
    return (j['usr_cpu'] + j['sys_cpu']) / 100 * j['job_runtime'] / n, n
spin, n1 = per_pause('$T/ts1500us.json')
sleep, n0 = per_pause('$T/ts0.json')
assert spin >= 0.3 > sleep, ('ms of CPU per pause: spin %.3f over %d, sleep %.3f over %d' % (spin, n1, sleep, n0))
" 2>"$T/py"; then pass thinktime_spin; else fail thinktime_spin "$(cat "$T/py" "$T/err1500us" "$T/err0")"; fi
expect_exit thinktime_rate 2 "thinktime with rate or rate_iops is not supported" \
	"$IOTRIAL" --parse-only --name=t --thinktime=1ms --rate_iops=100

# number_ios ends the job after that many I/Os, as in fio
for tool in iotrial fio; do
	[ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
	bin=$IOTRIAL; [ $tool = fio ] && bin=fio
	$bin --output-format=json --name=n --ioengine=null --size=1g --rw=randread --number_ios=100 \
		>"$T/ni.json" 2>"$T/err"
	if pyjson "
import json
assert json.load(open('$T/ni.json'))['jobs'][0]['read']['total_ios'] == 100
" 2>"$T/py"; then pass number_ios_$tool; else fail number_ios_$tool "$(cat "$T/py" "$T/err")"; fi
done
# exit_what: with exitall, the default (group) leaves a job of another reporting
# group running; stonewall stops it too
for what in group stonewall; do
	"$IOTRIAL" --output-format=json --ioengine=null --name=short --size=1m --exitall \
		--exit_what=$what --name=long --new_group --size=1m --time_based --runtime=1 \
		>"$T/ew.json" 2>"$T/err"
	if pyjson "
import json
rt = [j for j in json.load(open('$T/ew.json'))['jobs'] if j['jobname'] == 'long'][0]['job_runtime']
assert (rt >= 950) if '$what' == 'group' else (rt < 800), rt
" 2>"$T/py"; then pass exit_what_$what; else fail exit_what_$what "$(cat "$T/py" "$T/err")"; fi
done

# random_distribution=zoned: the share of accesses in each zone, from the
# offsets in the latency log, as fio gives on the same job
for tool in iotrial fio; do
	[ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
	bin=$IOTRIAL; [ $tool = fio ] && bin=fio
	(cd "$T" && $bin --name=z --ioengine=null --size=100m --bs=4k --rw=randread --norandommap \
		--random_distribution=zoned:60/10:30/20:8/30:2/ --number_ios=20000 \
		--write_lat_log=zl_$tool --log_offset=1 >/dev/null 2>"$T/err")
	if python3 -c "
offs = [int(l.split(',')[4]) for l in open('$T/zl_${tool}_clat.1.log') if l.strip()]
c = [0] * 4
for o in offs:
    x = o / (100 << 20)
    c[0 if x < .1 else 1 if x < .3 else 2 if x < .6 else 3] += 1
share = [v / len(offs) for v in c]
assert len(offs) == 20000 and all(abs(a - b) < .02 for a, b in zip(share, [.6, .3, .08, .02])), share
" 2>"$T/py"; then pass zoned_$tool; else fail zoned_$tool "$(tail -1 "$T/py") $(cat "$T/err")"; fi
done
expect_exit zoned_sum 2 "zone accesses add up to 90% and sizes to 100%" \
	"$IOTRIAL" --parse-only --name=z --rw=randread --random_distribution=zoned:60/50:30/50

# wait_for: b starts only when a is done, so the two 0.3 s runs take 0.6 s in all
start=$(date +%s%N)
"$IOTRIAL" --output-format=json --ioengine=null --size=1m --time_based --runtime=300ms --name=a \
	--name=b --wait_for=a >"$T/wf.json" 2>"$T/err"
rc=$?
el=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc -eq 0 ] && [ $el -ge 595 ]; then pass wait_for
else fail wait_for "exit $rc after $el ms: $(cat "$T/err")"; fi
expect_exit wait_for_unknown 2 "wait_for=zz names no job defined before it" \
	"$IOTRIAL" --ioengine=null --size=1m --name=a --name=b --wait_for=zz



# backwards I/O (rw=read:-8k): the offsets fio 3.33 gives, from the latency log
truncate -s 64k "$T/bw"
for tool in iotrial fio; do
	[ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
	bin=$IOTRIAL; [ $tool = fio ] && bin=fio
	(cd "$T" && $bin --name=b --filename=bw --size=64k --bs=4k --rw=read:-8k \
		--write_lat_log=bw_$tool --log_offset=1 >/dev/null 2>"$T/err")
	got=$(awk -F, '{printf "%d ", $5/4096}' "$T/bw_${tool}_clat.1.log" 2>/dev/null)
	if [ "$got" = "0 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0 " ]; then pass backwards_$tool
	else fail backwards_$tool "blocks: $got $(cat "$T/err")"; fi
done

# rate_min: after fio's 2 s settle period, a job slower than its minimum over
# a rate_cycle ends with EIO (exit 1), the message saying by how much
"$IOTRIAL" --output-format=json --name=r --ioengine=null --size=1g --rw=read --thinktime=10ms \
	--rate_min=1m --rate_cycle=200 --runtime=4 --time_based >"$T/rm.json" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "read: minimum rate not met over 200 ms: [0-9]* B/s" "$T/err" && pyjson "
import json
j = json.load(open('$T/rm.json'))['jobs'][0]
assert j['error'] == 5 and 2000 <= j['job_runtime'] < 3500, (j['error'], j['job_runtime'])
" 2>"$T/py"; then pass rate_min; else fail rate_min "exit $rc: $(cat "$T/err" "$T/py")"; fi
# fio refuses this when the job starts ("minimum rate exceeds rate"), we when parsing
expect_exit rate_min_above_rate 2 "the minimum rate for read is above its rate limit" \
	"$IOTRIAL" --parse-only --name=r --ioengine=null --size=1m --rate=1m --rate_min=2m
fio_queue_check
