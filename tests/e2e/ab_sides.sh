# What each side of `iotrial ab` runs: --a/--b win over a job file's own
# settings (they go to iotrial as --set, into every job); two sides that
# resolve to the same jobs are refused before any run; a runner without
# --set (fio) is refused when a side option would not reach every job.
. "$(dirname "$0")/lib.sh"

# the job file sets iodepth itself (both sides once ran at 16)
printf '[global]\nioengine=null\nsize=1m\nruntime=50ms\ntime_based\n[qd]\nrw=randread\niodepth=16\n' >"$T/qd.fio"
printf '[global]\nioengine=null\nsize=1m\nruntime=50ms\ntime_based\n[noqd]\nrw=randread\n' >"$T/noqd.fio"

"$IOTRIAL" ab --runs=2 --a iodepth=1 --b iodepth=16 --dir "$T/win" "$T/qd.fio" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import glob, json, os, sys
seen = {}
for p in sorted(glob.glob(os.path.join(sys.argv[1], "run-*.json"))):
    d = json.load(open(p))
    side = p[-6]
    for j in d["jobs"]:
        ran = j["iotrial"]["job"].get("iodepth", 1)
        typed = j["job options"].get("iodepth")
        seen.setdefault(side, set()).add((str(ran), typed))
assert seen == {"A": {("1", "1")}, "B": {("16", "16")}}, seen
' "$T/win" && grep -q 'job.iodepth  *A "1", B "16"' "$T/out"
then pass ab_sides_win_over_job_file; else fail ab_sides_win_over_job_file "rc $rc: $(tail -n 3 "$T/err") $(grep -A2 differences "$T/out")"; fi

# the same jobs on both sides: refused in one line, exit 2, nothing made
same() {	# NAME ARGS...
	name=$1; shift
	expect_exit "$name" 2 "^iotrial: error: ab: --a .* and --b .* give the same jobs, so the trial would compare a set-up with itself" \
		"$IOTRIAL" ab --runs=2 --dir "$T/$name" "$@"
	[ ! -e "$T/$name" ] || fail "${name}_nothing_made" "$T/$name was made"
}
same ab_sides_same_value --a iodepth=16 --b iodepth=16 "$T/qd.fio"
same ab_sides_same_resolved --a bs=4k --b bs=4096 "$T/qd.fio"
same ab_sides_same_cmdline --a iodepth=2 --b iodepth=2 --name=x --ioengine=null --size=1m
cp "$T/noqd.fio" "$T/copy.fio"
same ab_sides_same_files --a "$T/noqd.fio" --b "$T/copy.fio"

# an A/A trial on purpose
"$IOTRIAL" ab --runs=2 --allow-same --a iodepth=2 --b iodepth=2 --dir "$T/aa" "$T/noqd.fio" >/dev/null 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ -e "$T/aa/run-004-"?.json ]
then pass ab_sides_allow_same; else fail ab_sides_allow_same "rc $rc: $(tail -n 2 "$T/err")"; fi

# iotrial itself: --set wins over the job file, in every job
"$IOTRIAL" --showcmd --set=iodepth=4 "$T/qd.fio" --name=cl --ioengine=null --size=1m --iodepth=8 >"$T/out" 2>&1
if [ "$(grep -c -- '--iodepth=4' "$T/out")" -eq 2 ] && ! grep -q -- '--iodepth=16\|--iodepth=8' "$T/out"
then pass ab_sides_set_every_job; else fail ab_sides_set_every_job "$(cat "$T/out")"; fi
expect_exit ab_sides_set_typo 2 "unknown option 'iodpeth' \(did you mean 'iodepth'\?\) \(--set\)" \
	"$IOTRIAL" --parse-only --set=iodpeth=4 "$T/qd.fio"

# fio as the runner: its job files win over its command line, so a side
# option the file sets is refused, naming it and the job; sides fio would
# run alike are refused too
if command -v fio >/dev/null 2>&1; then
	expect_exit ab_sides_fio_unreached 2 "^iotrial: error: ab: side A's iodepth=1 would not reach job 'qd': .*qd.fio:6 sets iodepth itself" \
		"$IOTRIAL" ab --runner=fio --runs=2 --a iodepth=1 --b iodepth=8 --dir "$T/fio1" "$T/qd.fio"
	expect_exit ab_sides_fio_last_name 2 "^iotrial: error: ab: side A's iodepth=4 would reach only the last --name job under fio, not 'a'" \
		"$IOTRIAL" ab --runner=fio --runs=2 --a iodepth=4 --b iodepth=8 --dir "$T/fio2" \
		--ioengine=null --size=1m --name=a --name=b
	same ab_sides_fio_same --runner=fio --a iodepth=4 --b iodepth=4 "$T/noqd.fio"
else
	skip ab_sides_fio_unreached "fio is not installed"
	skip ab_sides_fio_last_name "fio is not installed"
	skip ab_sides_fio_same "fio is not installed"
fi
