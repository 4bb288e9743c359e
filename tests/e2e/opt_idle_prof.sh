#!/bin/sh
# --idle-prof=system|percpu|calibrate: fio's idleness profile, in fio's
# output form (the JSON's "cpu_idleness" keys and the text's "CPU idleness"
# block, compared with fio 3.33's on the same job where fio is installed),
# every share within [0,100]; and it measures what it says: a CPU kept busy
# by a spinner this test starts reads less idle than one left alone.  The
# CPU left alone is whatever the machine leaves it: when others keep it busy
# too (below 5% idle), the comparison says nothing and is skipped.  The
# spinning CPU reads about 0.3% (SCHED_IDLE's weight against a normal
# thread's); measured beside other engineers' builds: 0.0-0.4% there, 18-70%
# on the other CPU.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
JOB="--name=i --ioengine=null --rw=read --bs=4k --size=1g --rate_iops=200 --time_based --runtime=1"

# shares: [0,100]; the keys: system, cpu-N per CPU, the unit's mean and stddev
keys() {	# FILE: the cpu_idleness keys, sorted, or why not
	pyjson "
import json, sys
c = json.load(open('$1')).get('cpu_idleness')
if c is None: sys.exit('no cpu_idleness')
bad = [k for k, v in c.items() if k != 'unit_mean' and k != 'unit_stddev' and not 0 <= v <= 100]
if bad or not c['unit_mean'] > 0 or not c['unit_stddev'] >= 0: sys.exit('out of range: %s' % c)
print(' '.join(sorted(c)))
" 2>&1
}
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --idle-prof=percpu --output-format=json >p.json 2>p.err
rc=$?
got=$(keys p.json)
want=$(python3 -c "import os; print(' '.join(sorted(['system', 'unit_mean', 'unit_stddev'] + ['cpu-%d' % c for c in os.sched_getaffinity(0)])))")
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then pass idle_prof_json
else fail idle_prof_json "exit $rc, keys '$got', want '$want': $(head -c 200 p.err)"; fi

# shellcheck disable=SC2086
"$IOTRIAL" $JOB --idle-prof=system --output-format=json >s.json 2>s.err
got=$(keys s.json)
if [ "$got" = "system unit_mean unit_stddev" ]; then pass idle_prof_system_json
else fail idle_prof_system_json "keys '$got': $(head -c 200 s.err)"; fi

# the text block, as fio's: after the disk stats, a blank line, then the figures
form='^CPU idleness:$|^  system: [0-9]+\.[0-9]{2}%$|^  percpu: [0-9]+\.[0-9]{2}%(, [0-9]+\.[0-9]{2}%)*$|^  unit work: mean=[0-9]+\.[0-9]{2}us, stddev=[0-9]+\.[0-9]{2}$'
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --idle-prof=percpu >t.out 2>t.err
n=$(grep -cE "$form" t.out)
if [ "$n" -eq 4 ] && grep -B1 '^CPU idleness:$' t.out | head -1 | grep -q '^$'; then pass idle_prof_text
else fail idle_prof_text "$n of 4 lines in fio's form: $(grep -A4 'CPU idleness' t.out | head -c 300)"; fi

# calibrate: the unit alone, no job needed, exit 0
"$IOTRIAL" --idle-prof=calibrate >c.out 2>c.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -cE "$form" c.out)" -eq 2 ] && [ "$(wc -l <c.out)" -eq 2 ]; then
	pass idle_prof_calibrate
else
	fail idle_prof_calibrate "exit $rc: $(head -c 200 c.out) $(head -c 200 c.err)"
fi
expect_exit idle_prof_bad_value 2 "idle-prof.*system, percpu, calibrate" "$IOTRIAL" --idle-prof=all \
	--name=x --size=4k --ioengine=null --parse-only

# fio's keys and text lines on the same job
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	fio $JOB --idle-prof=percpu --output-format=json >fp.json 2>fp.err
	fk=$(keys fp.json)
	# shellcheck disable=SC2086
	fio $JOB --idle-prof=percpu >ft.out 2>&1
	fn=$(grep -cE "$form" ft.out)
	if [ "$fk" = "$want" ] && [ "$fn" -eq 4 ]; then pass idle_prof_fio_form
	else fail idle_prof_fio_form "fio 3.33: keys '$fk' (iotrial '$want'), $fn of 4 text lines"; fi
else
	skip idle_prof_fio_form "fio is not installed"
fi

# a busy CPU reads less idle than one left alone
cpus=$(python3 -c "import os; print(' '.join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))")
set -- $cpus
if [ $# -lt 2 ]; then
	skip idle_prof_busy_cpu "one CPU only: nothing to compare it with"
	exit 0
fi
busy=$1 alone=$2
python3 -c "
import os
os.sched_setaffinity(0, {$busy})
while True: pass
" &
spin=$!
trap 'kill $spin 2>/dev/null; lib_cleanup' EXIT
sleep 0.2
# the job itself stays off the busy CPU
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --cpus_allowed="$alone" --idle-prof=percpu --output-format=json >b.json 2>b.err
rc=$?
kill $spin 2>/dev/null
wait $spin 2>/dev/null
read -r pb pa <<EOF
$(pyjson "import json; c=json.load(open('b.json'))['cpu_idleness']; print(c['cpu-$busy'], c['cpu-$alone'])" 2>/dev/null)
EOF
if [ $rc -ne 0 ] || [ -z "$pa" ]; then
	fail idle_prof_busy_cpu "exit $rc: $(head -c 200 b.err)"
elif python3 -c "import sys; sys.exit(0 if $pa < 5 else 1)"; then
	skip idle_prof_busy_cpu "the machine keeps CPU $alone busy too (idle $pa%): too loaded to tell"
elif python3 -c "import sys; sys.exit(0 if $pb < $pa else 1)"; then
	echo "  busy CPU $busy: $pb%, CPU $alone left alone: $pa%"
	pass idle_prof_busy_cpu
else
	fail idle_prof_busy_cpu "spinning CPU $busy idle $pb%, CPU $alone left alone $pa%"
fi
