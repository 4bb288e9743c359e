#!/bin/sh
# The history never costs a run (docs/history.md, "What can go wrong"): with a
# locked, read-only, full, corrupt (not a database; damaged pages) or newer
# database, a run still writes its result JSON, exits with its own status (0,
# or 1 for a job error), and prints exactly one warning line that names the
# database file and the problem.  A newer schema is refused by name and the
# file is left byte for byte as it was.  Runs use the null engine: quick.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
unset IOTRIAL_HISTORY
export IOTRIAL_HISTORY_WAIT=0.5	# the locked case waits this long, not 10 s

RUN="--name=r --ioengine=null --rw=randread --bs=4k --size=1m --number_ios=2000 --output-format=json"

# one_warning NAME DB WORD OUT RC WANT_RC: the run wrote OUT, exited WANT_RC,
# and said exactly one thing on stderr: the warning naming DB and WORD
one_warning() {
	name=$1 db=$2 word=$3 out=$4 rc=$5 want=$6
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, wanted $want: $(head -c 300 "$T/err")"
	elif ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out" 2>/dev/null; then
		fail "$name" "the result $out is missing or not JSON"
	elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
		fail "$name" "wanted one line on stderr, got: $(head -c 400 "$T/err")"
	elif ! grep -q "^iotrial: warning: run not stored in the history: history database $db .*$word" "$T/err"; then
		fail "$name" "the warning does not name $db and '$word': $(cat "$T/err")"
	else
		pass "$name"
	fi
}

# a database with one run in it
"$IOTRIAL" $RUN --output=seed.json --history="$T/h.db" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q "history: run 1 stored in $T/h.db" "$T/err"; then
	fail history_seed "exit $rc: $(cat "$T/err")"
	exit 0
fi
pass history_seed

# --- locked: another writer holds the lock past the busy timeout -----------
if command -v sqlite3 >/dev/null 2>&1; then
	# the holder takes the write lock, says so, and keeps it until told: a
	# loaded machine can neither start the runs before the lock nor after it
	(echo "BEGIN IMMEDIATE; INSERT INTO meta VALUES ('lock', 'held');"
	 echo ".shell touch '$T/locked'"
	 n=0
	 while [ ! -e "$T/release" ] && [ "$n" -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
	 echo "ROLLBACK;") | sqlite3 "$T/h.db" &
	holder=$!
	n=0
	while [ ! -e "$T/locked" ] && [ "$n" -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	"$IOTRIAL" $RUN --output=locked.json --history="$T/h.db" 2>"$T/err"
	one_warning history_locked "$T/h.db" "is locked by another process (waited 0.5 s)" locked.json $? 0
	# a job that fails under a locked database: its own status (8: verify, on
	# the null engine), its result written, and the database named once
	"$IOTRIAL" --name=e --ioengine=null --rw=read --bs=4k --size=1m --number_ios=100 \
		--verify=crc32c --output-format=json --output=ver.json \
		--history="$T/h.db" 2>"$T/err.all"
	rc=$?
	grep -v "stopped on error" "$T/err.all" >"$T/err"
	one_warning history_locked_own_status "$T/h.db" "is locked" ver.json $rc 8
	touch "$T/release"
	wait "$holder"
	# the lock gone, the next run is stored
	"$IOTRIAL" $RUN --output=after.json --history="$T/h.db" 2>"$T/err"
	if grep -q "history: run 2 stored" "$T/err"; then pass history_after_lock; else
		fail history_after_lock "$(cat "$T/err")"; fi
else
	skip history_locked "sqlite3 (the command) is not installed"
fi

# --- a failed job is stored with its exit status ------------------------------
"$IOTRIAL" --name=e --ioengine=null --rw=read --bs=4k --size=1m --number_ios=100 \
	--verify=crc32c --output-format=json --output=ver2.json --history="$T/h.db" 2>"$T/err"
rc=$?
if [ "$rc" -eq 8 ] && grep -q "history: run 3 stored" "$T/err" &&
   "$IOTRIAL" history --history="$T/h.db" show 3 | grep -q "exit 8"; then
	pass history_keeps_exit
else
	fail history_keeps_exit "exit $rc: $(cat "$T/err")"
fi

# --- corrupt: not a database at all -----------------------------------------
printf 'this is a text file, not a SQLite database\n%.0s' $(seq 200) >"$T/text.db"
"$IOTRIAL" $RUN --output=notdb.json --history="$T/text.db" 2>"$T/err"
one_warning history_not_a_db "$T/text.db" "is corrupt" notdb.json $? 0

# --- corrupt: a real database with damaged pages ------------------------------
cp "$T/h.db" "$T/bad.db"
for i in 2 3 4 5 6 7 8; do	# every page after the header page: garbage
	dd if=/dev/urandom of="$T/bad.db" bs=4096 seek=$((i - 1)) count=1 conv=notrunc 2>/dev/null
done
"$IOTRIAL" $RUN --output=damaged.json --history="$T/bad.db" 2>"$T/err"
one_warning history_damaged "$T/bad.db" "is corrupt" damaged.json $? 0
expect_exit history_damaged_list 2 "history database $T/bad.db is corrupt" \
	"$IOTRIAL" history --history="$T/bad.db" list

# --- newer: a schema from a later iotrial, refused by name, left as it was ----
if command -v sqlite3 >/dev/null 2>&1; then
	cp "$T/h.db" "$T/new.db"
	sqlite3 "$T/new.db" "PRAGMA user_version = 7; INSERT OR REPLACE INTO meta VALUES ('writer', '9.1.0');"
	sqlite3 "$T/new.db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
	before=$(cksum <"$T/new.db")
	"$IOTRIAL" $RUN --output=newer.json --history="$T/new.db" 2>"$T/err"
	one_warning history_newer "$T/new.db" "was written by iotrial 9.1.0 (schema version 7; this iotrial .* knows up to [0-9]*): refused" newer.json $? 0
	if [ "$(cksum <"$T/new.db")" = "$before" ]; then pass history_newer_untouched; else
		fail history_newer_untouched "the newer file was changed"; fi
	expect_exit history_newer_list 2 "written by iotrial 9.1.0 .*refused" \
		"$IOTRIAL" history --history="$T/new.db" list
else
	skip history_newer "sqlite3 (the command) is not installed"
fi

# --- read-only: a file system mounted read-only (root), or a mode 0444 file --
mkdir -p "$T/ro"
cp "$T/h.db" "$T/ro.db"
ro_db=""
if [ "$(id -u)" -eq 0 ]; then
	if mount -t tmpfs -o size=4m tmpfs "$T/ro" 2>/dev/null; then
		cp "$T/h.db" "$T/ro/h.db"
		if mount -o remount,ro "$T/ro" 2>/dev/null; then ro_db="$T/ro/h.db"; fi
	fi
else
	chmod 0444 "$T/ro.db" && ro_db="$T/ro.db"
fi
if [ -n "$ro_db" ]; then
	"$IOTRIAL" $RUN --output=ro.json --history="$ro_db" 2>"$T/err"
	one_warning history_readonly "$ro_db" "is read-only" ro.json $? 0
	# reading a read-only history works
	if "$IOTRIAL" history --history="$ro_db" list --output-format=json 2>"$T/err" |
	   python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d["runs"]) >= 1 else 1)'; then
		pass history_readonly_list
	else
		fail history_readonly_list "$(cat "$T/err")"
	fi
else
	skip history_readonly "cannot make a read-only file system or file here"
fi
mountpoint -q "$T/ro" 2>/dev/null && umount "$T/ro"

# --- full: a write past RLIMIT_FSIZE (SIGXFSZ ignored: write fails with EFBIG) --
# The result (about 16 KiB) fits under the limit; the database's write-ahead
# log grows past it.  64 blocks is 32 KiB (dash counts 512-byte blocks).
cp "$T/h.db" "$T/fsize.db"
rm -f "$T/fsize.db-wal" "$T/fsize.db-shm"
sh -c 'trap "" XFSZ; ulimit -f 64; exec "$@"' sh "$IOTRIAL" $RUN --output=fsize.json \
	--history="$T/fsize.db" 2>"$T/err"
one_warning history_full_fsize "$T/fsize.db" "is on a full file system" fsize.json $? 0

# --- full: a small file system that is full (root: a tmpfs of our own) -------
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=400k tmpfs "$T/full" 2>/dev/null; then
	cp "$T/h.db" "$T/full/h.db"
	dd if=/dev/zero of="$T/full/filler" bs=4k count=1000 2>/dev/null	# until ENOSPC
	"$IOTRIAL" $RUN --output=full.json --history="$T/full/h.db" 2>"$T/err"
	one_warning history_full_tmpfs "$T/full/h.db" "is on a full file system" full.json $? 0
	rm -f "$T/full/filler"
	# room again: the same file takes the next run, and is intact
	"$IOTRIAL" $RUN --output=full2.json --history="$T/full/h.db" 2>"$T/err"
	if grep -q "history: run .* stored" "$T/err" &&
	   [ "$(sqlite3 "$T/full/h.db" 'PRAGMA integrity_check' 2>/dev/null || echo ok)" = ok ]; then
		pass history_full_recovers
	else
		fail history_full_recovers "$(cat "$T/err")"
	fi
	umount "$T/full"
else
	skip history_full_tmpfs "needs root to mount a small tmpfs"
fi
