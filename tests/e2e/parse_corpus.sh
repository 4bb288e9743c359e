#!/bin/sh
# The corpus of real fio invocations (tests/data/corpus/invocations.txt):
# each is parsed by fio 3.33 and by iotrial (--parse-only); at least 90% of
# those fio accepts must parse in iotrial, and what iotrial refuses must be
# refused by name (exit 2, one line naming the option, engine or value).  A
# fixed subset also runs for about a second each on a scratch file.
# Prints "corpus: A of F fio-accepted parse (...)" for the record.
. "$(dirname "$0")/lib.sh"
C=$(cd "$(dirname "$0")/../data/corpus" && pwd)
if ! command -v fio >/dev/null 2>&1 || ! fio --version 2>/dev/null | grep -q '^fio-3'; then
	skip corpus "fio 3 is not installed (the reference for what fio accepts)"
	exit 0
fi
mkdir -p "$T/dir"
CORPUS_FILE="$T/file" CORPUS_DIR="$T/dir"
export CORPUS_FILE CORPUS_DIR
truncate -s 64m "$CORPUS_FILE"

# expand LINE: the arguments with the placeholders filled in
expand() {
	printf '%s\n' "$1" | sed -e "s|\$FILE|$CORPUS_FILE|g" -e "s|\$DIR|$CORPUS_DIR|g" \
		-e "s|\$CORPUS|$C|g"
}

grep -v '^#' "$C/invocations.txt" | grep '|' >"$T/list"
# fio takes ~0.3 s to start, mostly waiting: its parses run 8 at a time
mkdir -p "$T/fio"
k=0
while IFS= read -r line; do
	k=$((k + 1))
	expand "${line#*|}" >"$T/fio/$k.args"
done <"$T/list"
ls "$T/fio" | sed 's/\.args$//' | xargs -P 16 -I{} sh -c \
	'cd "$1/dir" && timeout 20 fio --parse-only $(cat "$1/fio/$2.args") >"$1/fio/$2.out" 2>&1 </dev/null; echo $? >"$1/fio/$2.rc"' \
	sh "$T" {}

n=0 fio_ok=0 both_ok=0 ours_only=0 bad=0
while IFS= read -r line; do
	n=$((n + 1))
	src=${line%%|*}; src=$(echo $src)
	args=$(cat "$T/fio/$n.args")
	frc=$(cat "$T/fio/$n.rc")
	# shellcheck disable=SC2086
	(cd "$T/dir" && timeout 20 "$IOTRIAL" --parse-only $args) >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ] && { [ $rc -ne 2 ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
	     ! grep -qE "unsupported|ambiguous" "$T/err"; }; then
		bad=$((bad + 1))
		fail "corpus_$n" "$src: exit $rc, not a refusal by name: $(head -c 300 "$T/err")"
	fi
	if [ "$frc" -eq 0 ]; then
		fio_ok=$((fio_ok + 1))
		if [ $rc -eq 0 ]; then both_ok=$((both_ok + 1))
		else echo "  refused ($src): $(cat "$T/err")"; fi
	elif [ $rc -eq 0 ]; then
		ours_only=$((ours_only + 1))
		echo "  fio refuses, iotrial accepts ($src): $(head -c 200 "$T/fio/$n.out")"
	fi
done <"$T/list"
echo "corpus: $both_ok of $fio_ok fio-accepted invocations parse ($n in all; $ours_only accepted by iotrial only)"
[ "$n" -ge 60 ] && pass corpus_size || fail corpus_size "$n entries, at least 60 wanted"
if [ $fio_ok -gt 0 ] && [ $((both_ok * 100)) -ge $((fio_ok * 90)) ]; then
	pass "corpus_coverage ($both_ok/$fio_ok)"
else
	fail corpus_coverage "$both_ok of $fio_ok fio-accepted parse, 90% wanted"
fi
[ $bad -eq 0 ] && pass corpus_refusals_by_name

# A subset runs for real, about a second each, shrunk to the scratch file:
# sizes to 16m, runtime 1 s, ramp 0, numjobs at most 2, no --output; and
# buffered where the scratch filesystem has no O_DIRECT (tmpfs).
nodirect=""
dd if=/dev/zero of="$T/dio" bs=4096 count=1 oflag=direct 2>/dev/null || nodirect=1
for k in 2 20 44; do
	line=$(sed -n "${k}p" "$T/list")
	[ -n "$line" ] || continue
	src=${line%%|*}; src=$(echo $src)
	args=$(expand "${line#*|}" | sed -E -e 's/(-(size|filesize)[= ])[^ ]+/\116m/g' \
		-e 's/(-runtime[= ])[^ ]+/\11/g' -e 's/(-ramp_time[= ])[^ ]+/\10/g' \
		-e 's/(-numjobs[= ])[0-9]+/\12/g' -e 's/(-offset_increment[= ])[^ ]+/\14m/g' \
		-e 's/ --output=[^ ]+//' -e 's/ --minimal//')
	[ -n "$nodirect" ] && args=$(printf '%s\n' "$args" | sed -E 's/(-direct[= ])1/\10/g')
	case $args in *--runtime*|*-runtime*) ;; *) args="$args --runtime=1" ;; esac
	# shellcheck disable=SC2086
	(cd "$T/dir" && timeout 30 "$IOTRIAL" --output-format=json $args) >"$T/run.json" 2>"$T/err" </dev/null
	rc=$?
	if [ $rc -eq 2 ] && grep -q unsupported "$T/err"; then
		skip "corpus_run_$k" "$src: refused ($(cat "$T/err"))"
	elif [ $rc -ne 0 ]; then
		fail "corpus_run_$k" "$src: exit $rc: $(head -c 300 "$T/err")"
	elif pyjson "
import json
d = json.load(open('$T/run.json'))
assert d['jobs'] and sum(j['read']['io_bytes'] + j['write']['io_bytes'] for j in d['jobs']) > 0
" 2>"$T/py"; then
		pass "corpus_run_$k ($src)"
	else
		fail "corpus_run_$k" "$src: $(cat "$T/py")"
	fi
done
