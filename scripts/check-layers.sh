#!/bin/sh
# check-layers: the dependency rules of src/'s folders (docs/design.md, "The
# map"), checked on the built tree.  Prints one PASS or FAIL line per rule, as
# the tests do, so that tests/e2e/build_layers.sh counts them in make check's tally.
#
#   scripts/check-layers.sh [BUILD]      (BUILD: build or build/san, built)
#
# What is checked, from three sources:
#   - the direct #include "..." lines of every src/ file, resolved as the
#     compiler does (the file's own folder first, then src/);
#   - the compiler's .d files: every header a .c file reaches, through any
#     chain of includes;
#   - nm on the objects: which file's functions and data a file uses.
# The ranking is the table "The floors" in docs/design.md (one list: the
# docs and this check read the same rows): rank, folder, what it holds.
# Rules:
#   layers_folders  every .c and .h of src/ sits in a ranked folder (a
#                   subfolder, io/engines/, takes its folder's rank).
#   layers_rank     nothing includes, reaches or calls upward: a file of a
#                   folder uses files of its own folder or of lower ranks
#                   only, so the folder graph has no loop.  cli/ is the top.
#   layers_engines  outside io/engines/ only the registry (io/engine.c)
#                   reaches it, and no engine includes another engine's
#                   header: an engine's options are in its own file, and
#                   the option table gathers them through the registry.
#   layers_report   report/ renders a result: it calls no function that
#                   opens, reads or removes files (it writes to the FILE *
#                   it is given).
#   layers_steady   inside steady/ a file uses only its own layer or lower
#                   ones (mser < rule < stream, live < tail < out < sink,
#                   job and option glue).
#   layers_history  nothing else in src/ reaches history/: only cli/ stores
#                   and queries the history.
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
if [ -z "$(find "$OBJ" -name "*.o" 2>/dev/null | head -n 1)" ]; then
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
# the ranking: "| rank | `src/folder/` | ..." rows of docs/design.md's "The floors"
awk '/^## The floors/ { on = 1; next } on && /^## / { on = 0 }
	on && /^\| *[0-9]+ *\| *`/ { split($0, c, "|"); r = c[2]; f = c[3]
		gsub(/[ `]/, "", r); gsub(/[ `]/, "", f); sub(/^src\//, "", f); sub(/\/$/, "", f)
		print f, r }' docs/design.md 2>/dev/null >"$T/ranks"
if [ ! -s "$T/ranks" ]; then
	echo "FAIL layers: no ranking found (docs/design.md, section \"The floors\")"
	exit 1
fi
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
# cli/'s includes too ("cli/x.c header"), for the loops: cli/ is one folder of the graph
for f in $(find cli -name '*.[ch]' 2>/dev/null | sort); do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		if [ -f "cli/$h" ]; then
			echo "$f cli/$h"
		elif [ -f "src/$h" ]; then
			echo "$f $h"
		fi
	done
done >>"$T/inc"
# reached headers from the .d files: "file.c header" (src/-relative; cli/... kept)
for dfile in $(find "$OBJ" -name '*.d'); do
	o=${dfile%.d}
	c=${o#"$OBJ"/}.c
	[ -f "src/$c" ] || continue
	sed 's/\\$//' "$dfile" | tr ' ' '\n' | sed -n 's|^src/\(.*\.h\)$|\1|p; s|^\(cli/.*\.h\)$|\1|p' |
		sort -u | sed "s|^|$c |"
done >"$T/reach"
# calls: "a.c b.c" when a.c's object uses a symbol b.c's object defines
# (src/'s objects as src/-relative names, cli/'s as cli/x.c)
for o in $(find "$OBJ" "$BUILD/cli" -name '*.o' 2>/dev/null); do
	case $o in
	"$OBJ"/*) c=${o#"$OBJ"/}; c=${c%.o}.c; [ -f "src/$c" ] || continue ;;
	*) c=cli/$(basename "$o" .o).c; [ -f "$c" ] || continue ;;
	esac
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
# folder of a src/-relative path: its first component ("io/engines/x.c" -> io);
# "cli/..." -> cli; a file directly in src/ -> "."
folder_awk='function folder(p) { if (p !~ /\//) return "."; sub(/\/.*/, "", p); return p }'

# --- every file in a ranked folder ---------------------------------------------
awk "$folder_awk"'
	NR == FNR { rank[$1] = $2; next }
	{ f = folder($1); if (!(f in rank)) print $1 " is in no ranked folder (" f ")" }' \
	"$T/ranks" "$T/files" >>"$T/bad"
report layers_folders "$(wc -l <"$T/files") files in $(wc -l <"$T/ranks") ranked folders"

# --- the ranking -----------------------------------------------------------------
# includes (direct and reached) and calls, src/ and cli/, never upward
awk "$folder_awk"'
	NR == FNR { rank[$1] = $2; if ($2 > top) top = $2; next }
	{ a = folder($1); b = folder($2)
	  ra = (a == "cli") ? top + 1 : rank[a]; rb = (b == "cli") ? top + 1 : rank[b]
	  if (a != b && (a in rank || a == "cli") && (b in rank || b == "cli") && ra <= rb)
		print $1 " (" a ", rank " ra ") uses " $2 " (" b ", rank " rb ")" }' \
	"$T/ranks" "$T/inc" "$T/reach" "$T/calls" >>"$T/bad"
report layers_rank "$(tr '\n' ' ' <"$T/ranks" | awk '{ for (i = 1; i < NF; i += 2) printf "%s%s", (i > 1 ? " < " : ""), $i }') < cli: nothing uses upward"

# --- io/engines/ -------------------------------------------------------------------
awk 'index($1, "io/engines/") == 1 && index($2, "io/engines/") == 1 {
	a = $1; sub(/\.[ch]$/, "", a); b = $2; sub(/\.h$/, "", b)
	if (a != b) print $1 " includes another engine'"'"'s " $2 }' "$T/inc" >>"$T/bad"
awk 'index($1, "io/engines/") != 1 && index($2, "io/engines/") == 1 &&
	$1 != "io/engine.c" { print $1 " reaches " $2 " (only the registry may)" }' \
	"$T/inc" "$T/reach" >>"$T/bad"
report layers_engines "only io/engine.c reaches io/engines/; no engine includes another's header"

# --- report/ -----------------------------------------------------------------
awk 'index($1, "report/") == 1 && $2 ~ /^(open|open64|openat|openat64|creat|creat64|fopen|fopen64|freopen|fdopen|opendir|scandir|scandir64|unlink|unlinkat|rename|renameat|mkdir|rmdir|truncate|ftruncate|pwrite|pwrite64|pread|pread64|read|write|stat|stat64|lstat|access)$/ {
	print $1 " calls " $2 }' "$T/undef" >>"$T/bad"
report layers_report "renderers: no file I/O"

# --- steady/ -----------------------------------------------------------------
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
awk 'index($1, "history/") != 1 && index($1, "cli/") != 1 && index($2, "history/") == 1 {
	print $1 " reaches " $2 }' "$T/inc" "$T/reach" "$T/calls" >>"$T/bad"
report layers_history "only cli/ uses history/"

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
