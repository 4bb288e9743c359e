#!/bin/sh
# Memory and result size against run length (docs/performance.md, "Long
# runs"), not a timed test.
#
# Runs a rate-limited null-engine job (10k IOPS, 4 KiB random reads) with
# 10 ms series intervals for SHORT (3) and LONG (300) seconds, and prints the
# peak RSS (GNU time's "Maximum resident set size") and the size of the
# result: iotrial by default (series_max=512), iotrial with series_max=0 (every
# interval kept, as before), fio without logs, and fio with bw/iops/lat logs
# averaged over 10 ms (its time series).  The LONG runs go in parallel, nice'd:
# they mostly sleep (rate limit), so the machine is not loaded.  On a loaded
# machine a nice'd thread wakes late and closes fewer, longer intervals: the
# "intervals" column counts what was really recorded (NICE=0 to not nice).
#   bench/series_mem.sh                 # 3 s and 300 s
#   SHORT=3 LONG=30 bench/series_mem.sh
set -u
IOTRIAL=$(realpath "${IOTRIAL:-$(dirname "$0")/../build/iotrial}")
SHORT=${SHORT:-3}
LONG=${LONG:-300}
W=$(mktemp -d "${TMPDIR:-/tmp}/series_mem.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
JOB="--name=s --ioengine=null --rw=randread --bs=4k --size=1g --time_based --rate_iops=10k"

# run NAME SECONDS CMD...: in $W/NAME/, GNU time's report in $W/NAME.time
run() {
	name=$1 secs=$2; shift 2
	mkdir -p "$W/$name"
	(cd "$W/$name" && nice -n 19 /usr/bin/time -v -o "$W/$name.time" "$@" --runtime="$secs" \
		>/dev/null 2>"$W/$name.err")
}

cases() {
	secs=$1
	# shellcheck disable=SC2086
	run "iotrial-$secs" "$secs" "$IOTRIAL" $JOB --series_interval=10ms \
		--output-format=json --output=result.json &
	# shellcheck disable=SC2086
	run "iotrial-full-$secs" "$secs" "$IOTRIAL" $JOB --series_interval=10ms --series_max=0 \
		--output-format=json --output=result.json &
	if command -v fio >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		run "fio-$secs" "$secs" fio $JOB --output-format=json --output=result.json &
		# shellcheck disable=SC2086
		run "fio-logs-$secs" "$secs" fio $JOB --output-format=json --output=result.json \
			--write_bw_log=s --write_iops_log=s --write_lat_log=s --log_avg_msec=10 &
	fi
	wait
}

cases "$SHORT"
cases "$LONG"
printf '%-22s %6s %12s %10s %14s %12s\n' "run" "exit" "runtime (s)" "intervals" "peak RSS (MB)" \
	"result (MB)"
for f in "$W"/*.time; do
	name=$(basename "$f" .time)
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$f")
	rc=$(awk -F': ' '/Exit status/ {print $2}' "$f")
	bytes=$(cat "$W/$name"/* 2>/dev/null | wc -c)
	set -- $(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
iv = j.get("iotrial", {}).get("intervals")
print(j["job_runtime"] / 1000, sum(x.get("intervals", 1) for x in iv) if iv else "-")' \
		"$W/$name/result.json" 2>/dev/null || echo "? ?")
	printf '%-22s %6s %12s %10s %14.1f %12.2f\n' "$name" "$rc" "$1" "$2" \
		"$(echo "$rss / 1024" | bc -l)" "$(echo "$bytes / 1048576" | bc -l)"
	[ "$rc" = 0 ] || head -3 "$W/$name.err"
done
