#!/bin/sh
# The documentation stays true: the job file shown in docs/usage.md parses and
# runs as described, the options the docs name exist, README's exit-code
# table matches `iotrial --help`, and the subcommand examples work on
# results made here.  Shortened runs (1-2 s); skipped pieces say why.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -f "$SRC/docs/usage.md" ] || [ ! -f "$SRC/README.md" ]; then
	skip docs "docs/usage.md or README.md not found under $SRC"
	exit 0
fi

# --- the job file of docs/usage.md, taken from the doc itself ---------------
sed -n '/^```ini$/,/^```$/p' "$SRC/docs/usage.md" | sed '1d;$d' >"$T/jobs.fio"
echo "rate_iops=2k" >"$T/extra.inc"
export SCRATCH="$T"
if [ ! -s "$T/jobs.fio" ]; then
	fail usage_jobfile "no \`\`\`ini block in docs/usage.md"
else
	(cd "$T" && "$IOTRIAL" --parse-only jobs.fio) >"$T/out" 2>"$T/err" &&
		[ ! -s "$T/err" ] && pass usage_jobfile_parses ||
		fail usage_jobfile_parses "$(cat "$T/err")"
	(cd "$T" && "$IOTRIAL" --showcmd jobs.fio) >"$T/out" 2>"$T/err"
	if [ "$(wc -l <"$T/out")" -eq 2 ] && grep -q -- "--name=writer .*--rate_iops=2048" "$T/out" &&
		grep -q -- "--name=reader .*--directory=$T" "$T/out"; then
		pass usage_showcmd
	else
		fail usage_showcmd "$(cat "$T/out" "$T/err")"
	fi
	(cd "$T" && "$IOTRIAL" --section=reader --output-format=json jobs.fio) >"$T/out" 2>"$T/err"
	if pyjson "
import json
d = json.load(open('$T/out'))
assert [j['jobname'] for j in d['jobs']] == ['reader'], d['jobs']
assert 1800 <= d['jobs'][0]['job_runtime'] <= 2600
"; then pass usage_section; else fail usage_section "$(head -c 300 "$T/err")"; fi
fi

# --- options the docs name are real options ----------------------------------
for o in allow_mounted_write allow_signature_write series_interval clocksource thread \
	steadystate kb_base write_bw_log; do
	if "$IOTRIAL" --cmdhelp="$o" >"$T/out" 2>&1 && ! grep -q "does not support" "$T/out"; then
		pass "option_$o"
	else
		fail "option_$o" "$(head -c 200 "$T/out")"
	fi
done
"$IOTRIAL" --cmdhelp=replay_redirect >"$T/out" 2>&1
grep -q "not support" "$T/out" && pass option_replay_redirect_refused || fail option_replay_redirect_refused "$(cat "$T/out")"

# --- README's exit-code table matches iotrial --help --------------------------
readme=$(sed -n 's/^| \([0-9][0-9]*\) | .*/\1/p' "$SRC/README.md" | tr '\n' ' ')
helpc=$("$IOTRIAL" --help | sed -n 's/^  \([0-9][0-9]*\)  .*/\1/p' | tr '\n' ' ')
if [ -n "$readme" ] && [ "$readme" = "$helpc" ]; then
	pass exit_codes_match
else
	fail exit_codes_match "README has '$readme', --help has '$helpc'"
fi

# --- ab, compare and check as documented --------------------------------------
# alternate order (the default is random pairs) so that the file names below are known
"$IOTRIAL" ab --runs=2 --order=alternate --dir="$T/trial" --a ioengine=psync --b ioengine=libaio \
	--name=t --rw=randread --size=4M --runtime=1 --time_based --filename="$T/t" >"$T/ab.txt" 2>"$T/ab.err"
rc=$?
if [ $rc -eq 0 ] && [ -f "$T/trial/manifest.json" ] && [ -f "$T/trial/run-004-B.json" ] &&
	grep -q '^read.iops ' "$T/ab.txt"; then
	pass ab_runs
else
	fail ab_runs "exit $rc: $(tail -c 300 "$T/ab.err")"
fi
expect_ok() {
	name=$1; shift
	if "$@" >"$T/out" 2>"$T/err" && [ -s "$T/out" ] && [ ! -s "$T/err" ]; then
		pass "$name"
	else
		fail "$name" "$(head -c 300 "$T/err")"
	fi
}
expect_ok compare_two_files "$IOTRIAL" compare "$T/trial/run-001-A.json" "$T/trial/run-002-B.json"
# shellcheck disable=SC2086
expect_ok compare_ab_dir "$IOTRIAL" compare "$T"/trial/*-A.json -- "$T"/trial/*-B.json
mkdir "$T/runsA" "$T/runsB" && cp "$T"/trial/*-A.json "$T/runsA" && cp "$T"/trial/*-B.json "$T/runsB"
expect_ok compare_dirs "$IOTRIAL" compare "$T/runsA/" -- "$T/runsB/"
expect_ok compare_json "$IOTRIAL" compare --output-format=json "$T/runsA/" -- "$T/runsB/"
pyjson "import json; d = json.load(open('$T/out')); assert d['a']['n'] == 2 and d['b']['n'] == 2" &&
	pass compare_json_sides || fail compare_json_sides "$(head -c 200 "$T/out")"
expect_ok check_result "$IOTRIAL" check "$T/trial/run-001-A.json"
# shellcheck disable=SC2086
expect_ok check_ab_runs "$IOTRIAL" check --output-format=json "$T"/trial/run-*.json
# fio's JSON mixed with ours, as documented
if [ -f "${FIOREF:-}/psync.json" ]; then
	expect_ok compare_fio_and_ours "$IOTRIAL" compare "$FIOREF/psync.json" "$T/trial/run-002-B.json"
else
	skip compare_fio_and_ours "no fio reference output in ${FIOREF:-\$FIOREF} (fio not installed)"
fi
