#!/bin/sh
# Many writers, one history (docs/history.md, "What can go wrong"): runs that
# finish together and imports that run beside them all get stored, none lost,
# the file intact; an import killed with SIGKILL in the middle of a
# transaction leaves every run it stored whole (row, document, derived
# tables) and the others absent, and the same import afterwards completes
# it; under MPI only rank 0 stores the (merged) run.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
unset IOTRIAL_HISTORY
export IOTRIAL_HISTORY_WAIT=60	# a loaded machine: writers queue, none gives up

RUN="--name=c --ioengine=null --rw=randread --bs=4k --size=1m --number_ios=20000 --output-format=json"
DB="$T/h.db"

count() {
	"$IOTRIAL" history --history="$1" list --limit=0 --partial --output-format=json |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))'
}

# intact: SQLite's own check when the sqlite3 command is there, and every
# stored run whole: a document, jobs and metrics for each
intact() {
	if command -v sqlite3 >/dev/null 2>&1; then
		[ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] || return 1
		[ "$(sqlite3 "$1" 'SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM results)
			OR id NOT IN (SELECT run_id FROM jobs) OR id NOT IN (SELECT run_id FROM metrics)')" = 0 ] ||
			return 1
	fi
	"$IOTRIAL" history --history="$1" rebuild >/dev/null	# every document decodes and parses
}

# N result files that differ (their timestamps), made from one run's result
"$IOTRIAL" $RUN --output=seed.json 2>/dev/null || { fail history_conc_seed "the seed run failed"; exit 0; }
make_files() {	# DIR N
	python3 - "$1" "$2" <<'EOF'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
doc = json.load(open("seed.json"))
t0 = doc["timestamp_ms"]
for i in range(n):
    doc["timestamp_ms"] = t0 + 1000 * i
    doc["timestamp"] = doc["timestamp_ms"] // 1000
    with open(os.path.join(d, "r%05d.json" % i), "w") as f:
        json.dump(doc, f)
EOF
}

# --- eight runs finishing together, beside two imports ------------------------
make_files imp1 40
make_files imp2 40
python3 - <<'EOF'
import json, glob
# the second set must differ from the first: shift it by a day
for p in glob.glob("imp2/*.json"):
    d = json.load(open(p)); d["timestamp_ms"] += 86400000; d["timestamp"] += 86400
    json.dump(d, open(p, "w"))
EOF
pids=""
for i in 1 2 3 4 5 6 7 8; do
	"$IOTRIAL" $RUN --output=c$i.json --history="$DB" 2>c$i.err &
	pids="$pids $!"
done
"$IOTRIAL" history --history="$DB" import imp1 >imp1.out 2>imp1.err &
pids="$pids $!"
"$IOTRIAL" history --history="$DB" import imp2 >imp2.out 2>imp2.err &
pids="$pids $!"
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
n=$(count "$DB")
if [ "$bad" -eq 0 ] && [ "$n" = 88 ] && ! grep -l "not stored" c*.err >/dev/null && intact "$DB"; then
	pass history_concurrent_writers
else
	fail history_concurrent_writers "$bad failed, $n runs stored (wanted 88): $(cat c*.err imp*.err | grep -v 'stored in' | head -c 400)"
fi

# --- a killed import: stored batches whole, the rest absent, then completed ----
make_files big 1200
DB2="$T/k.db"
"$IOTRIAL" history --history="$DB2" import seed.json >/dev/null	# the file exists, in WAL mode
"$IOTRIAL" history --history="$DB2" import big >big.out 2>big.err &
pid=$!
# the first batch of 256 is committed once the write-ahead log has frames;
# the next one is then being written: kill it there
n=0
while [ "$n" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
	sz=$(stat -c %s "$DB2-wal" 2>/dev/null || echo 0)
	[ "$sz" -gt 1000000 ] && break
	sleep 0.05
	n=$((n + 1))
done
if kill -KILL "$pid" 2>/dev/null; then
	wait "$pid" 2>/dev/null
	got=$(count "$DB2")
	stored=$((got - 1))
	if [ "$stored" -ge 1200 ]; then
		skip history_killed_import "the import ended before the kill (machine too fast for 1200 files)"
	elif [ $((stored % 256)) -eq 0 ] && intact "$DB2"; then
		pass "history_killed_import ($stored of 1200 stored, in whole batches)"
	else
		fail history_killed_import "$stored runs stored (not whole batches of 256), or the file is damaged"
	fi
	# the same import again adds exactly what is missing
	"$IOTRIAL" history --history="$DB2" import big >again.out 2>again.err
	if [ "$(count "$DB2")" = 1201 ] &&
	   grep -q "imported 1200 file(s): $((1200 - stored)) new run(s), $stored already stored" again.out; then
		pass history_killed_import_resumes
	else
		fail history_killed_import_resumes "$(cat again.out again.err)"
	fi
else
	skip history_killed_import "the import ended before the kill"
fi

# --- MPI: rank 0 stores the merged run, once -----------------------------------
if command -v mpirun >/dev/null 2>&1 && grep -q MPI_Init "$IOTRIAL"; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	DB3="$T/mpi.db"
	mpirun --oversubscribe -n 3 "$IOTRIAL" --name=m --ioengine=null --rw=randread --bs=4k \
		--size=1m --number_ios=3000 --output-format=json --output="$T/m.json" \
		--history="$DB3" >m.out 2>m.err
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(count "$DB3")" = 1 ] && [ "$(grep -c 'stored in' m.err)" = 1 ] &&
	   "$IOTRIAL" history --history="$DB3" show 1 --output-format=json |
	   python3 -c 'import json,sys; d=json.load(sys.stdin)["result"]; m=json.load(open(sys.argv[1]))
sys.exit(0 if d == m and len([c for c in d["client_stats"] if c["jobname"] != "All clients"]) == 3 else 1)' "$T/m.json"; then
		pass history_mpi_rank0
	else
		fail history_mpi_rank0 "exit $rc: $(head -c 400 m.err)"
	fi
else
	skip history_mpi_rank0 "no mpirun, or iotrial built without MPI"
fi
