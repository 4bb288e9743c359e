#!/bin/sh
# The history's edges (docs/history.md), on fio-format results imported with
# known figures: a trend needs no --device when the runs measured one device
# (and names them when several); a drop from 37k to 20k IOPS at the fourth run,
# before the band forms (5 runs), is marked a jump by the stated 25% rule;
# rate limits are part of the job signature, so rated and unlimited runs
# are separate series; history list never cuts the workload mid-word;
# history compare's own usage and help; a database that is a directory is one
# clear line; a misspelt metric gets "did you mean".
# check-fast: imports of hand-made results and one 1 MiB null-engine run
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
unset IOTRIAL_HISTORY
DB="$T/h.db"
H="$IOTRIAL history --history=$DB"

res() {	# res FILE READ_IOPS TIMESTAMP_MS [EXTRA_JOB_OPTIONS] [DISK]
	ios=$(awk -v i="$2" 'BEGIN { printf "%d", i * 60 }')
	du=""
	[ -n "$5" ] && du=", \"disk_util\": [{\"name\": \"$5\", \"read_ios\": $ios, \"write_ios\": 0, \"util\": 90.0}]"
	cat >"$1" <<JSON
{"fio version": "fio-3.33", "timestamp": $(($3 / 1000)), "timestamp_ms": $3,
 "global options": {"ioengine": "libaio", "direct": "1"},
 "jobs": [{"jobname": "d", "job options": {"rw": "randread", "iodepth": "32", "numjobs": "4"$4},
 "read": {"iops": $2, "total_ios": $ios, "io_bytes": $((ios * 4096)), "runtime": 60000,
  "lat_ns": {"mean": 1000, "N": $ios}}, "write": {"iops": 0, "total_ios": 0}}]$du}
JSON
}
mkdir s r
t0=1700000000000
i=0
for v in 37100 36900 37050 20100; do
	i=$((i + 1)); res "s/$i.json" $v $((t0 + i * 60000))
done
# the same workload under a rate limit, later: its own series
res r/1.json 1000 $((t0 + 900000)) ', "rate_iops": "1000"'
res r/2.json 1000 $((t0 + 960000)) ', "rate_iops": "1000"'
$H import s r >imp.txt 2>&1 || fail history_edges_import "$(cat imp.txt)"

# trend without --device: one device in the database, so it is that one
$H trend read.iops --sig="$($H list --output-format=json | pyjson 'import json,sys
r=[x for x in json.load(sys.stdin)["runs"] if "rate" not in x["sig_text"]]; print(r[0]["sig"])')" \
	>trend.txt 2>trend.err
rc=$?
if [ $rc = 0 ] && [ "$(grep -cE '^[0-9]+ +20[0-9][0-9]-' trend.txt)" = 4 ]; then pass history_trend_one_device; else
	fail history_trend_one_device "rc $rc: $(cat trend.err trend.txt)"; fi
# run 4 (37k -> 20k) is a jump on the bad side; the band's rule is said
if grep -qE '^4 .*worse \(jump -46%\)' trend.txt && grep -q 'formed once 5 runs precede it' trend.txt &&
   grep -q '1 run(s) jumped on the bad side before the band formed' trend.txt &&
   ! grep -qE '^[123] +20.*jump' trend.txt
then pass history_trend_jump; else fail history_trend_jump "$(cat trend.txt)"; fi

# rate_iops is in the signature: the rated runs are not in the unlimited series
$H list --output-format=json >list.json
if pyjson 'import json; r=json.load(open("list.json"))["runs"]
sigs={x["id"]: x["sig"] for x in r}
assert len(set(sigs.values())) == 2, sigs
rated=[x for x in r if x["sig_text"].endswith(" rate_iops=1000")]
assert len(rated) == 2, [x["sig_text"] for x in r]'
then pass history_sig_rate; else fail history_sig_rate "$(head -c 600 list.json)"; fi
grep -q '1 other job signature' trend.txt && pass history_trend_rate_apart ||
	fail history_trend_rate_apart "$(cat trend.txt)"

# list: the workload whole, never cut inside a word
$H list >list.txt 2>&1
if grep -q ' randread 4k qd32 x4 libaio direct rate_iops=1000 ' list.txt &&
   grep -q ' randread 4k qd32 x4 libaio direct ' list.txt
then pass history_list_workload_whole; else fail history_list_workload_whole "$(cat list.txt)"; fi

# a second device: now --device is needed, and the message names the devices
res s/5.json 30000 $((t0 + 2000000)) "" nvme9n1
$H import s/5.json >/dev/null 2>&1
expect_exit history_trend_two_devices 2 "the runs measured 2 devices \(nvme9n1, unknown\): give --device=DEV" \
	$H trend read.iops
expect_exit history_trend_metric_hint 2 "unknown metric 'read.iosp' \(did you mean read.iops\?\)" \
	$H trend read.iosp --device=nvme9n1

# history compare: its own usage (no arguments) and help, not plain compare's
$H compare >cmp.out 2>cmp.err
rc=$?
if [ $rc = 2 ] && grep -q '^usage: iotrial history \[--history=FILE\] compare --baseline=SEL' cmp.err &&
   [ ! -s cmp.out ]; then pass history_compare_usage; else
	fail history_compare_usage "rc $rc: $(cat cmp.err cmp.out)"; fi
$H compare --help >cmp.out 2>cmp.err
rc=$?
if [ $rc = 0 ] && grep -q '^usage: iotrial history \[--history=FILE\] compare' cmp.out &&
   grep -q 'last:N' cmp.out && ! grep -q 'Compare result files' cmp.out; then
	pass history_compare_help; else fail history_compare_help "rc $rc: $(cat cmp.out cmp.err)"; fi

# a directory as the database: one line naming the cause, on reading and on storing
mkdir dbdir
expect_exit history_db_is_dir 2 "history database .*/dbdir is a directory, not a file: give --history=FILE" \
	"$IOTRIAL" history --history="$T/dbdir" list
"$IOTRIAL" --name=x --ioengine=null --size=1m --rw=read --history="$T/dbdir" \
	--output-format=terse >/dev/null 2>store.err
rc=$?
if [ $rc = 0 ] && [ "$(wc -l <store.err)" = 1 ] && grep -q 'is a directory, not a file' store.err &&
   ! grep -q 'I/O error' store.err; then pass history_db_is_dir_store; else
	fail history_db_is_dir_store "rc $rc: $(cat store.err)"; fi

# a description (device.queue_depth: compare's metric kinds) has no good side:
# a run whose queue depth quadrupled is "higher" than its band, never worse or
# better, and is not counted on a bad side; the JSON says its kind
mkdir qd
i=0
for qd in 4 4.1 3.9 4 4.05 4 16; do
	i=$((i + 1))
	res "qd/$i.json" 30000 $((t0 + 2000000 + i * 60000)) ', "bs": "8k"' vdq
	python3 - "qd/$i.json" "$qd" <<'PY'
import json, sys
p, qd = sys.argv[1], float(sys.argv[2])
d = json.load(open(p))
d["disk_util"][0]["iotrial"] = {"read_lat_ns_mean": 100000, "write_lat_ns_mean": 0,
    "read_queue_depth": qd, "write_queue_depth": 0, "queue_depth": qd, "util": 90.0}
json.dump(d, open(p, "w"))
PY
done
DBQ="$T/qd.db"
"$IOTRIAL" history --history="$DBQ" import qd >qdimp.txt 2>&1
"$IOTRIAL" history --history="$DBQ" trend device.queue_depth >qd.txt 2>&1
"$IOTRIAL" history --history="$DBQ" trend device.queue_depth --output-format=json >qd.json 2>>qd.txt
if grep -q '^trend of device.queue_depth (describes the runs' qd.txt &&
   grep -Eq '^7 .* 16 .*higher' qd.txt && ! grep -v '^trend of' qd.txt | grep -Eq 'worse|better|bad side' &&
   python3 -c "import json, sys; d = json.load(open('qd.json'))
sys.exit(not (d['kind'] == 'description' and d['lower_is_better'] is None and
              [p['outside'] for p in d['points']][-1] == 'higher'))"; then
	pass history_trend_description
else
	fail history_trend_description "$(cat qdimp.txt qd.txt)"
fi
