#!/bin/sh
# The results history at scale (docs/history.md, "Scale"): fills a database
# with RUNS stored runs (default 100000) over DEVICES devices (10) and four
# workloads each, spread over a year, then times what a user asks of one
# device: `history list` (the newest 50, and all of the device's runs) and
# `history trend` (one workload's series, text, JSON and HTML).  Prints the
# fill rate, the file's size and each query's best and median of REPEAT (5)
# wall-clock times.  The goal: under a second each.
#
# The runs are made from one real iotrial result (a 1 s psync run on a
# file, so it carries an environment and a device): each copy gets its own
# device serial and name, block size, start time and IOPS, and is stored with
# `iotrial history import` in chunks of CHUNK (10000) files.
#   bench/history_scale.sh
#   RUNS=20000 bench/history_scale.sh
#   KEEP=/tmp/h.db bench/history_scale.sh     # keep (and reuse) the database
set -u
IOTRIAL=$(realpath "${IOTRIAL:-$(dirname "$0")/../build/iotrial}")
RUNS=${RUNS:-100000}
DEVICES=${DEVICES:-10}
CHUNK=${CHUNK:-10000}
REPEAT=${REPEAT:-5}
W=$(mktemp -d "${TMPDIR:-/tmp}/history_scale.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
DB=${KEEP:-$W/h.db}

now() { date +%s.%N; }

# time_it LABEL CMD...: REPEAT runs, best and median wall time
time_it() {
	label=$1
	shift
	: >"$W/times"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		t0=$(now)
		"$@" >"$W/out" 2>"$W/err" || { echo "  $label: failed: $(head -c 300 "$W/err")"; return; }
		t1=$(now)
		echo "$t1 - $t0" | bc -l >>"$W/times"
		i=$((i + 1))
	done
	sort -n "$W/times" | awk -v l="$label" -v b="$(wc -c <"$W/out")" '
		{ t[NR] = $1 } END { printf "  %-44s best %6.3f s  median %6.3f s  (%d bytes out)\n",
			l, t[1], t[int((NR + 1) / 2)], b }'
}

if [ ! -s "$DB" ]; then
	"$IOTRIAL" --name=seed --ioengine=psync --filename="$W/target" --size=1m --rw=randread --bs=4k \
		--time_based --runtime=1 --output-format=json --output="$W/seed.json" 2>/dev/null ||
		{ echo "the seed run failed"; exit 1; }
	echo "filling $DB with $RUNS runs ($DEVICES devices x 4 workloads, one year), seed $(wc -c <"$W/seed.json") bytes"
	t0=$(now)
	done_runs=0
	while [ "$done_runs" -lt "$RUNS" ]; do
		n=$((RUNS - done_runs))
		[ "$n" -gt "$CHUNK" ] && n=$CHUNK
		rm -rf "$W/chunk"
		python3 - "$W/seed.json" "$W/chunk" "$done_runs" "$n" "$DEVICES" "$RUNS" <<'EOF'
import json, os, random, sys
seed, out, first, n, devices, total = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
os.makedirs(out)
doc = json.load(open(seed))
t0 = doc["timestamp_ms"] - 365 * 86400 * 1000
span = 365 * 86400 * 1000
bss = ["4k", "8k", "64k", "1m"]
job = doc["jobs"][0]
dev = doc["iotrial"]["environment"]["targets"][0]["device"]
base_iops = job["read"]["iops"]
rnd = random.Random(first)
for i in range(first, first + n):
    d = i % devices
    dev["serial"] = "BENCH%04d" % d
    dev["name"] = "bench%d" % d
    job["job options"]["bs"] = bss[(i // devices) % 4]
    doc["timestamp_ms"] = t0 + span * i // total
    doc["timestamp"] = doc["timestamp_ms"] // 1000
    job["read"]["iops"] = base_iops * rnd.uniform(0.9, 1.1)
    with open(os.path.join(out, "r%06d.json" % i), "w") as f:
        json.dump(doc, f)
EOF
		"$IOTRIAL" history --history="$DB" import "$W/chunk" >/dev/null 2>"$W/err" ||
			{ echo "import failed: $(cat "$W/err")"; exit 1; }
		done_runs=$((done_runs + n))
		t1=$(now)
		printf "  %6d runs stored, %.0f runs/s\n" "$done_runs" "$(echo "$done_runs / ($t1 - $t0)" | bc -l)"
	done
	rm -rf "$W/chunk"
fi
echo "database: $(du -h "$DB" | cut -f1) ($(ls -l "$DB" | awk '{print $5}') bytes), $("$IOTRIAL" history --history="$DB" list --limit=1 --output-format=json | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])') runs"
DEV=bench3
H="$IOTRIAL history --history=$DB"
echo "one device ($DEV: $((RUNS / DEVICES)) runs, 4 workloads):"
# shellcheck disable=SC2086
time_it "list --device (newest 50)" $H list --device=$DEV
# shellcheck disable=SC2086
time_it "list --device --limit=0 (all its runs)" $H list --device=$DEV --limit=0
# shellcheck disable=SC2086
time_it "list --device --limit=0 --output-format=json" $H list --device=$DEV --limit=0 --output-format=json
# shellcheck disable=SC2086
time_it "trend total.iops --device (one workload)" $H trend total.iops --device=$DEV
# shellcheck disable=SC2086
time_it "trend total.iops --device --output-format=json" $H trend total.iops --device=$DEV --output-format=json
# shellcheck disable=SC2086
time_it "trend total.iops --device --output-format=html" $H trend total.iops --device=$DEV --output-format=html
# shellcheck disable=SC2086
time_it "trend read.lat_p99_ns --device --since=30d" $H trend read.lat_p99_ns --device=$DEV --since=30d
# shellcheck disable=SC2086
time_it "list (all devices, newest 50)" $H list
