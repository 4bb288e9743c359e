#!/bin/sh
# cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit, prio,
# prioclass, log_prio (cmdprio.h), as fio 3.33 on the same jobs: the share of
# I/Os issued with the high priority (counted from each tool's latency log,
# whose last column is the I/O's ioprio with log_prio=1), the JSON's "prios"
# (one entry per priority, fio's keys, clat counts adding up to the
# direction's), and the log column without log_prio (1 for RT).  Whether the
# device honours priorities is not observable here (virtio ignores them).
. "$(dirname "$0")/lib.sh"
F="$T/f"
dd if=/dev/zero of="$F" bs=1M count=16 2>/dev/null
JOB="--name=p --filename=$F --size=16m --bs=4k --rw=randread --iodepth=8 --number_ios=4000"

# share TOOL ENGINE ARGS...: "pct_of_0x2000 distinct_values json_ok"
share() {
	tool=$1; shift
	rm -f "$T"/pl_*.log
	if [ "$tool" = fio ]; then set -- timeout -s KILL 60 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	(cd "$T" && "$@" --write_lat_log=pl --log_prio=1 --output-format=json --output="$T/$tool.json" >/dev/null 2>&1)
	awk -F', ' '{ n++; c[$NF]++ } END { k = length(c); printf "%d %d", 100 * (("0x2000" in c) ? c["0x2000"] : 0) / n + 0.5, k }' "$T/pl_clat.1.log"
	pyjson "
import json
r = json.load(open('$T/$tool.json'))['jobs'][0]['read']
ps = r['prios']
assert [sorted(p) for p in ps] == [['clat_ns', 'prio', 'prioclass']] * len(ps), ps
assert sum(p['clat_ns']['N'] for p in ps) == r['clat_ns']['N'], ps
print(' ' + ','.join('%d/%d' % (p['prioclass'], p['prio']) for p in ps))"
}

for eng in libaio io_uring; do
	for pct in 20 75; do
		i=$(share iotrial $JOB --ioengine=$eng --cmdprio_percentage=$pct --cmdprio_class=1)
		f=$(share fio $JOB --ioengine=$eng --cmdprio_percentage=$pct --cmdprio_class=1)
		ip=${i%% *} fp=${f%% *}
		# 4000 draws: the share is within 3 points of the asked one, for both tools
		if [ "${i#* }" = "${f#* }" ] && [ $((ip - pct)) -le 3 ] && [ $((pct - ip)) -le 3 ] &&
		   [ $((fp - pct)) -le 3 ] && [ $((pct - fp)) -le 3 ]; then
			pass "cmdprio_${eng}_$pct ($i; fio $f)"
		else
			fail "cmdprio_${eng}_$pct" "iotrial '$i', fio '$f'"
		fi
	done
done

# prioclass=3 (idle) for the rest, as cmdprio-percentage.fio
i=$(share iotrial $JOB --ioengine=libaio --cmdprio_percentage=20 --prioclass=3)
f=$(share fio $JOB --ioengine=libaio --cmdprio_percentage=20 --prioclass=3)
[ "${i#* }" = "${f#* }" ] && pass "cmdprio_prioclass3 (${i#* })" || fail cmdprio_prioclass3 "iotrial '$i', fio '$f'"

# the job's own priority (prioclass/prio) and cmdprio_class 3
i=$(share iotrial $JOB --ioengine=libaio --cmdprio_percentage=20 --cmdprio_class=3 --prioclass=2 --prio=7)
f=$(share fio $JOB --ioengine=libaio --cmdprio_percentage=20 --cmdprio_class=3 --prioclass=2 --prio=7)
[ "${i#* }" = "${f#* }" ] && pass "cmdprio_prio_be7 (${i#* })" || fail cmdprio_prio_be7 "iotrial '$i', fio '$f'"

# cmdprio_bssplit: 64k reads always high, 1m never
B="--bssplit=64k/50:1m/50 --ioengine=libaio --number_ios=400"
i=$(share iotrial $JOB $B --cmdprio_bssplit=64k/100:1m/0)
f=$(share fio $JOB $B --cmdprio_bssplit=64k/100:1m/0)
if [ "${i#* }" = "${f#* }" ] && [ "${i#* }" = "2 0/0,1/0" ]; then pass "cmdprio_bssplit (${i#* })"
else fail cmdprio_bssplit "iotrial '$i', fio '$f'"; fi
# the long form bs/percent/class/level: every 64k read at 1/1, no 1m one
i=$(share iotrial $JOB $B --cmdprio_bssplit=64k/100/1/1:1m/0)
if [ "${i#* }" = "2 0/0,1/1" ] && awk -F', ' '($4 == 65536) != ($NF == "0x2001") { bad++ } END { exit bad > 0 }' "$T/pl_clat.1.log"
then pass "cmdprio_bssplit_long (${i#* })"; else fail cmdprio_bssplit_long "$i"; fi

# log_prio=0: the column says 1 for an RT-class I/O
(cd "$T" && rm -f pl_*.log && "$IOTRIAL" $JOB --ioengine=libaio --cmdprio_percentage=50 --write_lat_log=pl >/dev/null 2>&1)
if [ "$(cut -d, -f5 "$T/pl_clat.1.log" | sort -u | tr -d ' \n')" = "01" ]; then pass cmdprio_log_flag
else fail cmdprio_log_flag "$(cut -d, -f5 "$T/pl_clat.1.log" | sort -u | tr '\n' ' ')"; fi

expect_exit cmdprio_not_psync 2 "option 'cmdprio_percentage' belongs to ioengine io_uring libaio null" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --ioengine=psync --cmdprio_percentage=10
expect_exit cmdprio_six_fields_refused 2 "cmdprio_bssplit.*bs/percent/class/level/hint" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --ioengine=libaio --cmdprio_bssplit=1M/10/2/0/1/1
expect_exit cmdprio_hint_range 2 "cmdprio_bssplit.*hint 0\.\.1023" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --ioengine=libaio --cmdprio_bssplit=1M/10/2/0/1024
expect_exit cmdprio_pct_range 2 "cmdprio_percentage.*0\.\.100" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --ioengine=libaio --cmdprio_percentage=101
