# clocksource= reaches the run's clock through the one enum clock_mode: each
# value the job option takes gives the source the JSON records.
. "$(dirname "$0")/lib.sh"

src() {
	"$IOTRIAL" --name=c --ioengine=null --size=1M --rw=read --clocksource="$1" \
		--output-format=json 2>"$T/err" |
		pyjson 'import json,sys; print(json.load(sys.stdin)["iotrial"]["clock_source"])'
}

for m in clock_gettime gettimeofday; do
	got=$(src $m)
	if [ "$got" = clock_gettime ]; then pass "clocksource_$m"
	else fail "clocksource_$m" "clock_source '$got', wanted clock_gettime; $(head -c 200 "$T/err")"; fi
done
# cpu asks for the TSC: used when invariant, else refused with a message saying so
got=$(src cpu)
if [ "$got" = tsc ]; then
	pass clocksource_cpu
elif grep -q 'not invariant' "$T/err"; then
	skip clocksource_cpu "the TSC is not invariant here"
else
	fail clocksource_cpu "clock_source '$got'; $(head -c 200 "$T/err")"
fi
