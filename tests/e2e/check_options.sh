# Options are read back from a result as the job ran with them (docs/usage.md,
# "6. Plausibility checks"): `iotrial check` once read "iodepth=$ncpus" as typed, fell back
# to 1 and called the docs' own example inconsistent.  A job file with
# variables and an expression, run on psync (synchronous: any iodepth above 1
# is ignored, which check says, naming the iodepth it read), then an audit:
# nothing but the reader (src/result/resultread.c) reads the options back.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
depth=$((2 * $(getconf _NPROCESSORS_ONLN)))
cat >"$T/vars.fio" <<'JOB'
[global]
ioengine=psync
size=256k
bs=$pagesize

[v]
filename=vars.dat
rw=read
iodepth=(2*$ncpus)
JOB
"$IOTRIAL" "$T/vars.fio" --output-format=json --output="$T/vars.json" 2>"$T/err"
if [ $? -ne 0 ]; then
	fail result_options_run "$(head -c 300 "$T/err")"
	exit 0
fi
"$IOTRIAL" check "$T/vars.json" >"$T/check.out" 2>&1
if grep -q "\[depth_ignored\] job 'v': iodepth=$depth has no effect" "$T/check.out"
then pass result_options_check
else fail result_options_check "wanted iodepth=$depth read back: $(grep -h 'depth' "$T/check.out" | head -c 300)"; fi

# The audit: fio's "job options"/"global options" are read back only by
# resultread.c (resolved there); report_json.c writes them, report_html.c
# shows them as typed (labelled so), report_terse.c copies the description.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
grep -ln '"job options"\|"global options"' "$SRC"/src/*.c "$SRC"/src/*/*.c "$SRC"/cli/*.c |
	sed "s|^$SRC/||" | grep -vx 'src/result/resultread.c\|src/report/report_json.c\|src/report/report_html.c\|src/report/report_terse.c' >"$T/readers"
if [ -s "$T/readers" ]; then fail result_options_audit "read outside resultread.c: $(tr '\n' ' ' <"$T/readers")"
else pass result_options_audit; fi
