#!/bin/sh
# fio's engines that move no data (docs/compat.md, "Engines that move no data"): filecreate, filestat,
# filedelete, dircreate, dirstat, dirdelete, ftruncate, falloc, cpuio, exec,
# page_fault, e4defrag.  Each runs for real on a scratch directory, and where
# fio 3.33 has the engine the same job runs under fio too and the outcome
# (files left, sizes, blocks, I/O counts and their direction) must agree.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1

# jv FILE EXPR: print EXPR evaluated on the JSON document's first job (j).
# Text before the document (fio's cpuio prints a line) is skipped.
jv() {
	python3 - "$1" "$2" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(eval(sys.argv[2]))
PY
}

# counts FILE: "read/write/trim total_ios" of the first job, e.g. "20/0/0"
counts() { jv "$1" '"%d/%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"])'; }

# same NAME WHAT OURS FIOS: PASS when equal
same() {
	if [ "$3" = "$4" ]; then pass "$1"; else fail "$1" "$2: iotrial $3, fio $4"; fi
}

# run_both TAG ARGS...: iotrial into $T/TAG.i/ (JSON $T/TAG.i.json) and, with
# fio, fio into $T/TAG.f/ ($T/TAG.f.json); each runs in its own directory.
run_both() {
	tag=$1; shift
	mkdir -p "$T/$tag.i" "$T/$tag.f"
	(cd "$T/$tag.i" && "$IOTRIAL" --output-format=json "$@" >"$T/$tag.i.json" 2>"$T/$tag.i.err") ||
		{ fail "$tag" "iotrial exit $?: $(head -c 300 "$T/$tag.i.err")"; return 1; }
	[ "$HAVE_FIO" -eq 1 ] || return 0
	(cd "$T/$tag.f" && fio --output-format=json "$@" >"$T/$tag.f.json" 2>"$T/$tag.f.err") ||
		{ fail "$tag" "fio exit $?: $(head -c 300 "$T/$tag.f.err")"; return 1; }
	return 0
}

nfiles() { find "$1" -mindepth 1 -maxdepth 1 -name "$2" | wc -l | tr -d ' '; }

# ---- file operations: one operation per file, timed; bs < filesize -------
if run_both fc --name=t --directory=. --ioengine=filecreate --nrfiles=10 --filesize=8k \
	--openfiles=1 --create_on_open=1 --fallocate=none; then
	n=$(nfiles "$T/fc.i" 't.0.*')
	e=$(find "$T/fc.i" -name 't.0.*' -size +0 | wc -l)
	if [ "$n" -eq 10 ] && [ "$e" -eq 0 ]; then pass filecreate_files
	else fail filecreate_files "$n files ($e not empty), wanted 10 empty"; fi
	c=$(counts "$T/fc.i.json"); ops=$(jv "$T/fc.i.json" 'j["read"]["clat_ns"]["N"]')
	if [ "$c" = "20/0/0" ] && [ "$ops" = 10 ]; then pass filecreate_counts
	else fail filecreate_counts "ios $c, timed $ops; wanted 20/0/0 (8k files in 4k blocks), 10 timed"; fi
	if [ "$HAVE_FIO" -eq 1 ]; then
		same filecreate_vs_fio_files "files" "$n" "$(nfiles "$T/fc.f" 't.0.*')"
		same filecreate_vs_fio_ios "read/write/trim ios" "$c" "$(counts "$T/fc.f.json")"
		same filecreate_vs_fio_timed "timed operations" "$ops" "$(jv "$T/fc.f.json" 'j["read"]["clat_ns"]["N"]')"
	fi
fi

for st in stat lstat statx; do
	if run_both fs_$st --name=t --directory=. --ioengine=filestat --stat_type=$st --nrfiles=5 \
		--filesize=4k; then
		n=$(nfiles "$T/fs_$st.i" 't.0.*'); c=$(counts "$T/fs_$st.i.json")
		if [ "$n" -eq 5 ] && [ "$c" = "5/0/0" ]; then pass filestat_$st
		else fail filestat_$st "$n files, ios $c; wanted 5 files kept, 5/0/0"; fi
		[ "$HAVE_FIO" -eq 1 ] && same filestat_${st}_vs_fio "ios" "$c" "$(counts "$T/fs_$st.f.json")"
	fi
done

if run_both fd --name=t --directory=. --ioengine=filedelete --nrfiles=6 --filesize=4k --unlink=0; then
	n=$(nfiles "$T/fd.i" 't.0.*'); c=$(counts "$T/fd.i.json")
	if [ "$n" -eq 0 ] && [ "$c" = "6/0/0" ]; then pass filedelete
	else fail filedelete "$n files left, ios $c; wanted 0 left, 6/0/0"; fi
	if [ "$HAVE_FIO" -eq 1 ]; then
		same filedelete_vs_fio_left "files left" "$n" "$(nfiles "$T/fd.f" 't.0.*')"
		same filedelete_vs_fio_ios "ios" "$c" "$(counts "$T/fd.f.json")"
	fi
fi

# The same job with rw=write: fio puts the counts in the job's direction.
if run_both fcw --name=t --directory=. --ioengine=filecreate --nrfiles=4 --filesize=4k --rw=write; then
	c=$(counts "$T/fcw.i.json")
	if [ "$c" = "0/4/0" ]; then pass filecreate_write_direction; else fail filecreate_write_direction "ios $c"; fi
	[ "$HAVE_FIO" -eq 1 ] && same filecreate_write_vs_fio "ios" "$c" "$(counts "$T/fcw.f.json")"
fi

# fio 3.33 has no dir engines (later fio does): checked against what they must do.
mkdir "$T/dir"
(cd "$T/dir" && "$IOTRIAL" --output-format=json --name=t --directory=. --ioengine=dircreate \
	--nrfiles=5 --filesize=4k >"$T/dc.json" 2>"$T/err")
n=$(find "$T/dir" -mindepth 1 -maxdepth 1 -type d -name 't.0.*' | wc -l)
if [ "$n" -eq 5 ] && [ "$(counts "$T/dc.json")" = "5/0/0" ]; then pass dircreate
else fail dircreate "$n dirs, ios $(counts "$T/dc.json" 2>&1): $(head -c 200 "$T/err")"; fi
(cd "$T/dir" && "$IOTRIAL" --output-format=json --name=t --directory=. --ioengine=dirstat \
	--nrfiles=5 --filesize=4k --stat_type=lstat >"$T/ds.json" 2>"$T/err")
n=$(find "$T/dir" -mindepth 1 -maxdepth 1 -type d -name 't.0.*' | wc -l)
if [ "$n" -eq 5 ] && [ "$(counts "$T/ds.json")" = "5/0/0" ]; then pass dirstat
else fail dirstat "$n dirs, ios $(counts "$T/ds.json" 2>&1): $(head -c 200 "$T/err")"; fi
(cd "$T/dir" && "$IOTRIAL" --output-format=json --name=t --directory=. --ioengine=dirdelete \
	--nrfiles=5 --filesize=4k >"$T/dd.json" 2>"$T/err")
n=$(find "$T/dir" -mindepth 1 -maxdepth 1 -name 't.0.*' | wc -l)
if [ "$n" -eq 0 ] && [ "$(counts "$T/dd.json")" = "5/0/0" ]; then pass dirdelete
else fail dirdelete "$n left, ios $(counts "$T/dd.json" 2>&1): $(head -c 200 "$T/err")"; fi
# a second dircreate finds them gone: and dircreate over existing dirs is an error
(cd "$T/dir" && mkdir t.0.0 && "$IOTRIAL" --name=t --directory=. --ioengine=dircreate \
	--nrfiles=1 --filesize=4k >"$T/out" 2>"$T/err")
rc=$?
if [ "$rc" -ne 0 ] && grep -q "File exists" "$T/out" "$T/err"; then pass dircreate_exists
else fail dircreate_exists "exit $rc on an existing directory: $(head -c 200 "$T/err")"; fi

# ---- ftruncate: each write sets the size to its offset -------------------
if run_both ft --name=t --directory=. --filename=tr --ioengine=ftruncate --size=1M --bs=4k --rw=write; then
	sz=$(stat -c %s "$T/ft.i/tr"); c=$(counts "$T/ft.i.json")
	if [ "$sz" -eq 1044480 ] && [ "$c" = "0/256/0" ]; then pass ftruncate
	else fail ftruncate "size $sz, ios $c; wanted 1044480 (the last offset), 0/256/0"; fi
	if [ "$HAVE_FIO" -eq 1 ]; then
		same ftruncate_vs_fio_size "size" "$sz" "$(stat -c %s "$T/ft.f/tr")"
		same ftruncate_vs_fio_ios "ios" "$c" "$(counts "$T/ft.f.json")"
	fi
fi

# ---- falloc: writes allocate, trims punch holes ----------------------------
# fallocate=none: iotrial's layout leaves the file sparse, so the blocks come
# from the engine's writes.
mkdir -p "$T/fa.i" "$T/fa.f"
(cd "$T/fa.i" && "$IOTRIAL" --output-format=json --name=t --directory=. --filename=fa \
	--ioengine=falloc --fallocate=none --size=1M --bs=64k --rw=randwrite >"$T/fa.i.json" 2>"$T/err")
b=$(stat -c %b "$T/fa.i/fa"); c=$(counts "$T/fa.i.json")
bi=$b	# iotrial's blocks after the write (the fio run below is a subshell)
if [ "$b" -ge 2048 ] && [ "$c" = "0/16/0" ]; then pass falloc_write_allocates
else fail falloc_write_allocates "$b blocks of 512, ios $c; wanted >= 2048, 0/16/0: $(head -c 200 "$T/err")"; fi
# half the blocks written: half the space allocated (the layout allocated none)
(cd "$T/fa.i" && "$IOTRIAL" --output-format=json --name=t --directory=. --filename=half \
	--ioengine=falloc --fallocate=none --size=1M --bs=64k --rw=randwrite --number_ios=8 \
	>"$T/fah.json" 2>"$T/err")
bh=$(stat -c %b "$T/fa.i/half")
if [ "$bh" -ge 1024 ] && [ "$bh" -lt 1100 ] && [ "$(stat -c %s "$T/fa.i/half")" -eq 1048576 ]; then
	pass falloc_allocates_what_it_writes
else fail falloc_allocates_what_it_writes "$bh blocks of 512 after 8 of 16 64k writes: $(head -c 200 "$T/err")"; fi
(cd "$T/fa.i" && "$IOTRIAL" --output-format=json --name=t --directory=. --filename=fa \
	--ioengine=falloc --size=1M --bs=64k --rw=randtrim >"$T/fa2.i.json" 2>"$T/err")
b2=$(stat -c %b "$T/fa.i/fa"); s2=$(stat -c %s "$T/fa.i/fa"); c2=$(counts "$T/fa2.i.json")
if [ "$b2" -eq 0 ] && [ "$s2" -eq 1048576 ] && [ "$c2" = "0/0/16" ]; then pass falloc_trim_punches
else fail falloc_trim_punches "$b2 blocks, size $s2, ios $c2; wanted 0 blocks, 1048576, 0/0/16"; fi
if [ "$HAVE_FIO" -eq 1 ]; then
	(cd "$T/fa.f" && fio --output-format=json --name=t --directory=. --filename=fa --ioengine=falloc \
		--size=1M --bs=64k --rw=randwrite >"$T/fa.f.json" 2>/dev/null &&
	 b=$(stat -c %b fa) && fio --output-format=json --name=t --directory=. --filename=fa \
		--ioengine=falloc --size=1M --bs=64k --rw=randtrim >"$T/fa2.f.json" 2>/dev/null &&
	 echo "$((b / 2048)) $(($(stat -c %b fa) / 2048))" >"$T/fa.f.blocks")
	# whole MiB allocated (an extent-tree block may add 4 KiB to either)
	same falloc_vs_fio_mib "MiB allocated after write, after trim" "$((bi / 2048)) $((b2 / 2048))" \
		"$(cat "$T/fa.f.blocks" 2>/dev/null)"
	same falloc_vs_fio_ios "write ios, trim ios" "$c $c2" "$(counts "$T/fa.f.json") $(counts "$T/fa2.f.json")"
fi

# ---- cpuio: busy about cpuload% of one CPU ---------------------------------
# 25% in cycles of 20 ms: 80 ms per cycle, ~25 cycles in 2 s.  The machine may
# be shared, so the CPU share is bounded loosely and the count compared to
# fio's within a factor 2: under tests/load.sh (load average 9-10) 6 runs gave
# 22-24 cycles and 7.4-8.4% CPU (the busy part is wall-clock, so a loaded
# CPU shrinks the share, not the count), 2x inside both lower bounds.
if run_both cpu --name=t --ioengine=cpuio --cpuload=25 --cpuchunks=20000 --runtime=2 --time_based; then
	r=$(jv "$T/cpu.i.json" '"%d %d %.1f" % (j["read"]["total_ios"], j["read"]["io_bytes"], j["usr_cpu"] + j["sys_cpu"])')
	set -- $r
	if [ "$1" -ge 12 ] && [ "$1" -le 30 ] && [ "$2" -eq 0 ] &&
	   python3 -c "import sys; sys.exit(not (3 <= $3 <= 45))"; then pass cpuio_load
	else fail cpuio_load "cycles $1 (wanted 12-30), bytes $2, cpu $3% (wanted 3-45%)"; fi
	if [ "$HAVE_FIO" -eq 1 ]; then
		fc=$(jv "$T/cpu.f.json" 'j["read"]["total_ios"]')
		if [ "$1" -le $((2 * fc + 2)) ] && [ "$fc" -le $((2 * $1 + 2)) ]; then pass cpuio_vs_fio
		else fail cpuio_vs_fio "cycles: iotrial $1, fio $fc"; fi
	fi
fi
# qsort mode, and exit_on_io_done: ends with the other job, no runtime needed
t0=$(date +%s)
"$IOTRIAL" --output-format=json --name=c --ioengine=cpuio --cpuload=50 --cpumode=qsort \
	--exit_on_io_done=1 --name=w --ioengine=psync --filename="$T/eoid" --size=1M --rw=write \
	--rate_iops=256 >"$T/eoid.json" 2>"$T/err"
rc=$?; secs=$(( $(date +%s) - t0 ))
if [ "$rc" -eq 0 ] && [ "$secs" -le 10 ] && [ "$(jv "$T/eoid.json" 'j["read"]["total_ios"] > 0')" = True ]; then
	pass cpuio_exit_on_io_done
else fail cpuio_exit_on_io_done "exit $rc after ${secs}s: $(head -c 200 "$T/err")"; fi

# ---- exec: runs the program, output where std_redirect says ----------------
if run_both ex --name=ex --ioengine=exec --program=echo --arguments='hello %n %r' --runtime=1; then
	o=$(cat "$T/ex.i/ex.stdout" 2>/dev/null)
	if [ "$o" = "hello ex 1" ] && [ -f "$T/ex.i/ex.stderr" ]; then pass exec_redirect
	else fail exec_redirect "ex.stdout holds '$o', wanted 'hello ex 1'"; fi
	[ "$HAVE_FIO" -eq 1 ] && same exec_vs_fio_stdout "ex.stdout" "$o" "$(cat "$T/ex.f/ex.stdout" 2>/dev/null)"
fi
mkdir "$T/ex0" && (cd "$T/ex0" && "$IOTRIAL" --output-format=json --output="$T/ex0.json" --name=ex \
	--ioengine=exec --program=echo --arguments=marker-%n --std_redirect=0 --runtime=1 >"$T/ex0.out" 2>"$T/err")
if grep -qx "marker-ex" "$T/ex0.out" && [ ! -e "$T/ex0/ex.stdout" ]; then pass exec_no_redirect
else fail exec_no_redirect "stdout: $(head -c 100 "$T/ex0.out"); files: $(ls "$T/ex0")"; fi
# a program still running at the end gets SIGTERM, and SIGKILL after
# grace_time when it ignores SIGTERM; the job does not wait for it longer
mkdir "$T/ex1"
printf 'echo $$ >"%s/pid"\ntrap "" TERM\nwhile :; do sleep 0.1; done\n' "$T/ex1" >"$T/ex1/s.sh"
t0=$(date +%s)
(cd "$T/ex1" && "$IOTRIAL" --output-format=json --name=sl --ioengine=exec --program=sh \
	--arguments="$T/ex1/s.sh" --runtime=1 --grace_time=1 >"$T/ex1.json" 2>"$T/err")
rc=$?; secs=$(( $(date +%s) - t0 ))
pid=$(cat "$T/ex1/pid" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && [ "$secs" -le 8 ]; then
	pass exec_grace_kill
else fail exec_grace_kill "exit $rc after ${secs}s, pid '$pid' $(kill -0 "$pid" 2>/dev/null && echo still running)"; fi

# a program that cannot be run is named before any job starts
expect_exit exec_missing_program 3 "^iotrial: error: job 'ex': exec: program 'no-such-program-x' is not found or not executable$" \
	"$IOTRIAL" --name=ex --ioengine=exec --program=no-such-program-x --runtime=1

# ---- page_fault: every page of the range is touched -----------------------
# (fio 3.33 has no page_fault engine.)  8 MiB written in 4 KiB pages: 2048
# I/Os and at least 2048 minor faults of the thread.
"$IOTRIAL" --output-format=json --name=pf --ioengine=page_fault --size=8M --bs=4k --rw=write \
	>"$T/pf.json" 2>"$T/err"
r=$(jv "$T/pf.json" '"%s %d" % (j["write"]["total_ios"], j["minf"])' 2>&1)
set -- $r
if [ "$1" = 2048 ] && [ "$2" -ge 2048 ]; then pass page_fault_write
else fail page_fault_write "ios/minor faults: $r: $(head -c 200 "$T/err")"; fi
"$IOTRIAL" --output-format=json --name=pf --ioengine=page_fault --size=8M --bs=64k --rw=randrw \
	>"$T/pf2.json" 2>"$T/err"
r=$(jv "$T/pf2.json" 'j["read"]["total_ios"] + j["write"]["total_ios"]' 2>&1)
if [ "$r" = 128 ]; then pass page_fault_randrw; else fail page_fault_randrw "ios $r: $(head -c 200 "$T/err")"; fi

# ---- e4defrag: the writes move the file's extents, the data stays ---------
fstype=$(stat -f -c %T "$T")
if ! command -v filefrag >/dev/null 2>&1; then
	skip e4defrag "filefrag (e2fsprogs) is not installed"
elif [ "$fstype" != "ext2/ext3" ]; then
	skip e4defrag "the scratch directory is on $fstype, not ext4"
else
	# physical block of the file's first extent
	phys() { filefrag -v "$1" | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4; exit }'; }
	mkdir -p "$T/e4.i" "$T/e4.f"
	for d in e4.i e4.f; do
		dd if=/dev/urandom of="$T/$d/file1" bs=1M count=8 conv=fsync status=none
	done
	sum=$(md5sum <"$T/e4.i/file1"); p0=$(phys "$T/e4.i/file1")
	(cd "$T/e4.i" && "$IOTRIAL" --output-format=json --name=e --directory=. --filename=file1 \
		--ioengine=e4defrag --donorname=file.def --bs=1M --size=8M --rw=write \
		>"$T/e4.i.json" 2>"$T/err")
	rc=$?; p1=$(phys "$T/e4.i/file1"); c=$(counts "$T/e4.i.json" 2>&1)
	if [ "$rc" -ne 0 ] && grep -q "Inappropriate ioctl\|not supported" "$T/err" "$T/e4.i.json"; then
		skip e4defrag "EXT4_IOC_MOVE_EXT refused here: $(head -c 200 "$T/err")"
	elif [ "$rc" -eq 0 ] && [ "$c" = "0/8/0" ] && [ "$p0" != "$p1" ] &&
	     [ "$(md5sum <"$T/e4.i/file1")" = "$sum" ] && [ ! -e "$T/e4.i/file.def" ]; then
		pass e4defrag_moves
	else
		fail e4defrag_moves "exit $rc, ios $c, first extent $p0 -> $p1, donor $(ls "$T/e4.i"): $(head -c 200 "$T/err")"
	fi
	# inplace=1 allocates the donor's range per move
	p0=$(phys "$T/e4.i/file1")
	(cd "$T/e4.i" && "$IOTRIAL" --output-format=json --name=e --directory=. --filename=file1 \
		--ioengine=e4defrag --donorname=file.def --inplace=1 --bs=1M --size=8M --rw=write \
		>"$T/e4b.i.json" 2>"$T/err")
	rc=$?; p1=$(phys "$T/e4.i/file1")
	if [ "$rc" -eq 0 ] && [ "$p0" != "$p1" ] && [ "$(md5sum <"$T/e4.i/file1")" = "$sum" ]; then
		pass e4defrag_inplace
	else fail e4defrag_inplace "exit $rc, first extent $p0 -> $p1: $(head -c 200 "$T/err")"; fi
	# fio 3.33's inplace=0 fails at init (it preallocates the donor to size 0),
	# so fio runs with inplace=1: the same writes, the same moves
	if [ "$HAVE_FIO" -eq 1 ]; then
		f0=$(phys "$T/e4.f/file1")
		(cd "$T/e4.f" && fio --output-format=json --name=e --directory=. --filename=file1 \
			--ioengine=e4defrag --donorname=file.def --inplace=1 --bs=1M --size=8M --rw=write \
			>"$T/e4.f.json" 2>/dev/null)
		f1=$(phys "$T/e4.f/file1")
		same e4defrag_vs_fio_ios "ios" "$(counts "$T/e4b.i.json")" "$(counts "$T/e4.f.json")"
		same e4defrag_vs_fio_moved "first extent moved" "$([ "$p0" != "$p1" ] && echo yes)" \
			"$([ "$f0" != "$f1" ] && echo yes)"
	fi
fi
