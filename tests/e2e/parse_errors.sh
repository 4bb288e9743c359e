#!/bin/sh
# Every bad input exits 2 with exactly one stderr line naming the culprit
# (and file:line for job files), through --parse-only.
# check-fast: parse-level (--parse-only, --cmdhelp, --showcmd, usage errors)
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data/jobs" && pwd)
P="$IOTRIAL --parse-only"
N="--name=x --ioengine=null"

expect_exit unknown_option 2 "^iotrial: error: unknown option 'xyz' \(command line\)$" $P $N --xyz=1
printf '[global]\nsize=1m\nioengine=null\n[alpha]\nrw=read\n[beta]\nrw=write\n' >"$T/sections.fio"
expect_exit misspelt_section 2 "no job section matches --section=alpah \(did you mean alpha\?\)$" \
	$P --section=alpah "$T/sections.fio"
expect_exit unknown_section 2 "no job section matches --section=zzzzzz$" $P --section=zzzzzz "$T/sections.fio"
expect_exit misspelt_option 2 "unknown option 'iodpeth' \(did you mean 'iodepth'\?\)" $P $N --iodpeth=4
expect_exit unsupported_option 2 "^iotrial: error: unsupported option 'lockmem' \(command line\)$" $P $N --lockmem=1g
expect_exit unknown_engine 2 "^iotrial: error: unknown engine 'foo' \(command line\)$" $P --name=x --ioengine=foo
expect_exit unsupported_engine 2 "^iotrial: error: unsupported engine 'rados' \(command line\)$" $P --name=x --ioengine=rados
expect_exit bad_size 2 "invalid value '10X' for option 'size'" $P $N --size=10X
expect_exit fractional_size 2 "invalid value '1.5g' for option 'size': fractional" $P $N --size=1.5g
expect_exit bad_time 2 "invalid value '10x' for option 'runtime'" $P $N --runtime=10x
expect_exit time_with_size_unit 2 "invalid value '1k' for option 'runtime'" $P $N --runtime=1k
expect_exit range_reversed 2 "invalid value '64k-4k' for option 'bsrange': range is reversed" $P $N --bsrange=64k-4k
expect_exit out_of_range 2 "invalid value '101' for option 'rwmixread': above the maximum 100" $P $N --rwmixread=101
expect_exit iodepth_too_big 2 "option 'iodepth': above the maximum 65536" $P $N --iodepth=100000
expect_exit zero_bs 2 "invalid value '0' for option 'bs': below the minimum 1" $P $N --bs=0
expect_exit negative_bs 2 "invalid value '-4k' for option 'bs': negative" $P $N --bs=-4k
expect_exit zero_numjobs 2 "option 'numjobs': below the minimum 1" $P $N --numjobs=0
expect_exit overflow 2 "invalid value '99999999999999999999' for option 'size': number too large" $P $N --size=99999999999999999999
expect_exit overflow_unit 2 "invalid value '16777216t' for option 'size': value too large" $P $N --size=16777216t
expect_exit bssplit_sum 2 "option 'bssplit': weights add up to 110%" $P $N --bssplit=4k/50:8k/60
expect_exit bare_boolean 2 "^iotrial: error: option 'direct' requires an argument \(command line\)$" $P $N --direct
expect_exit bad_boolean 2 "option 'direct': a boolean is 0 or 1" $P $N --direct=yes
expect_exit empty_value 2 "option 'size' requires an argument" $P $N --size=
expect_exit bad_rw 2 "invalid value 'readonly' for option 'rw'" $P $N --rw=readonly
expect_exit cross_field 2 "job 'x' \(command line\): rate and rate_iops are both set" $P $N --rate=1m --rate_iops=100
expect_exit terse_version_refused 2 "for option 'terse-version': fio writes 2, 3, 4 or 5" $P $N --terse-version=9
expect_exit no_job 2 "no job given" "$IOTRIAL" --bs=4k
expect_exit bad_format 2 "unknown output format 'xml'" $P $N --output-format=xml
expect_exit short_option 2 "unknown option '-q'" $P -q

# job files: the message carries file:line
expect_exit file_unterminated 2 "unterminated section header '\[broken' \(.*unterminated.fio:3\)$" $P "$D/unterminated.fio"
expect_exit file_outside 2 "option 'bs' outside a section \(.*outside.fio:1\)$" $P "$D/outside.fio"
expect_exit file_missing_include 2 "included file '.*no-such-file.fio' not found \(.*include-missing.fio:3\)$" $P "$D/include-missing.fio"
expect_exit file_include_loop 2 "include loop: .*include-loop-a.fio' is already being read \(.*include-loop-b.fio:2\)$" $P "$D/include-loop-a.fio"
expect_exit file_missing 2 "^iotrial: error: job file '$T/nothere.fio' not found$" $P "$T/nothere.fio"
expect_exit file_empty 2 "job file '.*empty.fio' defines no job$" $P "$D/empty.fio"
expect_exit file_globals_only 2 "globals-only.fio' defines no job$" $P "$D/globals-only.fio"
expect_exit file_binary 2 "binary data \(a NUL byte\) in job file \(.*binary.fio:4\)$" $P "$D/binary.fio"
expect_exit file_bad_utf8 2 "invalid UTF-8 byte 0xff\) in job file \(.*badutf8.fio:3\)$" $P "$D/badutf8.fio"
expect_exit file_bare_boolean 2 "option 'direct' requires an argument \(.*bare-bool.fio:3\)$" $P "$D/bare-bool.fio"
expect_exit file_unsupported 2 "unsupported option 'replay_redirect'.*\(.*unsupported.fio:3\)$" $P "$D/unsupported.fio"
expect_exit file_unknown 2 "unknown option 'xyz' \(.*unknown.fio:3\)$" $P "$D/unknown.fio"
expect_exit file_is_directory 2 "cannot read job file '$D'" $P "$D"
printf '[x]\nioengine=null\nbs=0\n' >"$T/zero.fio"
expect_exit file_zero_bs 2 "invalid value '0' for option 'bs': below the minimum 1 \(.*zero.fio:3\)$" $P "$T/zero.fio"
printf '[x]\nioengine=null\nbs=4k\n[y]\nruntime=5parsecs\n' >"$T/time.fio"
expect_exit file_bad_time 2 "option 'runtime'.*\(.*time.fio:5\)$" $P "$T/time.fio"

# the engines that move no data (engine_nodata.sh runs them): their options and needs
expect_exit cpuio_no_load 2 "job 'x' \(command line\): ioengine cpuio needs cpuload=" $P --name=x --ioengine=cpuio --runtime=1
expect_exit cpuio_no_end 2 "ioengine cpuio never ends by itself: set runtime= or exit_on_io_done=1" $P --name=x --ioengine=cpuio --cpuload=50
expect_exit cpuload_range 2 "invalid value '101' for option 'cpuload': above the maximum 100" $P --name=x --ioengine=cpuio --cpuload=101 --runtime=1
expect_exit cpumode_bad 2 "invalid value 'fast' for option 'cpumode': not one of noop, qsort" $P --name=x --ioengine=cpuio --cpuload=5 --runtime=1 --cpumode=fast
expect_exit exec_no_program 2 "ioengine exec needs program=" $P --name=x --ioengine=exec --runtime=1
expect_exit exec_no_runtime 2 "ioengine exec runs its program for the job's runtime: set runtime=" $P --name=x --ioengine=exec --program=true
expect_exit grace_time_bad 2 "invalid value '1x' for option 'grace_time'" $P --name=x --ioengine=exec --program=true --runtime=1 --grace_time=1x
expect_exit stat_type_bad 2 "invalid value 'fstat' for option 'stat_type': not one of stat, lstat, statx" $P --name=x --ioengine=filestat --stat_type=fstat
expect_exit cpuload_other_engine 2 "option 'cpuload' belongs to ioengine cpuio, not psync" $P --name=x --ioengine=psync --cpuload=50
expect_exit ftruncate_reads 2 "ioengine ftruncate does only writes" $P --name=x --ioengine=ftruncate --rw=randrw
expect_exit e4defrag_no_donor 2 "ioengine e4defrag needs donorname=" $P --name=x --ioengine=e4defrag --rw=write
expect_exit inplace_range 2 "invalid value '2' for option 'inplace': above the maximum 1" $P --name=x --ioengine=e4defrag --donorname=d --inplace=2
expect_exit fallocate_bad 2 "invalid value 'maybe' for option 'fallocate': not one of native, posix, keep, none, truncate, 0, 1" $P $N --fallocate=maybe
printf '[global]\nioengine=cpuio\nruntime=1\n[burn]\ncpuload=50\n[idle]\n' >"$T/cpuio.fio"
expect_exit file_cpuio_no_load 2 "job 'idle' \(.*cpuio.fio:6\): ioengine cpuio needs cpuload=" $P "$T/cpuio.fio"
