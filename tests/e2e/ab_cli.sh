# iotrial ab's command-line errors (nothing is run).
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
# progress lines come first on stderr; the error is the last line
"$IOTRIAL" ab --runner=/nonexistent/runner --a rate_iops=1 --b rate_iops=2 --dir "$T/d" --name=x \
	>"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && tail -n 1 "$T/err" | grep -q '^iotrial: error: ab: run 1 ([AB]) exited with 127: .*cannot run /nonexistent/runner'
then pass ab_bad_runner; else fail ab_bad_runner "rc $rc: $(cat "$T/err")"; fi
"$IOTRIAL" ab --help >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q -- '--until-ci=PCT' "$T/out" && grep -q -- '--fail-on-regression=PCT' "$T/out"
then pass ab_help; else fail ab_help "$(cat "$T/out")"; fi
