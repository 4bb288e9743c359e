# SIGINT and SIGTERM end a run promptly and still write complete, valid JSON
# marked partial, to stdout and to --output; the exit code is 5.
. "$(dirname "$0")/lib.sh"

for sig in INT TERM; do
	"$IOTRIAL" --name=s --rw=randread --size=8m --runtime=60 --time_based --ioengine=psync \
		--directory="$T" --output-format=json --output="$T/out-$sig.json" 2>"$T/err" &
	pid=$!
	sleep 1.5
	t0=$(date +%s%N)
	kill -$sig $pid
	wait $pid
	rc=$?
	t1=$(date +%s%N)
	ms=$(( (t1 - t0) / 1000000 ))
	if [ $rc -ne 5 ]; then
		fail "sig${sig}_exit" "exit $rc, wanted 5; $(head -c 200 "$T/err")"
	elif [ $ms -gt 3000 ]; then
		fail "sig${sig}_prompt" "took ${ms} ms to stop"
	elif pyjson "
import json
d = json.load(open('$T/out-$sig.json'))
assert d['iotrial']['partial'] is True, d['iotrial']
j = d['jobs'][0]
assert j['read']['total_ios'] > 0
assert 500 <= j['job_runtime'] <= 5000, j['job_runtime']
"; then
		pass "sig${sig}_partial_json"
	else
		fail "sig${sig}_partial_json" "invalid or unmarked JSON"
	fi
done

# To stdout: the document is whole and nothing else is on stdout.
"$IOTRIAL" --name=s --rw=read --size=8m --runtime=60 --time_based --ioengine=null \
	--output-format=json >"$T/stdout.json" 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 5 ] && pyjson "import json; d=json.load(open('$T/stdout.json')); assert d['iotrial']['partial']"; then
	pass sigint_stdout_json
else
	fail sigint_stdout_json "exit $rc; $(head -c 200 "$T/stdout.json")"
fi
