#!/bin/sh
# --output-format=summary carries the warnings that qualify its figures,
# right under the table and short, with their numbers: the table alone is
# what people paste.  The issue's case: a buffered 16 MiB random read at
# iodepth=32 on psync prints a page-cache figure with the depth ignored, and
# says both.  Infos are left out; each warning is the JSON's "brief".
. "$(dirname "$0")/lib.sh"
"$IOTRIAL" --name=r --rw=randread --size=16M --iodepth=32 --filename="$T/f" --runtime=300ms \
	--time_based --output-format=summary,json --output="$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
text = open(sys.argv[1]).read()
i = text.index("\n{")
table, d = text[:i].splitlines(), json.loads(text[i:])
k = [n for n, l in enumerate(table) if l.startswith("r ")]
assert len(k) == 1, table
after = table[k[0] + 1:]
warn = [l for l in after if l.startswith("  warning [")]
assert warn == after, after                        # nothing else, right under the row
ids = [l.split("[")[1].split("]")[0] for l in warn]
assert "page_cache" in ids and "depth_ignored" in ids and "short_run" in ids, ids
assert any("r: iodepth=32 ignored (psync keeps 1 I/O in flight)" in l for l in warn), warn
assert any("buffered (direct=0): the page cache can serve it" in l for l in warn), warn
# each line is the brief of a JSON warning, and every warning (no info) is there
w = [x for x in d["iotrial"]["warnings"] if x["severity"] == "warning"]
assert ["  warning [%s] %s" % (x["id"], x["brief"]) for x in w] == warn, (w, warn)
assert all(len(l) <= 110 for l in warn), warn
' "$T/out"; then pass summary_carries_warnings; else
	fail summary_carries_warnings "rc $rc: $(head -c 900 "$T/out") $(cat "$T/err")"; fi
