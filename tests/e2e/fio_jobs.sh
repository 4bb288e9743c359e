#!/bin/sh
# Checks from fio's t/jobs (run-fio-tests.py), in seconds, fio as the control
# where installed: each case prints what both tools did.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
# kib TOOL ARGS...: read+write KiB and I/O count of the first job
kib() {
	tool=$1; shift
	if [ "$tool" = fio ]; then set -- timeout -s KILL 30 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	"$@" --output-format=json --output="$T/k.json" >/dev/null 2>&1 || { echo "exit"; return; }
	pyjson "
import json
j = json.load(open('$T/k.json'))['jobs'][0]
print(j['read']['io_kbytes'] + j['write']['io_kbytes'], j['read']['total_ios'] + j['write']['total_ios'])"
}
# both NAME WANT ARGS...: iotrial must give WANT, and so must fio where installed
both() {
	name=$1 want=$2; shift 2
	i=$(kib iotrial "$@")
	f=""
	[ "$HAVE_FIO" = 1 ] && f=$(kib fio "$@")
	if [ "$i" = "$want" ] && { [ "$HAVE_FIO" = 0 ] || [ "$f" = "$want" ]; }; then
		pass "$name ($i${f:+; fio $f})"
	else fail "$name" "iotrial '$i', fio '$f', wanted '$want'"; fi
}

# t0007: sequential holes; a block that does not fit before the end ends the pass
truncate -s 1m "$T/sf"
S="--name=x --filename=$T/sf --size=1m --bs=4k"
# shellcheck disable=SC2086
both holes_end_pass "584 146" $S --rw=read:3k
# shellcheck disable=SC2086
both holes_loops "1168 292" $S --rw=read:3k --loops=2
# shellcheck disable=SC2086
both holes_io_size_wraps "2048 512" $S --rw=read:3k --io_size=2m
# shellcheck disable=SC2086
both holes_exact_end "1024 256" $S --rw=read:4k
