#!/bin/sh
# fio's t0024: bsrange given a bssplit-shaped value ("512/25:1k:25:2k:25:4k/25")
# is read as fio 3.33 reads it, 512-1k (each end as far as its number goes).
# Both tools run t0024's trimwrite job on the null engine; the check is fio's:
# each write follows a trim of the same size and offset, every sector of the
# 1 MiB is touched, and the sizes are 512 and 1024 only.  fio is the control.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
J="--name=bssplit --filesize=1M --ioengine=null --rw=trimwrite --log_offset=1 --per_job_logs=0
--randrepeat=0 --write_bw_log=bw --bsrange=512/25:1k:25:2k:25:4k/25"
run() {	# TOOL: "pairs sizes covered" from its bw log, or "exit N"
	d="$T/$1"; mkdir -p "$d"
	if [ "$1" = fio ]; then set -- timeout -s KILL 30 fio; else set -- "$IOTRIAL"; fi
	# shellcheck disable=SC2086
	(cd "$d" && "$@" $J --output=/dev/null >/dev/null 2>"$d/err") || { echo "exit $?"; return; }
	pyjson "
rows = [l.split(',') for l in open('$d/bw_bw.log') if l.strip()]
bad, pairs, sizes, sect = 0, 0, set(), set()
for i, r in enumerate(rows):
    ddir, bs, off = int(r[2]), int(r[3]), int(r[4])
    sizes.add(bs)
    if i % 2 == 0:
        bad += ddir != 2
    else:
        p = rows[i - 1]
        bad += ddir != 1 or int(p[3]) != bs or int(p[4]) != off
        pairs += 1
    sect.update(range(off // 512, (off + bs) // 512))
print('bad' if bad else 'ok', '/'.join(str(s) for s in sorted(sizes)), len(sect) == 2048)"
}
i=$(run iotrial) f=""
[ "$HAVE_FIO" = 1 ] && f=$(run fio)
want="ok 512/1024 True"
if [ "$i" = "$want" ] && { [ "$HAVE_FIO" = 0 ] || [ "$f" = "$want" ]; }; then
	pass "t0024_bsrange_bssplit_shape ($i${f:+; fio $f})"
else fail t0024_bsrange_bssplit_shape "iotrial '$i', fio '$f', wanted '$want'"; fi

# what both read, per direction, from --showcmd (iotrial) and fio's header line
shown() { "$IOTRIAL" --name=x --ioengine=null --size=64k --bsrange="$1" --showcmd 2>&1 | grep -o 'bsrange=[^ ]*'; }
ok=1
for p in '512/25:1k|bsrange=512-1024' '512/25-1k|bsrange=512-1024' '512-1k/3|bsrange=512-1024' \
	 '512/25:1k:25:2k:25:4k/25,4k-8k|bsrange=512-1024,4096-8192,4096-8192' \
	 '(8k/2)-(16k/2)|bsrange=4096-8192'; do
	v=${p%%|*} want=${p#*|}
	got=$(shown "$v")
	[ "$got" = "$want" ] || { ok=0; fail "bsrange_read '$v'" "got '$got', wanted '$want'"; }
done
[ "$ok" = 1 ] && pass "bsrange_read (5 forms)"
if [ "$HAVE_FIO" = 1 ]; then
	hdr=$(timeout -s KILL 20 fio --name=x --ioengine=null --size=64k \
		--bsrange=512/25:1k:25:2k:25:4k/25,4k-8k 2>&1 | head -1)
	case $hdr in *"(R) 512B-1024B, (W) 4096B-8192B, (T) 4096B-8192B"*) pass "bsrange_read_fio_control" ;;
	*) fail bsrange_read_fio_control "fio's header: $hdr" ;; esac
fi
# anything else after a number stays an error naming option and value (exit 2)
expect_exit bsrange_garbage 2 "invalid value '512x' for option 'bsrange'" \
	"$IOTRIAL" --name=x --ioengine=null --size=64k --bsrange=512x-1k
expect_exit bsrange_split_reversed 2 "option 'bsrange'.*reversed" \
	"$IOTRIAL" --name=x --ioengine=null --size=64k --bsrange=4k/25:1k
