#!/bin/sh
# What fio's t/steadystate_tests.py reads, checked in seconds: --debug=parse
# prints the steady-state threshold fio parsed (the test greps these lines;
# fio is the control where installed); --parse-only with no job is no error;
# --debug=zbd is taken and prints nothing; other --debug classes are refused
# by name; a job whose ss_dur window never
# filled reports fio's arrays: ss_dur entries, zeros for the rounds not
# measured, means over all of them, criterion 0 (fio's check divides by the
# array's length).
. "$(dirname "$0")/lib.sh"
bad=""
for a in "iops:10|set steady state IOPS threshold to 10.000000" \
	 "iops:10%|set steady state threshold to 10.000000%" \
	 "iops:.1%|set steady state threshold to 0.100000%" \
	 "bw:10%|set steady state threshold to 10.000000%" \
	 "bw:.1%|set steady state threshold to 0.100000%" \
	 "bw:12|set steady state BW threshold to 12"; do
	ss=${a%%|*} want=${a#*|}
	"$IOTRIAL" --parse-only --debug=parse --ss_dur=10s --ss="$ss" --ss_ramp=5 >"$T/o" 2>&1 ||
		bad="$bad $ss:exit"
	grep -qF "$want" "$T/o" || bad="$bad $ss:iotrial"
	if command -v fio >/dev/null 2>&1; then
		timeout -s KILL 20 fio --parse-only --debug=parse --ss_dur=10s --ss="$ss" --ss_ramp=5 \
			>"$T/f" 2>&1
		grep -qF "$want" "$T/f" || bad="$bad $ss:fio"
	fi
done
if [ -z "$bad" ]; then pass "debug_parse_ss_threshold (6 forms)"
else fail debug_parse_ss_threshold "line missing for:$bad: $(head -c 300 "$T/o")"; fi
"$IOTRIAL" --parse-only --debug=parse --name=x --rw=randread --bs=8k >"$T/o" 2>&1
if grep -qE '^parse +[0-9]+ handle_option=rw, ptr=randread$' "$T/o" &&
	grep -qE '^parse +[0-9]+ handle_option=bs, ptr=8k$' "$T/o"; then pass debug_parse_options
else fail debug_parse_options "no handle_option lines: $(head -c 300 "$T/o")"; fi
# JSON to stdout stays alone: the trace goes to stderr then
"$IOTRIAL" --debug=parse --name=x --ioengine=null --size=64k --output-format=json >"$T/j" 2>"$T/e"
if pyjson "import json; json.load(open('$T/j'))" 2>/dev/null && grep -q handle_option "$T/e"; then
	pass debug_parse_json_alone
else fail debug_parse_json_alone "stdout not JSON alone or no trace on stderr"; fi
expect_exit debug_other_refused 2 "'debug': only fio's 'parse', 'random' and 'zbd' traces" "$IOTRIAL" --debug=io --parse-only
check parse_only_no_job "$IOTRIAL" --parse-only
# fio's t/zbd passes --debug=zbd (with parse too) and reads none of it: taken,
# no trace, the run's text as without it
"$IOTRIAL" --debug=parse,zbd --name=x --ioengine=null --size=64k >"$T/z" 2>&1
rz=$?
if [ "$rz" = 0 ] && grep -q handle_option "$T/z" && grep -q 'READ: bw=' "$T/z" &&
	! grep -q '^zbd ' "$T/z"; then
	pass debug_zbd_taken
else fail debug_zbd_taken "exit $rz: $(head -c 300 "$T/z")"; fi
# the window never fills (ramp past the run): ss_dur zeros, criterion 0
G="--thread --ioengine=null --size=1G --rw=randread --time_based --output-format=json --ss=iops_slope:0.1%"
# shellcheck disable=SC2086
"$IOTRIAL" --name=a $G --runtime=1 --ss_dur=3 --ss_ramp=500 >"$T/a.json" 2>"$T/a.err"
# ...or fills part-way: measured rounds first, then zeros, means over the window
# shellcheck disable=SC2086
"$IOTRIAL" --name=b $G --runtime=2 --ss_dur=6 --ss_ramp=0 >"$T/b.json" 2>"$T/b.err"
if pyjson "
import json
a = json.load(open('$T/a.json'))['jobs'][0]['steadystate']
assert a['data']['iops'] == [0, 0, 0] and a['data']['bw'] == [0, 0, 0], a
assert a['attained'] == 0 and a['criterion'] == '0.000000%' and a['data']['iops_mean'] == 0, a
b = json.load(open('$T/b.json'))['jobs'][0]['steadystate']
d = b['data']
assert len(d['iops']) == 6 and len(d['bw']) == 6, d
n = sum(1 for x in d['iops'] if x)
assert 1 <= n < 6 and all(d['iops'][:n]) and not any(d['iops'][n:]), d
assert d['iops_mean'] == int(sum(d['iops']) / 6), d
assert b['attained'] == 0 and b['criterion'] == '0.000000%' and b['slope'] == 0, b
"; then pass ss_window_not_full_zeros
else fail ss_window_not_full_zeros "$(head -c 300 "$T/a.err" "$T/b.err")"; fi
