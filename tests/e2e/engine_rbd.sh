#!/bin/sh
# ioengine=rbd against a real Ceph cluster that this test starts itself
# (tests/ceph/cluster.sh: one monitor, one memstore OSD on 127.0.0.1, in a
# temp dir, stopped on exit): a write then a read of the whole image (its
# size from the image, as fio), offset=/size= on it, verify=crc32c through
# librbd, trims and flushes, a corruption written under librbd's feet (rados
# put into the image's data object) found by verify_only, the options refused under other
# engines and bad values refused in one line, and the same jobs run by fio's
# rbd engine on the same image: the same I/O counts, IOPS printed side by
# side.  The image is removed at the end.  Skips, saying why, when the build
# has no librbd or the Ceph daemons are not installed (scripts/deps.sh
# installs them).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../ceph/cluster.sh"

# Without librbd: ioengine=rbd is refused naming the library, and nothing else runs.
if "$IOTRIAL" --parse-only --name=x --ioengine=rbd --pool=p --rbdname=i 2>"$T/err"; then
	:
elif grep -q "this build has no librbd" "$T/err"; then
	expect_exit rbd_absent 2 "^iotrial: error: unsupported engine 'rbd': this build has no librbd; install librbd-dev and librados-dev, then rebuild \(command line\)$" \
		"$IOTRIAL" --parse-only --name=x --ioengine=rbd --pool=p --rbdname=i
	skip engine_rbd "this build has no librbd (install librbd-dev and librados-dev, rebuild)"
	exit 0
else
	fail rbd_parse "$(cat "$T/err")"
	exit 0
fi

# options: refused under other engines, bad values refused in one line (no cluster needed)
P="$IOTRIAL --parse-only"
expect_exit rbd_pool_other_engine 2 "^iotrial: error: job 'x' \(command line\): option 'pool' belongs to ioengine rbd, not libaio$" \
	$P --name=x --ioengine=libaio --pool=rbd
expect_exit rbd_rbdname_other_engine 2 "option 'rbdname' belongs to ioengine rbd, not psync" \
	$P --name=x --rbdname=img
expect_exit rbd_busy_poll_other_engine 2 "option 'busy_poll' belongs to ioengine rbd, not null" \
	$P --name=x --ioengine=null --busy_poll=1
expect_exit rbd_busy_poll_value 2 "invalid value '2' for option 'busy_poll'" \
	$P --name=x --ioengine=rbd --pool=p --rbdname=i --busy_poll=2
expect_exit rbd_needs_pool 2 "ioengine rbd needs pool=" $P --name=x --ioengine=rbd --rbdname=i
expect_exit rbd_needs_rbdname 2 "ioengine rbd needs rbdname=" $P --name=x --ioengine=rbd --pool=p
expect_exit rbd_clustername_alone 2 "clustername= needs clientname=" \
	$P --name=x --ioengine=rbd --pool=p --rbdname=i --clustername=ceph
expect_exit rbd_one_image 2 "ioengine rbd does I/O on one image: nrfiles=2" \
	$P --name=x --ioengine=rbd --pool=p --rbdname=i --nrfiles=2
printf '[x]\nioengine=rbd\npool=p\nrbdname=i\nclientname=admin\nbusy_poll=1\nrw=randread\n' >"$T/ok.fio"
check rbd_job_file_parses $P "$T/ok.fio"

# librbd is loaded when a job uses it, not linked: a process that never
# uses rbd never pays for Ceph's libraries; and when it cannot be loaded (a
# private mount namespace puts an empty file over it), the rbd job is
# refused in one line naming the library, exit 3 (a target that cannot be opened)
if ldd "$IOTRIAL" | grep -q 'librbd\|librados'; then
	fail rbd_not_linked "iotrial links librbd: $(ldd "$IOTRIAL" | grep 'librbd\|librados' | tr '\n' ' ')"
else
	pass rbd_not_linked
fi
lib=$(ldconfig -p | awk '/librbd\.so\.1 / { print $NF; exit }')
if [ -z "$lib" ]; then
	skip rbd_library_missing "ldconfig does not list librbd.so.1"
elif ! unshare -m true 2>/dev/null; then
	skip rbd_library_missing "no private mount namespace here (unshare -m needs root, and / to be a mount point: not in a chroot)"
else
	expect_exit rbd_library_missing 3 "^iotrial: error: job 'x': rbd: cannot load librbd\.so\.1 \(Debian: librbd1\): " \
		unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" \
		"$IOTRIAL" --name=x --ioengine=rbd --pool=p --rbdname=i --size=1m
fi

missing=$(ceph_cluster_missing)
if [ -n "$missing" ]; then
	skip engine_rbd_cluster "no Ceph daemons to start a test cluster (missing: $missing; install ceph-mon ceph-osd ceph-common)"
	exit 0
fi

trap 'ceph_cluster_stop; rm -rf "$T"' EXIT INT TERM
if ! ceph_cluster_start "$T/ceph" 2>"$T/cerr"; then
	fail rbd_cluster_start "$(cat "$T/cerr")"
	exit 0
fi
echo "ceph test cluster started in $CEPH_START_SECONDS s"
POOL=iotrial IMG=img
if ! ceph_pool_create "$POOL" 2>"$T/cerr" || ! rbd create --size 64M "$POOL/$IMG" 2>"$T/cerr"; then
	fail rbd_image "$(cat "$T/cerr")"
	exit 0
fi
pass rbd_cluster_and_image
cd "$T" || exit 1	# the jobs' file names are labels: no file appears anywhere
R="--name=r --ioengine=rbd --pool=$POOL --rbdname=$IMG --output-format=json"

# jsonv FILE EXPR: evaluate EXPR on the first job (j) of FILE's JSON
jsonv() { python3 -c "import json; j = json.load(open('$1'))['jobs'][0]; print($2)"; }

# the whole image, its size taken from it: 64 MiB written, then read
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=write --bs=64k --iodepth=8 >"$T/w.json" 2>"$T/err" &&
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=read --bs=64k --iodepth=8 >"$T/r.json" 2>>"$T/err"
if [ "$(jsonv "$T/w.json" "j['write']['io_bytes'], j['write']['total_ios'], j['error']")" = "67108864 1024 0" ] &&
   [ "$(jsonv "$T/r.json" "j['read']['io_bytes'], j['read']['total_ios'], j['write']['io_bytes'], j['error']")" = "67108864 1024 0 0" ] &&
   [ ! -e "$T/r.0.0" ]; then
	pass rbd_write_then_read_whole_image
else
	fail rbd_write_then_read_whole_image "$(cat "$T/err"; jsonv "$T/w.json" "j['write']"; jsonv "$T/r.json" "j['read']")"
fi

# offset= and size= on the image, io_size= past it, size=N% of it
for c in "--offset=8M --size=16M:16777216" "--offset=60M:4194304" "--size=25%:16777216" \
	 "--size=4M --io_size=12M:12582912"; do
	args=${c%%:*} want=${c##*:}
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --rw=randread --bs=4k --iodepth=16 $args >"$T/o.json" 2>"$T/err"
	got=$(jsonv "$T/o.json" "j['read']['io_bytes']" 2>/dev/null)
	if [ "$got" = "$want" ]; then pass "rbd_region_${args%% *}"
	else fail "rbd_region_${args%% *}" "$args: read $got bytes, wanted $want; $(cat "$T/err")"; fi
done
# a size past the image's end: the I/O there fails with EINVAL, as fio's does
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=read --bs=1M --size=80M >"$T/o.json" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && [ "$(jsonv "$T/o.json" "j['read']['io_bytes'], j['read']['total_ios'], j['error']")" = "67108864 65 22" ] &&
   grep -q "read on r.0.0 at offset 67108864, length 1048576: Invalid argument" "$T/err"; then
	pass rbd_past_the_end_einval
else
	fail rbd_past_the_end_einval "exit $rc: $(cat "$T/err")"
fi

# verify=crc32c through librbd: written, read back, every block checked; busy_poll=1 too
for bp in 0 1; do
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --rw=randwrite --bs=4k --size=8M --iodepth=16 --busy_poll=$bp \
		--verify=crc32c >"$T/v.json" 2>"$T/err"
	rc=$?
	got=$(jsonv "$T/v.json" "j['iotrial']['verify']['blocks'], j['iotrial']['verify']['failures'], j['write']['total_ios']" 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$got" = "2048 0 2048" ]; then pass "rbd_verify_crc32c_busy_poll_$bp"
	else fail "rbd_verify_crc32c_busy_poll_$bp" "exit $rc, verify $got: $(cat "$T/err")"; fi
done

# trims (rbd_aio_discard) and fsync (rbd_aio_flush) through librbd: 64 trims of
# 64 KiB; 256 writes with a flush after every 8 (fio 3.33 counts the same trims;
# its sync count under rbd is its own, 91 here, where libaio gives 31)
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=trim --bs=64k --size=4M >"$T/t.json" 2>"$T/err" &&
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=randwrite --bs=4k --size=1M --iodepth=4 --fsync=8 >"$T/s.json" 2>>"$T/err"
if [ "$(jsonv "$T/t.json" "j['trim']['io_bytes'], j['trim']['total_ios'], j['error']")" = "4194304 64 0" ] &&
   [ "$(jsonv "$T/s.json" "j['write']['total_ios'], j['sync']['lat_ns']['N'], j['error']")" = "256 32 0" ]; then
	pass rbd_trim_and_fsync
else
	fail rbd_trim_and_fsync "$(cat "$T/err"; jsonv "$T/t.json" "j['trim']"; jsonv "$T/s.json" "j['sync']")"
fi

# a corruption: 4 bytes of the image's data object overwritten with rados, at
# image offset 5 MiB + 4096*3 + 100 (object 1 of 4 MiB), not through librbd
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=write --bs=4k --size=8M --verify=crc32c --do_verify=0 >/dev/null 2>&1
prefix=$(rbd info --format json "$POOL/$IMG" | python3 -c 'import json,sys; print(json.load(sys.stdin)["block_name_prefix"])')
off=$((5 * 1048576 + 3 * 4096 + 100))
printf '\377\000\377\000' >"$T/bad.bin"
if ! rados -p "$POOL" put "$(printf '%s.%016x' "$prefix" $((off / 4194304)))" "$T/bad.bin" \
	--offset $((off % 4194304)) 2>"$T/cerr"; then
	fail rbd_corrupt "rados put: $(cat "$T/cerr")"
fi
block=$((off / 4096 * 4096))
for rw in write read; do
	# verify_only counts the writes it stands in for (fio 3.33 does): 8 MiB for write
	wb=0
	[ "$rw" = write ] && wb=8388608
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --rw=$rw --bs=4k --size=8M --verify=crc32c --verify_only >"$T/bad.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 8 ] && grep -q "verify: crc32c mismatch at offset $block in r.0.0" "$T/err" &&
	   [ "$(jsonv "$T/bad.json" "j['iotrial']['verify']['failure_offset'], j['write']['io_bytes']")" = "$block $wb" ]; then
		pass "rbd_corruption_found_verify_only_$rw"
	else
		fail "rbd_corruption_found_verify_only_$rw" "exit $rc: $(cat "$T/err")"
	fi
done

# the target's errors: one line, exit 3 (the target), naming pool and image
expect_exit rbd_no_pool 3 "^iotrial: error: job 'r': rbd: pool 'nopool': no such pool$" \
	"$IOTRIAL" --name=r --ioengine=rbd --pool=nopool --rbdname=$IMG --rw=read --size=1M
expect_exit rbd_no_image 3 "^iotrial: error: job 'r': rbd: image 'noimg' in pool '$POOL': no such image$" \
	"$IOTRIAL" --name=r --ioengine=rbd --pool=$POOL --rbdname=noimg --rw=read --size=1M

# fio's rbd engine on the same image, the same jobs (direct=1: librbd's cache
# off, the cluster measured): the same I/O counts and bytes.  IOPS and clat
# are printed side by side for a reader, not asserted: a one-node cluster on a
# shared 2-core machine gave 0.7-1.4x between the tools on a quiet day and
# 4.3x when the machine was busy (bench/ compares speed, in alternating rounds)
if ! command -v fio >/dev/null 2>&1 || ! fio --enghelp 2>/dev/null | grep -qx '[[:space:]]*rbd'; then
	skip rbd_vs_fio "fio with its rbd engine is not installed"
else
	for rw in randread randwrite; do
		for tool in iotrial fio; do
			[ $tool = fio ] && bin=fio || bin=$IOTRIAL
			# shellcheck disable=SC2086
			$bin $R --rw=$rw --bs=4k --iodepth=16 --size=16M --direct=1 >"$T/$tool.json" 2>"$T/$tool.err"
		done
		d=${rw#rand}
		line=$(python3 -c "
import json
r = {}
for t in ('iotrial', 'fio'):
    j = json.load(open('$T/' + t + '.json'))['jobs'][0]
    r[t] = j['$d']
    print('%s %s 4k QD16: %d I/Os, %.0f IOPS, clat mean %.0f us, p99 %.0f us' % (t, '$rw',
          j['$d']['total_ios'], j['$d']['iops'], j['$d']['clat_ns']['mean'] / 1000,
          j['$d']['clat_ns']['percentile']['99.000000'] / 1000))
a, b = r['iotrial'], r['fio']
assert a['total_ios'] == b['total_ios'] == 4096 and a['io_bytes'] == b['io_bytes'], 'counts differ'
" 2>"$T/py")
		echo "$line"
		if [ -s "$T/py" ]; then fail "rbd_vs_fio_$rw" "$(tail -n 1 "$T/py"; cat "$T/iotrial.err" "$T/fio.err")"
		else pass "rbd_vs_fio_$rw"; fi
	done
fi

# the image goes, and the cluster with the trap
if rbd rm "$POOL/$IMG" >/dev/null 2>&1 && [ -z "$(rbd ls "$POOL" 2>/dev/null)" ]; then
	pass rbd_image_removed
else
	fail rbd_image_removed "rbd rm $POOL/$IMG failed or left images: $(rbd ls "$POOL" 2>&1)"
fi
pids=$CEPH_PIDS
ceph_cluster_stop
left=""
for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
if [ -z "$left" ] && [ ! -e "$T/ceph" ]; then pass rbd_cluster_stopped
else fail rbd_cluster_stopped "daemons left:$left"; fi
