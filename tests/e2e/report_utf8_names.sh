#!/bin/sh
# Text that is not UTF-8 never loses a run (docs/json.md: strings): a Latin-1 file
# name, a ${VAR} job name with invalid bytes, in text, JSON and status
# output, and a result file whose path is not UTF-8 under check/compare.  The
# JSON stays valid, each invalid byte shown as U+FFFD.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
F=$(printf 'f\351')	# "fé" in Latin-1
X=$(printf 'n\351\377')
export X

"$IOTRIAL" --name=x --rw=read --size=64k --filename="$F" >out.txt 2>err
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^x: " out.txt; then pass latin1_filename_text; else fail latin1_filename_text "exit $rc: $(head -c 300 err)"; fi

"$IOTRIAL" --name=x --rw=read --size=64k --filename="$F" --output-format=json >out.json 2>err
rc=$?
got=$(pyjson "import json; d=json.load(open('out.json')); print(d['jobs'][0]['job options']['filename'] == 'f\ufffd')" 2>&1)
if [ "$rc" -eq 0 ] && [ "$got" = True ]; then pass latin1_filename_json; else fail latin1_filename_json "exit $rc, $got: $(head -c 300 err)"; fi

# shellcheck disable=SC2016
printf '[${X}]\nrw=read\nsize=64k\nfilename=g\n' >var.fio
"$IOTRIAL" var.fio --output-format=json,normal >out2 2>err
rc=$?
got=$(pyjson "import json,sys; b=open('out2','rb').read(); d=json.loads(b[b.index(b'\\n{')+1:].decode('utf-8')); print(d['jobs'][0]['jobname'] == 'n\ufffd\ufffd')" 2>&1)
if [ "$rc" -eq 0 ] && [ "$got" = True ]; then pass var_jobname_json; else fail var_jobname_json "exit $rc, $got: $(head -c 300 err)"; fi

"$IOTRIAL" var.fio --time_based --runtime=1200ms --status-interval=500ms --status-output=status.jsonl >/dev/null 2>err
rc=$?
n=$(pyjson "import json
n=0
for l in open('status.jsonl'):
    d=json.loads(l); n += d['job'] == 'n\ufffd\ufffd'
print(n)" 2>&1)
if [ "$rc" -eq 0 ] && [ "$n" -ge 1 ] 2>/dev/null; then pass var_jobname_status; else fail var_jobname_status "exit $rc, $n lines: $(head -c 300 err)"; fi

# a result file whose own path is not UTF-8
cp out.json "r$F.json"
"$IOTRIAL" check --output-format=json "r$F.json" >chk.json 2>err
rc=$?
got=$(pyjson "import json; print(json.load(open('chk.json'))['results'][0]['file'])" 2>&1)
if [ "$rc" -eq 0 ] && [ "$got" = "rf�.json" ]; then pass latin1_path_check; else fail latin1_path_check "exit $rc, file '$got': $(head -c 300 err)"; fi
