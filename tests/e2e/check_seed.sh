# iotrial check on the seed's results (mix, Little's law, buffered I/O, with
# their numbers), on real fio outputs, in text and JSON.
# check-fast: iotrial check on stored results
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/../data/results

for f in seed_virtio:62.8 seed_passthrough:63.4; do
	name=${f%%:*} inflight=${f#*:}
	"$IOTRIAL" check "$D/$name.json" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -E "^  warning \[littles_law\] .*= $inflight I/Os in flight.*4 x 32 = 128" "$T/out" >/dev/null &&
	   grep -E '^  warning \[mix\] read share 78\.0% .*50% reads' "$T/out" >/dev/null &&
	   grep -E '^  warning \[page_cache\] direct=0' "$T/out" >/dev/null &&
	   grep -E "^  warning \[depth_ignored\] job 'randrw': iodepth=32 has no effect: ioengine=psync" "$T/out" >/dev/null
	then pass "check_$name"; else fail "check_$name" "rc $rc: $(cat "$T/out" "$T/err")"; fi
done

# the head line counts warnings and infos apart: an info is not "one of 5 warnings"
"$IOTRIAL" check "$D/seed_virtio.json" >"$T/out" 2>&1
if head -1 "$T/out" | grep -q ': 4 warnings, 1 info$' && [ "$(grep -c '^  warning ' "$T/out")" = 4 ] &&
   [ "$(grep -c '^  info ' "$T/out")" = 1 ]; then pass check_counts_info_apart; else
	fail check_counts_info_apart "$(head -1 "$T/out")"; fi

"$IOTRIAL" check --output-format=json "$D/seed_virtio.json" "$D/uring_a" >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert len(r) == 6, len(r)
ids = [w["id"] for w in r[0]["warnings"]]
assert ids[:4] == ["depth_ignored", "littles_law", "mix", "page_cache"], ids
assert all(w["severity"] in ("warning", "info") and w["message"] for w in r[0]["warnings"])
assert "short_run" in [w["id"] for w in r[1]["warnings"]]
' "$T/json"; then pass check_json; else fail check_json "rc $rc: $(head -c 300 "$T/json") $(cat "$T/err")"; fi

if [ -f "${FIOREF:-}/uring.json" ]; then
	"$IOTRIAL" check "$FIOREF"/*.json >"$T/out" 2>"$T/err"
	rc=$?
	# uring.json: io_uring QD16, randrw 70/30 honoured (fio run by tests/fioref.sh)
	if [ $rc -eq 0 ] && [ "$(grep -c '(fio-3\.[0-9]*, 1 job)' "$T/out")" -eq 5 ] &&
	   ! sed -n '/uring.json/,/^\//p' "$T/out" | grep -E 'littles_law|\[mix\]' >/dev/null
	then pass check_fio_samples; else fail check_fio_samples "rc $rc: $(cat "$T/out" "$T/err")"; fi
else
	skip check_fio_samples "no fio reference outputs in ${FIOREF:-\$FIOREF} (fio not installed)"
fi

expect_exit check_bad_file 2 'bad/truncated\.json: invalid or truncated JSON' \
	"$IOTRIAL" check "$D/seed_virtio.json" "$D/bad/truncated.json"
expect_exit check_no_files 2 'check: give one or more result files' "$IOTRIAL" check
