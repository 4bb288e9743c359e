# iotrial ab's command-line errors (nothing is run).
# check-fast: usage errors, refused before any run
. "$(dirname "$0")/lib.sh"

expect_exit ab_needs_b 2 'both --a and --b are needed' "$IOTRIAL" ab --a rate_iops=1 --name=x
expect_exit ab_needs_job 2 'no job' "$IOTRIAL" ab --a rate_iops=1 --b rate_iops=2
expect_exit ab_bad_side 2 '--b: "nope\.fio" is neither a key=value fio option nor an existing job file' \
	"$IOTRIAL" ab --a rate_iops=1 --b nope.fio --name=x
expect_exit ab_bad_metric 2 '--metric=read.speed: not a metric' \
	"$IOTRIAL" ab --a rate_iops=1 --b rate_iops=2 --metric=read.speed --name=x
expect_exit ab_bad_runs 2 '--runs=0' "$IOTRIAL" ab --runs 0 --a rate_iops=1 --b rate_iops=2 --name=x
expect_exit ab_bad_order 2 '--order=abba' "$IOTRIAL" ab --order=abba --a rate_iops=1 --b rate_iops=2 --name=x
expect_exit ab_bad_pause 2 '--pause=soon' "$IOTRIAL" ab --pause=soon --a rate_iops=1 --b rate_iops=2 --name=x
expect_exit ab_no_output 2 '--output is not allowed' \
	"$IOTRIAL" ab --a rate_iops=1 --b rate_iops=2 --name=x --output=x.json
# a runner that cannot start is found before any run, by the sides' check
"$IOTRIAL" ab --runner=/nonexistent/runner --a rate_iops=1 --b rate_iops=2 --dir "$T/d" --name=x \
	>"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$T/d" ] &&
   grep -q '^iotrial: error: ab: side A (--a rate_iops=1) is refused before any run: cannot run /nonexistent/runner' "$T/err"
then pass ab_bad_runner; else fail ab_bad_runner "rc $rc: $(cat "$T/err")"; fi
# both sides parsed as their runs will be (--parse-only) before the trial
# directory or any run: a misspelt option on B, a bare word on A, and a
# common option that only fails with B's side; the message says what --a/--b take
side_refused() {	# NAME SIDE WHY ARGS...
	name=$1 side=$2 why=$3; shift 3
	"$IOTRIAL" ab --runs=1 --dir "$T/$name" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$T/$name" ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q "^iotrial: error: ab: side $side .* is refused before any run: $why.*--a and --b take fio options as key=value" "$T/err"
	then pass "$name"; else fail "$name" "rc $rc: $(cat "$T/err")"; fi
}
side_refused ab_side_typo B "unknown option 'iodpeth' (did you mean 'iodepth'?)" \
	--a iodepth=1 --b iodpeth=32 --name=x --ioengine=null --size=1m
side_refused ab_side_bare_word A "unknown option 'libaio'" \
	--a libaio --b ioengine=psync --name=x --ioengine=null --size=1m
side_refused ab_side_bad_value B "invalid value '4q' for option 'bs'" \
	--a bs=4k --b bs=4q --name=x --ioengine=null --size=1m
printf '[x]\nioengine=null\nsize=1m\niodpth=4\n' >"$T/bad.fio"
printf '[x]\nioengine=null\nsize=1m\n' >"$T/good.fio"
side_refused ab_side_job_file B "unknown option 'iodpth'.*bad.fio:4" --a "$T/good.fio" --b "$T/bad.fio"
"$IOTRIAL" ab --help >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q -- '--until-ci=PCT' "$T/out" && grep -q -- '--fail-on-regression=PCT' "$T/out"
then pass ab_help; else fail ab_help "$(cat "$T/out")"; fi
