#!/bin/sh
# The documentation says what the program does (docs/design.md, "Tests"):
#  - every command in README.md's and docs/usage.md's ```sh blocks runs and
#    exits as the doc says, shortened and moved off /data and real devices by
#    the doc's own <!-- docs-test: ... --> markers (tests/e2e/docs_check.py
#    has the marker syntax), in a scratch directory holding the result files
#    the examples read (made here: rate-limited null runs, whose IOPS a
#    loaded machine does not move, so `compare --fail-on-regression` has a
#    known answer);
#  - every option list marked in them (and in docs/numbers.md) is checked
#    against iotrial: an option named as missing is refused, one named as
#    supported is accepted;
#  - a refusal the README quotes is iotrial's message, word for word;
#  - README's exit-code table matches `iotrial --help`, and usage.md's job file
#    resolves as described (--showcmd).
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -f "$SRC/docs/usage.md" ] || [ ! -f "$SRC/README.md" ]; then
	skip docs "docs/usage.md or README.md not found under $SRC"
	exit 0
fi
IOTRIAL=$(cd "$(dirname "$IOTRIAL")" && pwd)/$(basename "$IOTRIAL")

# --- the result files the examples read ----------------------------------------
# The examples that gate on a regression (--fail-on-regression, exit 6) must
# have a known answer on any machine under any load: they compare stored runs
# with copies of themselves (new/ holds copies of base/, the history's v6.1 is
# runs 1-3, the same A runs), so the answer is "no regression" by construction.
# A live run against runs made a minute earlier could differ for real (the
# null engine's latency moves with the machine's load), and the tool would be
# right to say so.  The other examples read A and B runs made alternately.
W="$T/w"
# the history examples read and write a history of their own: the A runs
# (ids 1-3) are stored in it
export XDG_DATA_HOME="$W/xdg"
unset IOTRIAL_HISTORY
mkdir -p "$W/data" "$W/runsA" "$W/runsB" "$W/base" "$W/new"
R="--name=t --ioengine=null --rw=randread --bs=4k --size=64m --rate_iops=5000 --number_ios=1000"
ok=1
for i in 1 2 3; do
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --history --output-format=json --output="$W/runsA/$i.json" 2>>"$T/fixture.err" || ok=0
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --output-format=json --output="$W/runsB/$i.json" 2>>"$T/fixture.err" || ok=0
done
"$IOTRIAL" history label 1-3 v6.1 >/dev/null 2>>"$T/fixture.err" || ok=0	# compare's example reads it
cp "$W"/runsA/*.json "$W/base/" && cp "$W"/runsA/*.json "$W/new/" &&
	cp "$W/runsA/1.json" "$W/a.json" && cp "$W/runsB/1.json" "$W/b.json" &&
	cp "$W/runsA/1.json" "$W/result.json" || ok=0
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	(cd "$W" && fio $R --output-format=json+ --output=fio-plus.json >/dev/null 2>>"$T/fixture.err") || ok=0
else
	# shellcheck disable=SC2086
	"$IOTRIAL" $R --output-format=json+ --output="$W/fio-plus.json" 2>>"$T/fixture.err" || ok=0
fi
if [ $ok -ne 1 ]; then
	fail docs_fixtures "the result files for the examples: $(head -c 300 "$T/fixture.err")"
	exit 0
fi

# a device for the examples that name one (snia-iops on /dev/nvme1n1)
loop="" why=""
if own_loop 16; then loop=$OWN_LOOP; else why=$OWN_LOOP_WHY; fi

python3 "$SRC/tests/e2e/docs_check.py" "$IOTRIAL" "$W" "$loop" "$why" \
	"$SRC/README.md" "$SRC/docs/usage.md" "$SRC/docs/numbers.md" || fail docs_check "docs_check.py crashed"

# --- usage.md's job file resolves as it says ------------------------------------
(cd "$W" && SCRATCH="$W" "$IOTRIAL" --showcmd jobs.fio) >"$T/out" 2>"$T/err"
if [ "$(wc -l <"$T/out")" -eq 2 ] && grep -q -- "--name=writer .*--rate_iops=2048" "$T/out" &&
	grep -q -- "--name=reader .*--directory=$W" "$T/out"; then
	pass usage_showcmd
else
	fail usage_showcmd "$(cat "$T/out" "$T/err")"
fi

# --- README's exit-code table matches iotrial --help --------------------------
readme=$(sed -n 's/^| \([0-9][0-9]*\) | .*/\1/p' "$SRC/README.md" | tr '\n' ' ')
helpc=$("$IOTRIAL" --help | sed -n 's/^  \([0-9][0-9]*\)  .*/\1/p' | tr '\n' ' ')
if [ -n "$readme" ] && [ "$readme" = "$helpc" ]; then
	pass exit_codes_match
else
	fail exit_codes_match "README has '$readme', --help has '$helpc'"
fi
