#!/bin/sh
# filename_format (filename_format.h): the files iotrial creates are the ones
# fio 3.33 creates for the same jobs ($jobname, $jobnum, $filenum, $clientuid,
# a path whose directories are made), and two jobs with one format share files.
. "$(dirname "$0")/lib.sh"
made() {	# TOOL DIR ARGS...: the files the run leaves, sorted
	tool=$1 dir=$2; shift 2
	mkdir -p "$dir"
	if [ "$tool" = fio ]; then (cd "$dir" && timeout -s KILL 30 fio "$@" >/dev/null 2>&1)
	else (cd "$dir" && "$IOTRIAL" "$@" >/dev/null 2>&1); fi
	(cd "$dir" && find . -type f | sort | tr '\n' ' ')
}
n=0
for args in "--name=jn --size=8k --nrfiles=2 --numjobs=2 --rw=write --filename_format=f.\$clientuid.\$jobname.\$jobnum.\$filenum" \
	    "--name=d --size=4k --rw=write --filename_format=a/b/\$jobnum" \
	    "--name=w --size=8k --nrfiles=2 --rw=write --filename_format=shared.\$filenum --name=r --size=8k --nrfiles=2 --rw=read --filename_format=shared.\$filenum"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	i=$(made iotrial "$T/i$n" $args)
	if command -v fio >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		f=$(made fio "$T/f$n" $args)
	else
		f="(fio not installed)"
	fi
	case $n in 1) want="./f..jn.0.0 ./f..jn.0.1 ./f..jn.1.0 ./f..jn.1.1 " ;;
		   2) want="./a/b/0 " ;; 3) want="./shared.0 ./shared.1 " ;; esac
	if [ "$i" = "$want" ] && { [ "$f" = "$want" ] || ! command -v fio >/dev/null 2>&1; }; then
		pass "filename_format_$n ($i)"
	else
		fail "filename_format_$n" "iotrial '$i', fio '$f', want '$want'"
	fi
done
