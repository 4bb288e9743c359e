# iotrial ab's loop, order, manifest and stopping rules, driven by a fake
# runner (--runner, a shell script) that writes a fio-schema result whose read
# IOPS is the rate_iops it was given, with a small deterministic jitter.
. "$(dirname "$0")/lib.sh"

cat >"$T/fake" <<'SH'
#!/bin/sh
# fake runner: read IOPS = rate_iops x (1 + j/1000), j in -5..5 from the run number
out= rate=1000 nap= name=x fmt=
for a in "$@"; do
	case $a in
	--parse-only) exit 0 ;;	# ab checks each side this way before any run
	--output=*) out=${a#--output=} ;;
	--rate_iops=*) rate=${a#--rate_iops=} ;;
	--fake_sleep=*) nap=${a#--fake_sleep=} ;;
	--name=*) name=${a#--name=} ;;
	--output-format=*) fmt=${a#--output-format=} ;;
	esac
done
[ "$fmt" = json ] || exit 3
n=$(basename "$out" | sed 's/^run-0*\([0-9]*\)-.*/\1/')
iops=$(awk -v r="$rate" -v n="$n" 'BEGIN { printf "%.3f", r * (1 + ((n * 37) % 11 - 5) / 1000) }')
ios=$(awk -v i="$iops" 'BEGIN { printf "%d", i * 10 }')
[ -n "$nap" ] && sleep "$nap"
cat >"$out" <<JSON
{"fio version": "fio-3.33", "timestamp_ms": $((1700000000000 + n * 1000)), "jobs": [{"jobname": "$name",
 "job options": {"name": "$name", "rate_iops": "$rate"},
 "read": {"iops": $iops, "total_ios": $ios, "io_bytes": $((ios * 4096)), "bw_bytes": $((ios * 4096 / 10)),
  "runtime": 10000, "lat_ns": {"mean": 1000000, "N": $ios}},
 "write": {"iops": 0, "total_ios": 0}}]}
JSON
SH
chmod +x "$T/fake"
ab() { "$IOTRIAL" ab --runner="$T/fake" "$@"; }

# fixed runs, alternate order: ABABAB, one file each, manifest complete
ab --runs 3 --order=alternate --a rate_iops=1000 --b rate_iops=1180 --dir "$T/fixed" --name=x \
	--output-format=json >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, os, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
r = m["read.iops"]
assert 17 < r["diff_pct"] < 19 and r["ci"][0] < 18 < r["ci"][1] and r["ci"][0] > 0, r
assert r["ci_method"] == "run_order" and [x["order"] for x in r["runs"]] == [1, 2, 3, 4, 5, 6]
assert "".join(x["side"] for x in r["runs"]) == "ABABAB" and r["runs"][0]["file"].endswith("run-001-A.json")
assert d["ab"]["stopped_by"] == "runs" and d["ab"]["runs_per_side"] == 3
assert "job_differs" not in [w["id"] for w in d["warnings"]], d["warnings"]
man = json.load(open(os.path.join(sys.argv[2], "manifest.json")))
assert "".join(x["side"] for x in man["runs"]) == "ABABAB", man["runs"]
assert [x["file"] for x in man["runs"]][:2] == ["run-001-A.json", "run-002-B.json"]
assert all(x["exit_code"] == 0 and x["start"].endswith("Z") for x in man["runs"])
assert man["order"] == "alternate" and man["stopped_by"] == "runs"
assert man["a"] == "rate_iops=1000" and man["common_args"] == ["--name=x"]
assert sorted(os.listdir(sys.argv[2])) == ["manifest.json", "report.html"] + ["run-%03d-%s.json" % (i + 1, "AB"[i % 2]) for i in range(6)]
' "$T/json" "$T/fixed"; then pass ab_fixed_runs; else fail ab_fixed_runs "rc $rc: $(cat "$T/err") $(head -c 300 "$T/json")"; fi
if grep -q '^ab: run 6 of 6: B' "$T/err" && grep -qE '^ab: 3 A \+ 3 B runs: total\.iops 95% CI \+1[0-9]\.[0-9]+\.\.\+[12][0-9]\.[0-9]+% \(half-width' "$T/err"
then pass ab_progress; else fail ab_progress "$(cat "$T/err")"; fi

# random order: every pair has one A and one B; the seed reproduces it
ab --allow-same --runs 6 --order=random --seed=7 --a rate_iops=1000 --b rate_iops=1000 --dir "$T/r1" --name=x >/dev/null 2>&1
ab --allow-same --runs 6 --order=random --seed=7 --a rate_iops=1000 --b rate_iops=1000 --dir "$T/r2" --name=x >"$T/out" 2>&1
if pyjson '
import json, sys
s = ["".join(x["side"] for x in json.load(open(p + "/manifest.json"))["runs"]) for p in sys.argv[1:3]]
assert s[0] == s[1], s
assert all(sorted(s[0][i:i + 2]) == ["A", "B"] for i in range(0, 12, 2)), s
assert s[0] != "AB" * 6, s   # seed 7 starts some pair with B
assert json.load(open(sys.argv[1] + "/manifest.json"))["seed"] == 7
' "$T/r1" "$T/r2"; then pass ab_random_order; else fail ab_random_order "$(cat "$T/out")"; fi
if grep -qE '^total\.iops .* negligible' "$T/out"
then pass ab_same_config; else fail ab_same_config "$(cat "$T/out")"; fi

# the default order is random, its seed drawn and recorded
ab --runs 4 --allow-same --a rate_iops=1000 --b rate_iops=1000 --dir "$T/def" --name=x >/dev/null 2>"$T/err"
if pyjson '
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
assert m["order"] == "random" and isinstance(m["seed"], int), m
' "$T/def" && grep -q '^ab: random order, seed [0-9]' "$T/err"
then pass ab_default_random; else fail ab_default_random "$(cat "$T/err")"; fi

# --until-ci never stops before 5 pairs, however wide the target
ab --until-ci=50 --runs=2 --a rate_iops=1000 --b rate_iops=1180 --dir "$T/min" --name=x >"$T/out" 2>"$T/err"
if grep -q '^ab: stopped by ci after 5 runs of each side' "$T/err"
then pass ab_until_ci_min_pairs; else fail ab_until_ci_min_pairs "$(cat "$T/err")"; fi

# adaptive: the CI gets under 1% quickly; a target of 0.001% runs into the budget
ab --until-ci=1 --metric=read.iops --a rate_iops=1000 --b rate_iops=1180 --dir "$T/ci" --name=x >"$T/out" 2>"$T/err"
if grep -qE '^ab: stopped by ci after [0-9]+ runs of each side' "$T/err" &&
   grep -qE 'stopped by ci' "$T/out" && grep -q 'run 1 of at most 60' "$T/err"
then pass ab_until_ci; else fail ab_until_ci "$(cat "$T/err")"; fi
# compare of the trial directory: its own sides, and the change under trial
# (rate_iops) listed as a difference, not warned about as [job_differs] (A ran
# first or second: the order is random); the
# same for the trial's files given one by one
"$IOTRIAL" compare "$T/ci" >"$T/cmp" 2>"$T/cmp.err"
rc=$?
"$IOTRIAL" compare "$T"/ci/run-*-A.json -- "$T"/ci/run-*-B.json >"$T/cmp2" 2>&1
if [ $rc -eq 0 ] && grep -q '^A: [0-9]* runs .*run-00[12]-A.json' "$T/cmp" &&
   grep -q 'job.rate_iops .*A "1000", B "1180"' "$T/cmp" && ! grep -q 'job_differs' "$T/cmp" &&
   grep -q 'job.rate_iops' "$T/cmp2" && ! grep -q 'job_differs' "$T/cmp2"
then pass compare_trial_dir; else fail compare_trial_dir "rc $rc: $(cat "$T/cmp.err") $(grep -i differ "$T/cmp" "$T/cmp2")"; fi
ab --until-ci=0.001 --max-runs=6 --a rate_iops=1000 --b rate_iops=1180 --dir "$T/mr" --name=x >"$T/out" 2>"$T/err"
if grep -q '^ab: stopped by max-runs after 6 runs of each side' "$T/err"
then pass ab_max_runs; else fail ab_max_runs "$(cat "$T/err")"; fi
ab --until-ci=0.001 --max-time=1 --a rate_iops=1000,fake_sleep=0.2 --b rate_iops=1180,fake_sleep=0.2 \
	--dir "$T/mt" --name=x >"$T/out" 2>"$T/err"
if grep -q '^ab: stopped by max-time' "$T/err" &&
   [ "$(grep -c '^ab: run ' "$T/err")" -le 6 ]
then pass ab_max_time; else fail ab_max_time "$(cat "$T/err")"; fi

# pause between runs: 5 pauses of 0.2 s between 6 runs
start=$(date +%s%N)
ab --runs 3 --pause=200ms --a rate_iops=1000 --b rate_iops=1180 --dir "$T/p" --name=x >/dev/null 2>&1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$ms" -ge 1000 ]; then pass ab_pause; else fail ab_pause "took $ms ms"; fi

# a failing run stops the trial with its exit code and log line (the runner
# passes the sides' --parse-only check, then fails the run)
printf '#!/bin/sh\ncase "$*" in *--parse-only*) exit 0 ;; esac\nexit 1\n' >"$T/failing"
chmod +x "$T/failing"
"$IOTRIAL" ab --runner="$T/failing" --a rate_iops=1 --b rate_iops=2 --dir "$T/f" --name=x >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && tail -n 1 "$T/err" | grep -qE '^iotrial: error: ab: run 1 \([AB]\) exited with 1: .*run-001-[AB]\.log'
then pass ab_run_fails; else fail ab_run_fails "rc $rc: $(cat "$T/err")"; fi
if pyjson 'import json, sys; m = json.load(open(sys.argv[1])); assert m["stopped_by"] == "error" and m["runs"][0]["exit_code"] == 1' "$T/f/manifest.json"
then pass ab_failure_recorded; else fail ab_failure_recorded "$(cat "$T/f/manifest.json")"; fi
expect_exit ab_dir_reused 2 'already holds a trial' \
	"$IOTRIAL" ab --runner="$T/fake" --a rate_iops=1 --b rate_iops=2 --dir "$T/fixed" --name=x

# two job files as the sides, no common options: runs, and job differences
# between the files are what is under test (no job_differs warning)
printf '[j]\nrate_iops=1000\n' >"$T/a.fio"
printf '[j]\nrate_iops=1180\n' >"$T/b.fio"
cat >"$T/fakefile" <<'SH'
#!/bin/sh
# a runner that reads rate_iops from the job file it is given
for a in "$@"; do case $a in *.fio) r=$(sed -n 's/^rate_iops=//p' "$a") ;; esac; done
exec "$(dirname "$0")/fake" "--rate_iops=$r" "$@"
SH
chmod +x "$T/fakefile"
"$IOTRIAL" ab --runner="$T/fakefile" --runs 2 --a "$T/a.fio" --b "$T/b.fio" --dir "$T/jf" \
	--output-format=json >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["metrics"]}["read.iops"]
assert 17 < r["diff_pct"] < 19, r
assert "job_differs" not in [w["id"] for w in d["warnings"]], d["warnings"]
' "$T/json"; then pass ab_job_files; else fail ab_job_files "rc $rc: $(cat "$T/err")"; fi
expect_exit ab_one_job_file 2 'or a job file for each of --a and --b' \
	"$IOTRIAL" ab --runner="$T/fake" --a "$T/a.fio" --b rate_iops=2
