#!/bin/sh
# Silent misreads refused at parse time (docs/usage.md, "5. Comparing results" and "10. Limits"): compare's
# numeric options take plain decimals only; a --section list of any length
# is kept whole; offsets whose last clone wraps past 2^64 or reach 2^63, and
# a size below the block size, are refused by --parse-only before any file
# exists; a result file with two JSON documents or trailing garbage is
# refused; a CR/LF from ${VAR} stays inside the one error line.
# check-fast: parse-level (--parse-only, --cmdhelp, --showcmd, usage errors)
. "$(dirname "$0")/lib.sh"

A=tests/data/results/uring_a
B=tests/data/results/uring_b
for bad in --bootstrap-seed=-1 --bootstrap-seed=0x10 --bootstrap-seed=18446744073709551616 \
	--noise=0x10 --noise=inf --noise=nan --alpha=0x0.1p0 --cv-limit=1e; do
	expect_exit "compare_${bad%%=*}_${bad#*=}" 2 "^iotrial: error: ${bad%%=*}=" \
		"$IOTRIAL" compare "$bad" "$A" -- "$B"
done
"$IOTRIAL" compare --bootstrap-seed=42 --noise=2.5% --alpha=.01 "$A" -- "$B" >/dev/null 2>"$T/err"
check compare_plain_decimals_accepted [ $? -eq 0 ]

# --section: a list over 1023 bytes is not cut (the last name still matches)
long=$(python3 -c "print(','.join('s%04d' % i for i in range(300)))")
printf '[s0299]\nrw=read\nsize=64k\nioengine=null\n' >"$T/j.fio"
"$IOTRIAL" --parse-only --section="$long" "$T/j.fio" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ]; then pass section_long_list; else fail section_long_list "exit $rc: $(head -c 300 "$T/err")"; fi

cd "$T" || exit 1
expect_exit offset_increment_wraps 2 "overflows 64 bits" "$IOTRIAL" --parse-only --name=x \
	--rw=read --size=4k --offset=1 --offset_increment=4611686018427387904 --numjobs=5 --filename=f
expect_exit offset_2_63 2 "at or above 2\\^63" "$IOTRIAL" --parse-only --name=x --rw=read \
	--size=4k --offset=9223372036854775808 --filename=f
expect_exit offset_plus_size_2_63 2 "reaches past 2\\^63" "$IOTRIAL" --parse-only --name=x \
	--rw=read --size=8k --offset=9223372036854771712 --filename=f
expect_exit size_below_bs_parse_only 2 "size 2048 is smaller than bs=4096" "$IOTRIAL" \
	--parse-only --name=x --rw=write --size=2k --bs=4k --filename=f
expect_exit size_below_bs_run 2 "size 2048 is smaller than bs=4096" "$IOTRIAL" \
	--name=x --rw=write --size=2k --bs=4k --filename=f
if [ -e f ]; then fail size_below_bs_no_file "the run created f"; else pass size_below_bs_no_file; fi

# result files: several documents (fio --status-interval) or garbage after one
R=$OLDPWD/tests/data/results/iotrial_a.json
cat "$R" "$R" >two.json
expect_exit result_two_documents 2 "two.json: holds more than one JSON document" \
	"$IOTRIAL" check two.json
python3 -c "import sys; open('garbage.json','w').write(open(sys.argv[1]).read().rstrip() + ' garbage\n')" "$R"
expect_exit result_trailing_garbage 2 "garbage.json: unexpected data after" \
	"$IOTRIAL" check garbage.json

# a ${VAR} holding CR and LF: still one line, the bytes shown escaped
printf '[x]\nrw=read\nfilename=f\nsize=${V}\n' >v.fio
V=$(printf '1\r\nb') expect_exit var_crlf_one_line 2 "'1\\\\r\\\\nb'" "$IOTRIAL" --parse-only v.fio

# memory caps: a result file past RESULTREAD_SIZE_MAX, more jobs or threads
# than JOBFILE_JOBS_MAX
expect_exit check_dev_zero 2 "/dev/zero: larger than 256 MiB" "$IOTRIAL" check /dev/zero
python3 -c "open('many.fio','w').write('[global]\nioengine=null\nsize=4k\n' + '[j]\n' * 3000000)"
expect_exit jobs_cap 2 "many.fio:4100: job 'j': more than 4096 jobs" "$IOTRIAL" --parse-only many.fio
rm -f many.fio
expect_exit threads_cap 2 "numjobs=5000 brings the threads to more than 4096" \
	"$IOTRIAL" --parse-only --name=x --ioengine=null --size=4k --numjobs=5000
"$IOTRIAL" --parse-only --name=x --ioengine=null --size=4k --numjobs=4096 >/dev/null 2>&1
check threads_at_cap_accepted [ $? -eq 0 ]
