#!/bin/sh
# cmdprio_bssplit's five-field form bs/percent/class/level/hint
# (cmdprio-bssplit.fio's [cmdprio-hints]): fio 3.33 accepts the hint and
# issues class << 13 | level without hint bits, so two entries that differ
# only by their hint are one priority.  Both tools run the same libaio jobs
# and the ioprio values of their latency logs (log_prio=1) and their JSON
# "prios" must be the same.
. "$(dirname "$0")/lib.sh"
F="$T/f"
dd if=/dev/zero of="$F" bs=1M count=4 2>/dev/null
JOB="--name=p --filename=$F --size=4m --bs=4k --rw=randread --ioengine=libaio --iodepth=4 --number_ios=1000"

# prios TOOL ARGS...: "log values (sorted, unique) | json prios"
prios() {
	tool=$1; shift
	rm -f "$T"/pl_*.log
	if [ "$tool" = fio ]; then set -- timeout -s KILL 60 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	(cd "$T" && "$@" --write_lat_log=pl --log_prio=1 --output-format=json --output="$T/$tool.json" >/dev/null 2>&1)
	printf '%s| ' "$(awk -F', ' '{ print $NF }' "$T/pl_clat.1.log" | sort -u | tr '\n' ' ')"
	pyjson "
import json
r = json.load(open('$T/$tool.json'))['jobs'][0]['read']
print(','.join('%d/%d' % (p['prioclass'], p['prio']) for p in r.get('prios', [])))"
}

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
# hints 1 and 2 on two classes; hints 1 and 0 on one class/level
n=0
for spec in 4k/50/2/3/1:4k/50/3/1/2 4k/50/2/0/1:4k/50/2/0/0; do
	n=$((n + 1))
	i=$(prios iotrial $JOB --cmdprio_bssplit=$spec)
	# one priority: no "prios" (fio 3.33 writes them for two or more only)
	case $n in
	1) want="0x4003 0x6001 | 2/3,3/1" ;;
	2) want="0x4000 | " ;;
	esac
	if [ "$i" = "$want" ]; then pass "cmdprio_hint_$n ($i)"; else fail "cmdprio_hint_$n" "'$i', wanted '$want'"; fi
	if [ $have_fio = 1 ]; then
		f=$(prios fio $JOB --cmdprio_bssplit=$spec)
		if [ "$i" = "$f" ]; then pass "cmdprio_hint_${n}_as_fio ($f)"
		else fail "cmdprio_hint_${n}_as_fio" "iotrial '$i', fio '$f'"; fi
	fi
done
# shown back with its hint (--showcmd), so the job file's value is not lost
out=$("$IOTRIAL" --showcmd $JOB --cmdprio_bssplit=1M/10/2/0/1:1M/90/2/0/0 2>&1)
case "$out" in
*"--cmdprio_bssplit=1048576/10/2/0/1:1048576/90/2/0/0,"*) pass cmdprio_hint_showcmd ;;
*) fail cmdprio_hint_showcmd "$out" ;;
esac
ex="${SHARED:-}/spec/fio-examples/cmdprio-bssplit.fio"
if [ -f "$ex" ]; then
	if "$IOTRIAL" --parse-only "$ex" >/dev/null 2>"$T/err"; then pass cmdprio_hint_example_parses
	else fail cmdprio_hint_example_parses "$(cat "$T/err")"; fi
fi
