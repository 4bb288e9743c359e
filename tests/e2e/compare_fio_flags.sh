# fio's JSON leaves out of "job options" an option typed without a value
# (--time_based); iotrial writes it as "".  compare of fio's and iotrial's
# results of one job must not call that a difference of the jobs, while two
# iotrial results, one with time_based and one without, still differ.
. "$(dirname "$0")/lib.sh"

job="--name=x --filename=$T/x.dat --rw=randread --size=1m --runtime=100ms --ioengine=psync"
# shellcheck disable=SC2086
"$IOTRIAL" $job --time_based --output-format=json >"$T/io.json" 2>"$T/err" &&
"$IOTRIAL" $job --output-format=json >"$T/io_nott.json" 2>>"$T/err" ||
	fail compare_fio_flags_setup "$(cat "$T/err")"

flags_same() {	# NAME A.json B.json
	"$IOTRIAL" compare --output-format=json "$2" "$3" >"$T/c.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert "job_differs" not in [w["id"] for w in d["warnings"]], d["warnings"]
assert not [x for x in d["env_diff"] if x["key"] == "job.time_based"], d["env_diff"]
' "$T/c.json"; then pass "$1"; else fail "$1" "rc $rc: $(cat "$T/err") $(head -c 400 "$T/c.json")"; fi
}

# a result as fio writes it, from iotrial's: no iotrial object, the bare flag left out
pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("iotrial", None)
d["fio version"] = "fio-3.33"
for j in d["jobs"]:
    j.pop("iotrial", None)
    j["job options"].pop("time_based", None)
json.dump(d, open(sys.argv[2], "w"))
' "$T/io.json" "$T/fiolike.json"
flags_same compare_fio_flags_left_out "$T/fiolike.json" "$T/io.json"

if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	fio $job --time_based --output-format=json >"$T/fio.json" 2>"$T/err"
	flags_same compare_fio_flags_real_fio "$T/fio.json" "$T/io.json"
else
	skip compare_fio_flags_real_fio "fio is not installed"
fi

# both written by iotrial: an absent flag is really off, so it differs
"$IOTRIAL" compare --output-format=json "$T/io_nott.json" "$T/io.json" >"$T/c.json" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert [x for x in d["env_diff"] if x["key"] == "job.time_based"], d["env_diff"]
assert "job_differs" in [w["id"] for w in d["warnings"]]
' "$T/c.json"; then pass compare_fio_flags_iotrial_differs; else fail compare_fio_flags_iotrial_differs "$(cat "$T/err")"; fi
