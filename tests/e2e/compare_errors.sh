# Files compare must refuse (exit 2, one line naming the file and the fault),
# and command-line mistakes.
# check-fast: iotrial compare on stored results
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/../data/results
good=$D/seed_virtio.json

expect_exit bad_empty 2 '^iotrial: error: .*bad/empty\.json: empty file$' \
	"$IOTRIAL" compare "$good" "$D/bad/empty.json"
expect_exit bad_truncated 2 'bad/truncated\.json: invalid or truncated JSON at line [0-9]+' \
	"$IOTRIAL" compare "$D/bad/truncated.json" "$good"
expect_exit bad_malformed 2 'bad/malformed\.json: invalid or truncated JSON at line 1' \
	"$IOTRIAL" compare "$good" "$D/bad/malformed.json"
expect_exit bad_not_fio 2 'bad/notfio\.json: not a fio result: no "jobs" array' \
	"$IOTRIAL" compare "$good" "$D/bad/notfio.json"
expect_exit bad_no_jobs 2 'bad/nojobs\.json: no jobs in the result' \
	"$IOTRIAL" compare "$good" "$D/bad/nojobs.json"
expect_exit bad_text 2 'bad/text\.json: not JSON' \
	"$IOTRIAL" compare "$good" "$D/bad/text.json"
expect_exit bad_in_dir 2 'bad/empty\.json: empty file' \
	"$IOTRIAL" compare "$good" -- "$D/bad"
expect_exit missing_file 2 'nope\.json: No such file or directory' \
	"$IOTRIAL" compare "$good" "$D/nope.json"
mkdir "$T/empty"
expect_exit empty_dir 2 'empty: directory has no \*\.json result files' \
	"$IOTRIAL" compare "$good" "$T/empty"
expect_exit one_file 2 'give two result files, separate the sides with --, or give an ab trial directory' \
	"$IOTRIAL" compare "$good"
expect_exit three_files 2 'separate the sides with --' \
	"$IOTRIAL" compare "$good" "$good" "$good"
expect_exit empty_side 2 'side B is empty' "$IOTRIAL" compare "$good" --
expect_exit unknown_option 2 'unknown option --bogus' "$IOTRIAL" compare --bogus "$good" "$good"
expect_exit bad_noise 2 '--noise=x: expected a number' "$IOTRIAL" compare --noise=x "$good" "$good"
expect_exit bad_format 2 '--output-format=xml' "$IOTRIAL" compare --output-format=xml "$good" "$good"
# a fio result with leading non-JSON lines is accepted
if "$IOTRIAL" compare "$D/prefixed.json" "$D/prefixed.json" >"$T/out" 2>&1
then pass leading_lines; else fail leading_lines "$(cat "$T/out")"; fi
"$IOTRIAL" compare --help >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q -- '--fail-on-regression=PCT' "$T/out" && grep -q 'exit codes' "$T/out"
then pass help; else fail help "$(cat "$T/out")"; fi
