#!/bin/sh
# continue_on_error / ignore_error (ioerr.h) against fio 3.33, on /dev/full
# (every write fails with ENOSPC): with ENOSPC in the write list the job goes
# on and counts every failed write (total_err, first_error, "error", the
# issued count); without it ENOSPC stays fatal (fio's default list is EIO and
# EILSEQ) and the count is 1.  Bad values are refused with one line, exit 2.
. "$(dirname "$0")/lib.sh"
[ -w /dev/full ] || { skip continue_on_error "no writable /dev/full"; exit 0; }
JOB="--name=t --filename=/dev/full --rw=write --bs=4k --size=64k --ioengine=psync"

# fields NAME JSON: "error total_err first_error write_total_ios"
fields() {
	pyjson "
import json
j = json.load(open('$1'))['jobs'][0]
print(j['error'], j.get('total_err'), j.get('first_error'), j['write']['total_ios'])"
}

for case in "write,--ignore_error=,ENOSPC" "all,--ignore_error=EIO,ENOSPC:EDQUOT" "write," "io,--ignore_error=,28"; do
	coe=${case%%,*} ign=${case#*,}
	# shellcheck disable=SC2086
	"$IOTRIAL" $JOB --continue_on_error=$coe $ign --output-format=json >"$T/i.json" 2>"$T/ierr"
	irc=$?
	if command -v fio >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		fio $JOB --continue_on_error=$coe $ign --output-format=json --output="$T/f.json" >/dev/null 2>&1
		want=$(fields "$T/f.json")
	else
		want="28 1 28 1"
		[ -n "$ign" ] && want="28 16 28 16"
	fi
	got=$(fields "$T/i.json")
	# fio exits 0 either way; iotrial exits 1 for the fatal case (a job error)
	if [ "$got" = "$want" ] && { [ "$irc" -eq 0 ] || [ -z "$ign" ]; }; then
		pass "coe_${coe}_$(echo "$ign" | tr -c 'a-zA-Z0-9\n' _)"
	else
		fail "coe_${coe}_$ign" "iotrial (exit $irc) '$got', fio '$want': $(head -c 200 "$T/ierr")"
	fi
done

# none: fio writes neither field
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --output-format=json >"$T/n.json" 2>/dev/null
if [ "$(fields "$T/n.json")" = "28 None None 1" ]; then pass coe_none_no_fields
else fail coe_none_no_fields "$(fields "$T/n.json")"; fi

# fio's text line
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --continue_on_error=write --ignore_error=,ENOSPC >"$T/t.txt" 2>/dev/null
if grep -q "errors    : total=16, first_error=28/<No space left on device>" "$T/t.txt" &&
   grep -q "issued rwts: total=0,16,0,0" "$T/t.txt"
then pass coe_text; else fail coe_text "$(grep -E 'errors|issued' "$T/t.txt")"; fi

expect_exit coe_bad_value 2 "^iotrial: error: .*'sometimes'.*continue_on_error" \
	"$IOTRIAL" --parse-only $JOB --continue_on_error=sometimes
expect_exit ignore_error_bad_name 2 "^iotrial: error: .*ignore_error.*ENOTANERROR" \
	"$IOTRIAL" --parse-only $JOB --ignore_error=,ENOTANERROR
expect_exit ignore_error_four_lists 2 "^iotrial: error: .*ignore_error.*three lists" \
	"$IOTRIAL" --parse-only $JOB --ignore_error=EIO,EIO,EIO,EIO
