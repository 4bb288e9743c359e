#!/bin/sh
# fio's own example job files ($SHARED/spec/fio-examples) as a parse corpus:
# each must parse (exit 0) or be refused with exit 2 and one stderr line that
# names an unsupported option, engine or value.  Never another exit code,
# never a crash or a hang.  Two passes: as shipped, and with every engine
# replaced by null (so that option parsing is reached in every file even
# while few engines are compiled in).
# check-fast: parse-level (--parse-only, --cmdhelp, --showcmd, usage errors)
. "$(dirname "$0")/lib.sh"
EX="${SHARED:-}/spec/fio-examples"
if [ ! -d "$EX" ]; then
	skip examples "no fio example corpus at $EX"
	exit 0
fi
# variables some examples expect from the user (fio's docs say to set them)
export FIO_RW=randread FIO_BS=4k FIO_IODEPTH=1 FIO_DIR=/tmp GPU_DEV_IDS=0 POOL=pool CONT=cont

# run_pass NAME EXTRA_ARGS DIR: one line per failing file, one summary line.
run_pass() {
	pname=$1 extra=$2 dir=$3
	parsed=0 refused=0 bad=0 jobcheck=0
	for f in "$dir"/*.fio; do
		b=$(basename "$f")
		# shellcheck disable=SC2086
		(cd "$dir" && timeout 10 "$IOTRIAL" --parse-only $extra "$b") >"$T/out" 2>"$T/err"
		rc=$?
		lines=$(wc -l <"$T/err")
		if [ "$rc" -eq 0 ] && [ "$lines" -eq 0 ]; then
			parsed=$((parsed + 1))
		elif [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] &&
		     grep -qE "^iotrial: error: unsupported (option|engine|value) '[^']+'.*\($b:[0-9]+\)$|^iotrial: error: unsupported engine '[^']+' \(job '" "$T/err"; then
			refused=$((refused + 1))
		elif [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] &&
		     grep -qE "^iotrial: error: job '[^']+' \($b:[0-9]+\): (option '[^']+' belongs to ioengine |verify )" "$T/err"; then
			# a job check naming job, file and line: an engine's option
			# under the null engine, or a verify= mode iotrial lacks
			refused=$((refused + 1))
			jobcheck=$((jobcheck + 1))
		else
			bad=$((bad + 1))
			fail "${pname}_$b" "exit $rc: $(head -c 300 "$T/err")"
		fi
	done
	echo "$pname: $parsed parsed, $refused refused as unsupported ($jobcheck by a job check), $bad wrong"
	if [ "$bad" -eq 0 ] && [ $((parsed + refused)) -gt 0 ]; then
		pass "$pname ($parsed parsed, $refused refused)"
	else
		fail "$pname" "$bad files neither parsed nor refused cleanly"
	fi
}

run_pass examples "" "$EX"

mkdir "$T/null"
for f in "$EX"/*.fio; do
	sed 's/^[[:space:]]*ioengine[[:space:]]*=.*/ioengine=null/' "$f" >"$T/null/$(basename "$f")"
done
run_pass examples_null_engine "--ioengine=null" "$T/null"
