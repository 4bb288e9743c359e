#!/bin/sh
# Fuzz driver behind `make fuzz` / `make fuzz-smoke` (docs/fuzzing.md).
#   run.sh probe CC                      exit 0 when CC builds libFuzzer
#                                        programs, else print SKIP and exit 1
#   run.sh run CC BUILD SECONDS NAME...  fuzz each harness BUILD/fuzz_NAME for
#                                        SECONDS over BUILD/corpus/NAME (seeded
#                                        from tests/data); PASS/FAIL per harness
# A harness that finds a crash, leak, UB or timeout leaves the input in
# BUILD/crash-NAME-* and the run fails.
probe() {
	cc=$1
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "SKIP fuzz: $cc is not installed (apt-get install clang libfuzzer-14-dev)"
		return 1
	fi
	d=$(mktemp -d)
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$d/p.c"
	if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$d/p" "$d/p.c" >/dev/null 2>&1; then
		rm -rf "$d"
		echo "SKIP fuzz: $cc cannot link -fsanitize=fuzzer (libFuzzer missing: apt-get install libfuzzer-14-dev)"
		return 1
	fi
	rm -rf "$d"
	return 0
}

case "$1" in
probe)
	probe "$2"
	exit $?
	;;
run)
	probe "$2" >/dev/null 2>&1 || { probe "$2"; exit 0; }
	build=$3 secs=$4
	shift 4
	;;
*)
	echo "usage: $0 probe CC | run CC BUILD SECONDS NAME..." >&2
	exit 2
	;;
esac

here=$(dirname "$0")
rc=0
for name in "$@"; do
	bin=$build/fuzz_$name
	corpus=$build/corpus/$name
	log=$build/fuzz_$name.log
	if [ ! -x "$bin" ]; then
		echo "FAIL fuzz_$name: $bin was not built"
		rc=1
		continue
	fi
	sh "$here/seeds.sh" "$name" "$corpus" || { echo "FAIL fuzz_$name: cannot seed $corpus"; rc=1; continue; }
	# -timeout: an input slower than 10 s is a hang; -rss_limit_mb: a cap on memory
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$build/crash-$name-" "$corpus" >"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -aE '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	if [ "$status" -eq 0 ]; then
		echo "PASS fuzz_$name: ${runs:-?} executions in ${secs}s, cov ${cov:-?}, corpus $(ls "$corpus" | wc -l)"
	else
		echo "FAIL fuzz_$name: exit $status after ${runs:-?} executions; see $log and $build/crash-$name-*"
		grep -aE 'ERROR|SUMMARY|runtime error' "$log" | head -n 5 | sed 's/^/  /'
		rc=1
	fi
done
exit $rc
