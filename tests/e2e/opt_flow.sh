#!/bin/sh
# flow, flow_id, flow_sleep (flow.h): jobs of one flow_id keep their I/O
# counts in the ratio of their weights, as fio 3.33 does (flow.fio's 8:1 and
# a 3:2:1), on the null engine for 1 s; another flow_id is not held back.
. "$(dirname "$0")/lib.sh"
ratios() {	# TOOL ARGS...: the jobs' total I/O counts divided by the last one's
	tool=$1; shift
	if [ "$tool" = fio ]; then set -- timeout -s KILL 30 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	"$@" --output-format=json --output="$T/$tool.json" >/dev/null 2>&1
	pyjson "
import json
js = json.load(open('$T/$tool.json'))['jobs']
n = [j['read']['total_ios'] + j['write']['total_ios'] for j in js]
print(' '.join('%.2f' % (x / n[-1]) for x in n))"
}
G="--ioengine=null --size=1g --bs=8k --time_based --runtime=1 --thread --flow_sleep=1000"
close() {	# GOT WANT: every ratio within 3%
	pyjson "
g = [float(x) for x in '$1'.split()]; w = [float(x) for x in '$2'.split()]
assert len(g) == len(w) and all(abs(a - b) <= 0.03 * b for a, b in zip(g, w)), (g, w)" 2>/dev/null
}
for spec in "8 1|--norandommap --name=job1 --rw=randread --flow=8 --name=job2 --rw=write --flow=1" \
	    "3 2 1|--name=a --rw=read --flow=3 --name=b --rw=read --flow=2 --name=c --rw=read --flow=1"; do
	want=$(echo "$spec" | sed 's/ /.00 /g; s/|.*/.00/')
	args=${spec#*|}
	# shellcheck disable=SC2086
	i=$(ratios iotrial $G $args)
	if close "$i" "$want"; then pass "flow_ratio_$(echo "$want" | tr ' .' '_-') ($i)"
	else fail "flow_ratio $want" "iotrial $i"; fi
	if command -v fio >/dev/null 2>&1; then
		# fio is the reference, not the subject: on a loaded machine fio 3.33
		# now and then lets one job run far past its weight (under
		# tests/load.sh, 2 of 10 runs of the 3:2:1 jobs gave 17.43:2:1 and
		# 3:25.51:1; iotrial kept within 2% in all 10).  fio's semantics are
		# shown by one of up to 3 runs; the ones that missed are printed.
		fs=""
		for try in 1 2 3; do
			# shellcheck disable=SC2086
			f=$(ratios fio $G $args)
			close "$f" "$want" && break
			fs="$fs [$f]"
		done
		if close "$f" "$want"; then pass "flow_ratio_fio_$(echo "$want" | tr ' .' '_-') ($f${fs:+; missed first:$fs})"
		else fail "flow_ratio_fio $want" "fio, 3 runs:$fs"; fi
	fi
done
# a job in another flow_id is not held to the weights: both jobs at the same
# rate limit (far below what the null engine does, so a loaded machine does
# not move it; free-running, their ratio was whatever CPU each got, 0.40 once
# under tests/load.sh) do about the same I/O, where one flow would give 8:1
# shellcheck disable=SC2086
i=$(ratios iotrial $G --rate_iops=2000 --name=a --rw=read --flow=8 --name=b --rw=read --flow=1 --flow_id=2)
if pyjson "assert 0.5 < float('${i%% *}') < 2"; then pass "flow_id_separate ($i)"
else fail flow_id_separate "$i"; fi
