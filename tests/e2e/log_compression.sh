#!/bin/sh
# log_compression / log_store_compressed / --inflate-log (fio's
# t/log_compression.py): a per-I/O bw log of 8000 writes with log_offset,
# kept as text (log_compression alone) and as fio's .fz (zlib streams of
# fio's binary samples, fiolog_fz.h).  Both ways with fio 3.33 as the
# control: fio inflates iotrial's .fz to the text iotrial prints for it, and
# iotrial inflates fio's .fz to the text fio prints.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
A="--name=job --ioengine=null --filesize=1000M --bs=128K --rw=write --iodepth=1
--write_bw_log=test --per_job_logs=0 --log_offset=1 --log_compression=10K"
seq_ok() {	# FILE: fio's check: 8000 lines, offsets 0, 128K, 256K, ...
	python3 -c "
import sys
rows = [l for l in open(sys.argv[1]) if l.strip()]
bad = [i for i, l in enumerate(rows) if int(l.split(',')[4]) != i * 131072]
print(len(rows), 'in-order' if not bad else 'offset %d wrong' % bad[0])" "$1"
}
mkdir -p "$T/i" "$T/f"
# shellcheck disable=SC2086
(cd "$T/i" && "$IOTRIAL" $A --output=/dev/null >/dev/null 2>&1)
got=$(seq_ok "$T/i/test_bw.log" 2>&1)
[ "$got" = "8000 in-order" ] && pass "log_compression_text ($got)" || fail log_compression_text "$got"
rm -f "$T/i/test_bw.log"
# shellcheck disable=SC2086
(cd "$T/i" && "$IOTRIAL" $A --log_store_compressed=1 --output=/dev/null >/dev/null 2>&1 &&
	"$IOTRIAL" --inflate-log=test_bw.log.fz >from_fz.log)
got=$(seq_ok "$T/i/from_fz.log" 2>&1)
[ "$got" = "8000 in-order" ] && [ ! -e "$T/i/test_bw.log" ] && pass "log_store_compressed ($got)" ||
	fail log_store_compressed "$got; $(ls "$T/i")"
if [ "$HAVE_FIO" = 1 ]; then
	# fio reads iotrial's file
	fio --inflate-log="$T/i/test_bw.log.fz" >"$T/i/by_fio.log" 2>"$T/i/fio.err"
	if cmp -s "$T/i/by_fio.log" "$T/i/from_fz.log"; then pass "fio_inflates_iotrial_fz (8000 lines, same text)"
	else fail fio_inflates_iotrial_fz "differs: $(head -c 200 "$T/i/fio.err") $(diff "$T/i/by_fio.log" "$T/i/from_fz.log" | head -3)"; fi
	# iotrial reads fio's file
	# shellcheck disable=SC2086
	(cd "$T/f" && timeout -s KILL 60 fio $A --log_store_compressed=1 --output=/dev/null >/dev/null 2>&1 &&
		fio --inflate-log=test_bw.log.fz >by_fio.log && "$IOTRIAL" --inflate-log=test_bw.log.fz >by_iot.log)
	got=$(seq_ok "$T/f/by_iot.log" 2>&1)
	if [ "$got" = "8000 in-order" ] && cmp -s "$T/f/by_fio.log" "$T/f/by_iot.log"; then
		pass "iotrial_inflates_fio_fz ($got, same text)"
	else fail iotrial_inflates_fio_fz "$got; $(diff "$T/f/by_fio.log" "$T/f/by_iot.log" | head -3)"; fi
	# log_prio's flag and the priority value travel too (0x2003: class 1, level 3)
	(cd "$T/i" && rm -f ./*.fz && "$IOTRIAL" --name=p --ioengine=null --filesize=1M --bs=128K --rw=write \
		--write_lat_log=p --log_prio=1 --prioclass=1 --prio=3 --log_store_compressed=1 \
		--output=/dev/null >/dev/null 2>&1)
	a=$(fio --inflate-log="$T/i/p_clat.1.log.fz" 2>&1 | awk -F', ' '{print $3, $4, $5}' | sort | uniq -c | tr -s ' ')
	b=$("$IOTRIAL" --inflate-log="$T/i/p_clat.1.log.fz" 2>&1 | awk -F', ' '{print $3, $4, $5}' | sort | uniq -c | tr -s ' ')
	[ "$a" = "$b" ] && [ "$a" = " 8 1 131072 0x2003" ] && pass "fz_log_prio ($a)" || fail fz_log_prio "fio '$a', iotrial '$b'"
else
	skip fio_inflates_iotrial_fz "fio not installed"
fi
# what is not a compressed log, and what fio refuses, say so (exit 2)
echo garbage >"$T/g.fz"
expect_exit inflate_not_fz 2 "inflate-log .*g.fz: not a compressed log" "$IOTRIAL" --inflate-log="$T/g.fz"
expect_exit log_compression_min 2 "'100' for option 'log_compression': below the minimum 1024" \
	"$IOTRIAL" --name=x --log_compression=100 --parse-only
expect_exit fz_hist_refused 2 "log_store_compressed with write_hist_log is not supported" \
	"$IOTRIAL" --name=x --write_hist_log --log_store_compressed=1 --parse-only
