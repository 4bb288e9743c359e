#!/bin/sh
# significant_figures=N: the normal output's IOPS, bandwidths, sizes and block
# sizes carry N significant digits (fio's default 4), so with 10 the byte
# counts are exact: fio's t/zbd/test-zbd-support passes 10 and reads the
# "io=" field of each WRITE:/READ: line as bytes.  The fields that do not
# depend on timing (the block sizes, the job's and the group's io=) are
# fio 3.33's; 0 and 11 are refused with one line, exit 2.
. "$(dirname "$0")/lib.sh"
F="$T/f"
base="--name=s --filename=$F --size=1200000 --bs=100000 --rw=write --ioengine=psync"

fields() {	# the timing-free fields of a run's text: bs line, job io, group io
	sed -n -e 's/.*rw=write, \(bs=.*\), ioengine.*/\1/p' \
		-e 's/^  write: .*(\([^/]*\)\/[0-9]*msec).*/job \1/p' \
		-e 's/^ *WRITE: .*\(io=[^,]*\),.*/group \1/p' "$1"
}

# shellcheck disable=SC2086
"$IOTRIAL" $base >"$T/i4" 2>&1
# shellcheck disable=SC2086
"$IOTRIAL" $base --significant_figures=10 >"$T/i10" 2>&1
fields "$T/i4" >"$T/i4.f"
fields "$T/i10" >"$T/i10.f"
if grep -qx 'group io=1172KiB (1200kB)' "$T/i4.f" && grep -qx 'job 1172KiB' "$T/i4.f"; then
	pass "default_four_figures"
else
	fail "default_four_figures" "$(tr '\n' ';' <"$T/i4.f")"
fi
if grep -qx 'group io=1200000B (1200000B)' "$T/i10.f" && grep -qx 'job 1200000B' "$T/i10.f" &&
	grep -q '(W) 100000B-100000B' "$T/i10.f"; then
	pass "ten_figures_exact_bytes"
else
	fail "ten_figures_exact_bytes" "$(tr '\n' ';' <"$T/i10.f")"
fi
if command -v fio >/dev/null 2>&1; then
	for n in 4 10; do
		rm -f "$F"
		# shellcheck disable=SC2086
		fio $base --significant_figures=$n >"$T/f$n" 2>&1
		fields "$T/f$n" >"$T/f$n.f"
		if [ -s "$T/f$n.f" ] && cmp -s "$T/f$n.f" "$T/i$n.f"; then
			pass "as_fio_$n"
		else
			fail "as_fio_$n" "fio: $(tr '\n' ';' <"$T/f$n.f") iotrial: $(tr '\n' ';' <"$T/i$n.f")"
		fi
	done
else
	skip "as_fio" "fio is not installed"
fi
# shellcheck disable=SC2086
expect_exit "refuses_0" 2 "significant_figures.*below the minimum 1" "$IOTRIAL" $base --significant_figures=0
# shellcheck disable=SC2086
expect_exit "refuses_11" 2 "significant_figures.*above the maximum 10" "$IOTRIAL" $base --significant_figures=11
lib_cleanup
