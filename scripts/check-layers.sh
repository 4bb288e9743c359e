#!/bin/sh
# check-layers: the dependency rules of src/'s folders (docs/design.md, "The
# map"), checked on the built tree.  Prints one PASS or FAIL line per rule, as
# the tests do, so that tests/e2e/layers.sh counts them in make check's tally.
#
#   scripts/check-layers.sh [BUILD]      (BUILD: build or build/san, built)
#
# What is checked, from three sources:
#   - the direct #include "..." lines of every src/ file, resolved as the
#     compiler does (the file's own folder first, then src/);
#   - the compiler's .d files: every header a .c file reaches, through any
#     chain of includes;
#   - nm on the objects: which file's functions and data a file uses.
# Rules:
#   layers_engines  engines/ reach the core through engine.h and its peers:
#                   never worker.h, run.h, trial/, report/, steady/, nor
#                   another engine's header; outside engines/ only the
#                   registries (engine.c, the option table) reach engines/.
#   layers_trial    trial/ reads results: it never reaches worker.h, run.h,
#                   engine.h, engines/, report/ or steady/, and calls nothing
#                   in worker*, run*, engine*.
#   layers_report   report/ renders a result: it never reaches worker.h,
#                   run.h, engine.h, engines/, outfile.h, file.h or safety.h,
#                   and calls no function that opens, reads or removes files.
#   layers_steady   steady/ never reaches worker.h, run.h, engine.h,
#                   engines/, report/ or trial/; inside it a file uses only
#                   its own layer or lower ones (mser < rule < stream, live <
#                   tail < out < sink, job and option glue).
#   layers_history  history/ keeps results: it never reaches worker.h,
#                   run.h, engine.h, engines/ or steady/, calls nothing in
#                   worker*, run*, engine*; nothing else in src/ reaches it
#                   (only cli/ stores and queries the history).
#   layers_lib      src/ never includes cli/.
#   layers_cycles   no two files include or call each other in a loop: the
#                   graph of includes (file -> header) and calls (a.c -> the
#                   .c defining what a.c uses) has no cycle (tsort).
#   layers_modules  no two modules include each other in a loop: a module is
#                   x.c + x.h (src/ and cli/, any folder, by basename), with
#                   m -> t for each #include "t.h" in x.c or x.h; that graph
#                   has no cycle (tsort).  Stricter than layers_cycles: x.c
#                   including y.h while y.h (or y.c) includes x.h is a loop
#                   even when no file includes itself back.  Types that both
#                   sides need go in a header of their own (x_types.h,
#                   x_cfg.h) below both.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${1:-${BUILD:-build}}
OBJ=$BUILD/obj
if ! ls "$OBJ"/*.o >/dev/null 2>&1; then
	echo "FAIL layers: no objects in $OBJ (build first)"
	exit 1
fi
command -v nm >/dev/null || { echo "SKIP layers: nm (binutils) not found"; exit 0; }
command -v tsort >/dev/null || { echo "SKIP layers: tsort (coreutils) not found"; exit 0; }
T=$(mktemp -d /tmp/iotrial-layers.XXXXXX)
trap 'rm -rf "$T"' EXIT

# --- the facts -------------------------------------------------------------
# direct includes: "from to" (paths relative to src/)
find src -name '*.[ch]' | sed 's|^src/||' | sort >"$T/files"
while read -r f; do
	d=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "src/$f" |
	while read -r h; do
		if [ "$d" != . ] && [ -f "src/$d/$h" ]; then
			echo "$f $d/$h"
		elif [ -f "src/$h" ]; then
			echo "$f $h"
		elif [ -f "cli/$h" ]; then
			echo "$f cli/$h"
		fi
	done
done <"$T/files" >"$T/inc"
# reached headers from the .d files: "file.c header" (src/-relative; cli/... kept)
for dfile in $(find "$OBJ" -name '*.d'); do
	o=${dfile%.d}
	c=${o#"$OBJ"/}.c
	[ -f "src/$c" ] || continue
	sed 's/\\$//' "$dfile" | tr ' ' '\n' | sed -n 's|^src/\(.*\.h\)$|\1|p; s|^\(cli/.*\.h\)$|\1|p' |
		sort -u | sed "s|^|$c |"
done >"$T/reach"
# calls: "a.c b.c" when a.c's object uses a symbol b.c's object defines
for o in $(find "$OBJ" -name '*.o'); do
	c=${o#"$OBJ"/}
	c=${c%.o}.c
	[ -f "src/$c" ] || continue
	nm "$o" 2>/dev/null | awk -v f="$c" '$2 ~ /^[TDRBCV]$/ && NF == 3 { print "D", f, $3 }
		$1 == "U" && NF == 2 { print "U", f, $2 }'
done >"$T/syms"
awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[++n] = $2 " " $3 }
	END { for (i = 1; i <= n; i++) { split(use[i], p, " ");
		if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]], p[2] } }' \
	"$T/syms" | sort -u >"$T/calls"	# "a.c b.c symbol"
awk '$1 == "U" { print $2, $3 }' "$T/syms" | sort -u >"$T/undef"	# "a.c symbol"

# report: print PASS or FAIL name with the violations (one per line) in $T/bad
report() {
	if [ -s "$T/bad" ]; then
		echo "FAIL $1: $(sort -u "$T/bad" | head -20 | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
	else
		echo "PASS $1 ($2)"
	fi
	: >"$T/bad"
}
: >"$T/bad"
# every include (direct, or reached through headers) of files under $1 that matches $2
reach_of() {
	awk -v dir="$1" -v re="$2" 'index($1, dir) == 1 && $2 ~ re { print $1 " reaches " $2 }' \
		"$T/inc" "$T/reach"
}
calls_of() {
	awk -v dir="$1" -v re="$2" 'index($1, dir) == 1 && $2 ~ re { print $1 " calls " $2 " (" $3 ")" }' \
		"$T/calls"
}

# --- engines/ ----------------------------------------------------------------
reach_of engines/ '^(worker\.h|run\.h|trial/|report/|steady/)' >>"$T/bad"
awk 'index($1, "engines/") == 1 && index($2, "engines/") == 1 {
	a = $1; sub(/\.[ch]$/, "", a); b = $2; sub(/\.h$/, "", b)
	if (a != b) print $1 " includes another engine'"'"'s " $2 }' "$T/inc" >>"$T/bad"
awk 'index($1, "engines/") != 1 && index($2, "engines/") == 1 &&
	$1 !~ /^(engine\.c|opt_table\.c)$/ { print $1 " reaches " $2 " (only the registries may)" }' \
	"$T/inc" "$T/reach" >>"$T/bad"
report layers_engines "engines/ only through engine.h; only engine.c, opt_table.c reach engines/"

# --- trial/ ------------------------------------------------------------------
reach_of trial/ '^(worker\.h|run\.h|engine\.h|engines/|report/|steady/)' >>"$T/bad"
calls_of trial/ '^(worker|run|engine)[a-z_]*\.c$|^engines/' >>"$T/bad"
report layers_trial "no worker, run, engine, report or steady"

# --- report/ -----------------------------------------------------------------
reach_of report/ '^(worker\.h|run\.h|engine\.h|engines/|outfile\.h|file\.h|safety\.h)' >>"$T/bad"
awk 'index($1, "report/") == 1 && $2 ~ /^(open|open64|openat|openat64|creat|creat64|fopen|fopen64|freopen|fdopen|opendir|scandir|scandir64|unlink|unlinkat|rename|renameat|mkdir|rmdir|truncate|ftruncate|pwrite|pwrite64|pread|pread64|read|write|stat|stat64|lstat|access)$/ {
	print $1 " calls " $2 }' "$T/undef" >>"$T/bad"
report layers_report "renderers: no file I/O, no worker, run, engine"

# --- steady/ -----------------------------------------------------------------
reach_of steady/ '^(worker\.h|run\.h|engine\.h|engines/|report/|trial/)' >>"$T/bad"
# layer of a steady/ file (by stem); a file may use only its layer or lower
cat "$T/inc" "$T/calls" | awk '
	function layer(f,  s) { s = f; sub(/^steady\//, "", s); sub(/\.[ch]$/, "", s)
		if (s == "mser") return 0; if (s == "steady") return 1
		if (s == "steady_stream" || s == "steady_live") return 2
		if (s == "steady_tail") return 3; if (s == "steady_out") return 4
		return 5 }
	index($1, "steady/") == 1 && index($2, "steady/") == 1 && layer($2) > layer($1) {
		print $1 " (layer " layer($1) ") uses " $2 " (layer " layer($2) ")" }' >>"$T/bad"
report layers_steady "mser < rule < stream, live < tail < out < sink, job/option glue"

# --- history/ -----------------------------------------------------------------
reach_of history/ '^(worker\.h|run\.h|engine\.h|engines/|steady/)' >>"$T/bad"
calls_of history/ '^(worker|run|engine)[a-z_]*\.c$|^engines/' >>"$T/bad"
awk 'index($1, "history/") != 1 && index($2, "history/") == 1 { print $1 " reaches " $2 }' \
	"$T/inc" "$T/reach" "$T/calls" >>"$T/bad"
report layers_history "results only; only cli/ uses it"

# --- src/ never includes cli/ -------------------------------------------------
awk 'index($2, "cli/") == 1 { print $1 " reaches " $2 }' "$T/inc" "$T/reach" >>"$T/bad"
report layers_lib "the library never includes cli/"

# --- no circles ----------------------------------------------------------------
# loops of the graph in $1 ("from to" lines), one "a <-> b <-> c" line each, to $T/bad
loops_of() {
	tsort "$1" >/dev/null 2>"$T/loops"
	grep -q . "$T/loops" || return 0
	# tsort names each loop's members, one per line after "input contains a loop:"
	awk '/loop:/ { if (l != "") print l; l = ""; next } { sub(/^tsort: /, ""); l = l (l == "" ? "" : " <-> ") $0 }
		END { if (l != "") print l }' "$T/loops" >"$T/bad"
}
awk '{ print $1, $2 }' "$T/inc" "$T/calls" | sort -u >"$T/edges"
loops_of "$T/edges"
report layers_cycles "$(wc -l <"$T/edges") include and call edges, no loop"

# modules: x.c + x.h by basename, in src/ and cli/; an include of a header
# that is no module's (generated ones: gitrev.h) is no edge
find src cli -name '*.[ch]' | sort >"$T/mfiles"
sed 's|.*/||; s/\.[ch]$//' "$T/mfiles" | sort -u >"$T/modules"
while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		sed "s|.*/||; s/\\.[^.]*\$//; s|^|$(basename "$f" | sed 's/\.[ch]$//') |"
done <"$T/mfiles" | awk 'NR == FNR { mod[$1] = 1; next } $1 != $2 && ($2 in mod)' "$T/modules" - |
	sort -u >"$T/medges"
loops_of "$T/medges"
sed -i 's/^/module loop: /' "$T/bad"
report layers_modules "$(wc -l <"$T/modules") modules (x.c + x.h), $(wc -l <"$T/medges") include edges, no loop"
