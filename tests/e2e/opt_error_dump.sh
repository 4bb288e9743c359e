#!/bin/sh
# error_dump against fio 3.33 on /dev/full (every write fails with ENOSPC,
# which continue_on_error=write + ignore_error=,ENOSPC let pass): with
# error_dump=1 each of those errors gets fio's line on stderr ("io_u error on
# file F: <why>: write offset=O, buflen=L"), the same lines as fio's; with
# error_dump=0 and by default (fio 3.33's default is 0, whatever its HOWTO
# says) none.  The counts in the JSON do not change.  A bad value: exit 2.
. "$(dirname "$0")/lib.sh"
[ -w /dev/full ] || { skip error_dump "no writable /dev/full"; exit 0; }
JOB="--name=t --filename=/dev/full --rw=write --bs=4k --size=24k --ioengine=psync
     --continue_on_error=write --ignore_error=,ENOSPC"

# the part of each line after the tool's prefix, up to the job's name
lines() { sed -n 's/^\(fio\|iotrial\): \(io_u error on file .*buflen=[0-9]*\).*/\2/p' "$1"; }

for case in default 1 0; do
	opt=""; [ "$case" = default ] || opt="--error_dump=$case"
	# shellcheck disable=SC2086
	"$IOTRIAL" $JOB $opt --output-format=json --output="$T/i.json" 2>"$T/ierr"
	irc=$?
	got=$(lines "$T/ierr")
	if command -v fio >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		fio $JOB $opt --output-format=json --output="$T/f.json" 2>"$T/ferr" >/dev/null
		want=$(lines "$T/ferr")
	else
		want=""
		[ "$case" = 1 ] && for o in 0 4096 8192 12288 16384 20480; do
			want="${want:+$want
}io_u error on file /dev/full: No space left on device: write offset=$o, buflen=4096"; done
	fi
	n=$(printf '%s' "$got" | grep -c 'io_u error')
	if [ "$irc" -eq 0 ] && [ "$got" = "$want" ] && { [ "$case" = 1 ] && [ "$n" -eq 6 ] || [ "$n" -eq 0 ]; }
	then pass "error_dump_$case"
	else fail "error_dump_$case" "exit $irc, $n lines; iotrial: '$got' fio: '$want'"; fi
done

# the run's figures are the same with and without the dump
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --error_dump=1 --output-format=json --output="$T/i.json" 2>/dev/null
if pyjson "
import json, sys
j = json.load(open('$T/i.json'))['jobs'][0]
sys.exit(not (j['total_err'] == 6 and j['write']['total_ios'] == 6 and
              j['job options'].get('error_dump') == '1'))"
then pass error_dump_counts; else fail error_dump_counts "$(head -c 300 "$T/i.json")"; fi

expect_exit error_dump_bad_value 2 "^iotrial: error: invalid value '2' for option 'error_dump'" \
	"$IOTRIAL" --parse-only $JOB --error_dump=2
