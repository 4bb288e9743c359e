#!/bin/sh
# random_generator=lfsr: a randread pass over 1000 blocks touches every block
# exactly once, in a scrambled order, as fio 3.33's lfsr does (each tool's
# offsets from its own log); tausworthe and tausworthe64 are accepted.
. "$(dirname "$0")/lib.sh"
F="$T/f"
dd if=/dev/zero of="$F" bs=4k count=1000 2>/dev/null
base="--name=l --filename=$F --size=4000k --bs=4k --rw=randread --ioengine=psync --random_generator=lfsr"
(cd "$T" && "$IOTRIAL" $base --write_lat_log=il --log_offset=1 >/dev/null 2>&1)
awk -F', ' '{print $5}' "$T/il_lat.1.log" >"$T/i.off"
# once each: 1000 lines, 1000 distinct offsets, and not in file order
check_pass() {	# NAME FILE
	if [ "$(wc -l <"$2")" -eq 1000 ] && [ "$(sort -u "$2" | wc -l)" -eq 1000 ] &&
	   ! sort -n "$2" | cmp -s - "$2"; then pass "$1"
	else fail "$1" "$(wc -l <"$2") I/Os, $(sort -u "$2" | wc -l) distinct"; fi
}
check_pass lfsr_each_block_once "$T/i.off"
if command -v fio >/dev/null 2>&1; then
	fio $base --write_iolog="$T/log" >/dev/null 2>&1
	awk '$3 == "read" { print $4 }' "$T/log" >"$T/f.off"
	check_pass lfsr_each_block_once_fio "$T/f.off"
else
	skip lfsr_each_block_once_fio "fio not installed"
fi
for g in tausworthe tausworthe64; do
	check "random_generator_$g" "$IOTRIAL" --parse-only --name=x --filename="$F" --random_generator=$g
done
expect_exit random_generator_bad 2 "random_generator" "$IOTRIAL" --parse-only --name=x --random_generator=mt19937
