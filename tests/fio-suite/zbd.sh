#!/bin/bash
# fio's own zoned-device and NVMe passthrough tests in QEMU guests, once with
# fio as the binary and once with iotrial: t/zbd/test-zbd-support on the NVMe
# controller's zoned namespace (zns) and on a plain one (the script emulates
# zones there), and t/nvmept.py (fio 3.36+'s io_uring_cmd checks) on the plain
# namespace's /dev/ng0n1.  Then one table: case | fio | iotrial | reason
# (iotrial's SKIP reason, or why it failed: the last lines of its log, or the
# script's failure reason and iotrial's stderr).  Not part of `make check`
# (it takes 20-40 minutes under TCG and needs fio's scripts, which are not in
# this tree).
#
#   tests/fio-suite/zbd.sh [-o OUT] [-f FIO] [-i IOTRIAL] [-t FIO_T] [-z PROPS]
#                          [-T "N ..."] [-k] [-r] [PART...]
#
# FIO_T is a folder holding fio's t/ (default /work/fio-t; no
# t/zbd/test-zbd-support there: exit 77, nothing run).  PARTS: zns plain
# nvmept (default all three; nvmept needs t/nvmept.py, t/fiotestlib.py and
# t/fiotestcommon.py, and copies python3 with its stdlib into the guest).  -z sets the zoned namespace's QEMU properties (default
# 1 MiB zones, capacity = size, no open/active limits: the geometry of fio's
# run-tests-against-zoned-nullb, with the 130+ sequential zones tests 3, 4
# and 58 ask for).  -T runs only the cases named (the script's -t, once
# each).  -k keeps the fio side's parts found in OUT/fio (fio runs only the
# parts missing there).  -r runs nothing and prints the table of the logs
# in OUT.
# The two sides run side by side, one guest each (a guest has its own disks).
#
# The guest is tests/vm's, built with --extra: bash, GNU grep/sed/coreutils'
# stat, timeout, tr, sort, tee, util-linux's blkzone, sg3-utils' sg_inq
# (scripts/deps.sh installs them), copied from this host.  The script runs
# "$(dirname "$0")/../../fio": the guest's copy of t/ sits beside a link
# named fio to /usr/bin/fio or /usr/bin/iotrial.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=/tmp/iotrial-fio-zbd FIO=$(command -v fio || true) IOT=$here/../../build/iotrial
FIO_T=${FIO_T:-/work/fio-t} REPORT=0 CASES="" KEEP=0
PROPS=zoned.zone_size=1M,zoned.zone_capacity=0,zoned.max_open=0,zoned.max_active=0
while getopts o:f:i:t:z:T:kr c; do
	case $c in
	o) OUT=$OPTARG ;; f) FIO=$OPTARG ;; i) IOT=$OPTARG ;; t) FIO_T=$OPTARG ;;
	z) PROPS=$OPTARG ;; T) CASES=$OPTARG ;; k) KEEP=1 ;; r) REPORT=1 ;;
	*) echo "usage: $0 [-o OUT] [-f FIO] [-i IOTRIAL] [-t FIO_T] [-z PROPS] [-T \"N ...\"] [-k] [-r] [PART...]" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PARTS=${*:-zns plain nvmept}
for p in $PARTS; do
	case $p in zns|plain|nvmept) ;; *) echo "$0: part $p: zns, plain or nvmept" >&2; exit 2 ;; esac
done
if [ ! -f "$FIO_T/t/zbd/test-zbd-support" ] || [ ! -f "$FIO_T/t/zbd/functions" ]; then
	echo "fio's t/zbd not found under $FIO_T (set FIO_T or -t): nothing run" >&2
	exit 77
fi
V=$here/../vm/vm.sh
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# One side: a guest with both namespaces, fio's t/ beside a link named fio,
# each part's output and per-test logs into OUT/SIDE/PART.
run_side() {	# SIDE GUEST-BINARY PART...
	local side=$1 bin=$2 g=zbd-$1-$$ p dev start t sel="" parts
	shift 2
	parts=$*
	for t in $CASES; do sel="$sel -t $t"; done
	mkdir -p "$OUT/$side"
	for p in $parts; do rm -rf "${OUT:?}/$side/$p"; done
	"$V" boot "$g" --initrd "$OUT/initrd.cpio" --disks zns,nvme --size 160M \
		--zns-props "$PROPS" --lifetime 5400 >/dev/null 2>"$OUT/$side/boot.err" ||
		{ echo "$side: guest did not boot: $(tail -1 "$OUT/$side/boot.err")" >&2; return 1; }
	tar -C "$FIO_T" -cf - t/zbd/test-zbd-support t/zbd/functions \
		$(case " $parts " in *" nvmept "*) echo t/nvmept.py t/fiotestlib.py t/fiotestcommon.py ;; esac) |
		"$V" exec "$g" --stdin sh -c "mkdir -p /tmp/ft && cd /tmp/ft && tar -xf - && ln -s $bin fio"
	for p in $parts; do
		[ "$p" = nvmept ] && continue
		dev=$(sed -n "s/^nvme0-ns$([ "$p" = zns ] && echo 2 || echo 1) \(\S*\).*/\1/p" \
			<("$V" exec "$g" cat /run/iotrial-vm/disks))
		mkdir -p "$OUT/$side/$p"
		start=$(date +%s)
		"$V" exec "$g" --timeout 3600 --merge bash -c \
			"export PATH=/usr/sbin:/usr/bin:/bin:/sbin; cd /tmp/ft/t/zbd && rm -f test-zbd-support.log.* &&
			 ./test-zbd-support$sel $dev" >"$OUT/$side/$p/out.txt" 2>&1
		echo "$side $p ($dev): $(($(date +%s) - start)) s, $(grep -c '^Running test' "$OUT/$side/$p/out.txt") cases" >&2
		"$V" exec "$g" sh -c 'cd /tmp/ft/t/zbd && tar -cf - test-zbd-support.log.*' |
			tar -C "$OUT/$side/$p" -xf - 2>/dev/null
	done
	case " $parts " in *" nvmept "*)
		mkdir -p "$OUT/$side/nvmept"
		start=$(date +%s)
		# fio 3.36+'s script; -f names the binary (the link); artifacts in /tmp
		"$V" exec "$g" --timeout 3600 --merge sh -c \
			"cd /tmp/ft/t && python3 nvmept.py --dut /dev/ng0n1 -f /tmp/ft/fio -a /tmp/ft/nvmept" \
			>"$OUT/$side/nvmept/out.txt" 2>&1
		echo "$side nvmept (/dev/ng0n1): $(($(date +%s) - start)) s, $(grep -c '^Test ' "$OUT/$side/nvmept/out.txt") cases" >&2
		"$V" exec "$g" sh -c 'cd /tmp/ft && tar -cf - nvmept' | tar -C "$OUT/$side" -xf - 2>/dev/null ;;
	esac
	"$V" stop "$g"
}

if [ "$REPORT" = 0 ]; then
	[ -x "$IOT" ] || { echo "$0: no iotrial at $IOT (make first, or -i)" >&2; exit 2; }
	[ -n "$FIO" ] || { echo "$0: no fio (apt-get install fio, or -f)" >&2; exit 2; }
	export IOTRIAL_VM_RUN=$OUT/vm
	trap '"$V" stop zbd-fio-$$ 2>/dev/null; "$V" stop zbd-iotrial-$$ 2>/dev/null' EXIT
	trap 'exit 130' INT TERM
	EXTRA=/usr/bin/bash,/usr/bin/grep,/usr/bin/sed,/usr/bin/stat,/usr/bin/timeout
	EXTRA=$EXTRA,/usr/bin/tr,/usr/bin/sort,/usr/bin/tee,/usr/sbin/blkzone
	EXTRA=$EXTRA$(command -v sg_inq >/dev/null && echo ",$(command -v sg_inq)")
	case " $PARTS " in *" nvmept "*)
		# the system's python3 and stdlib (not a pyenv shim: its real path)
		py=$(/usr/bin/python3 -c 'import sys, sysconfig; print(sys.executable + "," + sysconfig.get_paths()["stdlib"])') ||
			{ echo "$0: nvmept needs /usr/bin/python3" >&2; exit 2; }
		EXTRA=$EXTRA,$py ;;
	esac
	"$V" build --iotrial "$(readlink -f "$IOT")" --fio "$(readlink -f "$FIO")" \
		--extra "$EXTRA" --out "$OUT/initrd.cpio" >/dev/null || exit 1
	fparts=$PARTS
	if [ "$KEEP" = 1 ]; then
		fparts=""
		for p in $PARTS; do [ -f "$OUT/fio/$p/out.txt" ] || fparts="$fparts $p"; done
	fi
	a=""
	[ -z "$fparts" ] || { run_side fio /usr/bin/fio $fparts & a=$!; }
	run_side iotrial /usr/bin/iotrial $PARTS & b=$!
	[ -z "$a" ] || wait $a
	wait $b
	rm -f "$OUT/initrd.cpio"
fi

# The table: one row per case and part, from each side's "Running test NN
# ... STATUS [reason]" lines; for an iotrial FAIL the last lines of its log
# that say why (an error, or the script's "written: X <> Y" comparison).
python3 - "$OUT" $PARTS <<'PYEOF'
import os, re, sys
out, parts = sys.argv[1], sys.argv[2:]
def results(side, part):
    r = {}
    p = os.path.join(out, side, part, 'out.txt')
    if not os.path.exists(p):
        return r
    for line in open(p, errors='replace'):
        m = re.match(r'Test (\d+) (PASSED|FAILED|SKIPPED)(:?)\s*(.*)', line.rstrip())
        if m and part == 'nvmept':
            r[int(m.group(1))] = ({'PASSED': 'PASS', 'FAILED': 'FAIL'}.get(m.group(2), 'SKIP'),
                                  m.group(4).strip())
            continue
        m = re.match(r'Running test (\d+) \.\.\. (PASS|FAIL|SKIP)\s*(.*)', line.rstrip())
        if m:
            r[int(m.group(1))] = (m.group(2), m.group(3).strip())
    return r
def why(side, part, n):
    if part == 'nvmept':	# the script's reason, then the binary's stderr
        r = results(side, part)[n][1]
        p = os.path.join(out, side, 'nvmept', '%04d' % n, 'nvmept%03d.stderr' % n)
        err = open(p, errors='replace').read().strip().splitlines() if os.path.exists(p) else []
        return (r + (' / ' + err[0] if err else ''))[:200]
    p = os.path.join(out, side, part, 'test-zbd-support.log.%d' % n)
    if not os.path.exists(p):
        return 'no log'
    lines = [l.strip() for l in open(p, errors='replace') if l.strip()]
    keep = [l for l in lines if re.search(r'^iotrial: .*\S|^fio: |<>|reset_count|Total number|'
                                          r'ended with error|stopped on error|timed out|Killed', l)]
    return ' / '.join(keep[-2:])[-200:] if keep else (lines[-2] if len(lines) > 1 else '')
rows, tally = [], {}
for part in parts:
    f, i = results('fio', part), results('iotrial', part)
    for n in sorted(set(f) | set(i)):
        fs, is_ = f.get(n, ('-', ''))[0], i.get(n, ('-', ''))[0]
        w = ''
        if is_ == 'SKIP':
            w = i[n][1]
        elif is_ == 'FAIL':
            w = why('iotrial', part, n)
        elif is_ == '-':
            w = 'not run'
        rows.append(('%s %02d' % (part, n), fs, is_, w))
        t = tally.setdefault(part, {'n': 0, 'fio': 0, 'iotrial': 0, 'skip': 0})
        if fs in ('SKIP', '-') and is_ in ('SKIP', '-'):
            t['skip'] += 1
            continue
        t['n'] += 1; t['fio'] += fs == 'PASS'; t['iotrial'] += is_ == 'PASS'
print('case     | fio  | iotrial | reason (iotrial not PASS)')
for r in rows:
    print('%-8s | %-4s | %-7s | %s' % r)
for part, t in tally.items():
    print('%s: fio passes %d, iotrial %d, of %d cases run (%d skipped or not run by both)' %
          (part, t['fio'], t['iotrial'], t['n'], t['skip']))
PYEOF
