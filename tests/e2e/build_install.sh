#!/bin/sh
# `make install PREFIX=...` puts a working binary in PREFIX/bin (and honours
# DESTDIR), the same build the tests run.  Runs make from the source tree
# this script lives in; skips when make or the tree is not at hand.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v make >/dev/null 2>&1 || [ ! -f "$SRC/Makefile" ]; then
	skip install "make or the source tree ($SRC/Makefile) is missing"
	exit 0
fi
# The build the suite tests; SANITIZE=1 runs install the sanitized binary.
case "$IOTRIAL" in */build/san/iotrial) san=1 ;; *) san=0 ;; esac

if make -s -C "$SRC" SANITIZE=$san install PREFIX="$T/p" >"$T/log" 2>&1; then
	pass install_runs
else
	fail install_runs "make install failed: $(tail -c 300 "$T/log")"
	exit 0
fi
bin="$T/p/bin/iotrial"
if [ -x "$bin" ] && [ ! -d "$bin" ]; then pass install_binary; else fail install_binary "no executable $bin"; fi

# it runs: the version matches the tree's VERSION file, and a real job works
want=$(cat "$SRC/VERSION")
got=$("$bin" --version 2>&1)
case "$got" in
*"$want"*) pass install_version ;;
*) fail install_version "'$got' does not name version $want" ;;
esac
if "$bin" --name=x --rw=randread --size=1M --filename="$T/f" --output-format=json >"$T/j" 2>"$T/err" &&
	pyjson "
import json
j = json.load(open('$T/j'))['jobs'][0]
assert j['read']['io_bytes'] == 1048576, j['read']['io_bytes']
assert j['error'] == 0
"; then
	pass install_runs_a_job
else
	fail install_runs_a_job "$(head -c 300 "$T/err")"
fi
# the installed copy runs from anywhere: no path back into the build tree
if (cd / && env -i PATH="$T/p/bin:/usr/bin:/bin" iotrial --parse-only --name=x --rw=read --size=1M \
	--filename="$T/f") >/dev/null 2>"$T/err"; then
	pass install_on_path
else
	fail install_on_path "$(head -c 300 "$T/err")"
fi

# the man page is installed, and reads as one
man="$T/p/share/man/man1/iotrial.1"
if [ -f "$man" ] && grep -q '^\.TH IOTRIAL 1' "$man" && grep -q '^\.SH EXIT STATUS' "$man"; then
	pass install_man_page
else
	fail install_man_page "no man page at $man"
fi
# the documents the man page names are installed where it says (it once
# named docs/json.md "in the source tree"), and it shows no build's revision
# (a hash in the page goes stale with the next commit)
docdir=$(sed -n 's|.*\\fI\(/[^\\]*share/doc/iotrial\)\\fR.*|\1|p' "$man" | sort -u)
missing=""
for d in $(grep -o '\\fI[a-z\\-]*\.md\\fR' "$man" | sed 's/\\fI//; s/\\fR//; s/\\-/-/g' | sort -u); do
	[ -f "$docdir/$d" ] || missing="$missing $d"
done
if [ "$docdir" != "$T/p/share/doc/iotrial" ]; then
	fail man_page_docs "the page names '$docdir' as the documentation directory, installed in $T/p/share/doc/iotrial"
elif [ -n "$missing" ]; then
	fail man_page_docs "named in the man page, not installed in $docdir:$missing"
elif grep -q 'git [0-9a-f]\{7\}' "$man"; then
	fail man_page_docs "a git revision in the page: $(grep -o 'git [0-9a-f]*' "$man")"
else
	pass man_page_docs
fi
if command -v man >/dev/null 2>&1; then
	if MANWIDTH=80 man -l "$man" 2>"$T/err" | grep -q 'iotrial compare' && [ ! -s "$T/err" ]; then
		pass man_page_renders
	else
		fail man_page_renders "$(head -c 300 "$T/err")"
	fi
else
	skip man_page_renders "man is not installed"
fi
# the JSON carries the version and, built from git, the revision --version prints
if pyjson "
import json, subprocess, sys
v = json.load(open('$T/j'))['iotrial']
out = subprocess.run(['$bin', '--version'], capture_output=True, text=True).stdout
assert v['version'] == '$want', v
assert v['git_revision'] is None or ('git ' + v['git_revision']) in out, (v, out)
"; then pass json_version; else fail json_version "$(head -c 300 "$T/j")"; fi

# DESTDIR stages the same layout under another root
if make -s -C "$SRC" SANITIZE=$san install PREFIX=/usr/local DESTDIR="$T/stage" >"$T/log" 2>&1 &&
	[ -x "$T/stage/usr/local/bin/iotrial" ] && cmp -s "$T/stage/usr/local/bin/iotrial" "$bin"; then
	pass install_destdir
else
	fail install_destdir "$T/stage/usr/local/bin/iotrial missing or differs: $(tail -c 300 "$T/log")"
fi

# uninstall removes what install put there, and nothing else
make -s -C "$SRC" SANITIZE=$san uninstall PREFIX="$T/p" >"$T/log" 2>&1
if [ ! -e "$bin" ] && [ ! -e "$man" ] && [ ! -e "$T/p/share/doc/iotrial" ] && [ -d "$T/p/bin" ]; then
	pass uninstall
else
	fail uninstall "left behind: $(ls -R "$T/p" | head -c 300)"
fi
