#!/bin/sh
# The dependency rules of src/'s folders and "no circles" (docs/design.md,
# "The map"), checked on the objects of the build under test by
# scripts/check-layers.sh: one PASS/FAIL line per rule, counted in the tally,
# so an include or call that crosses a rule turns make check red.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$SRC/build}
if [ ! -d "$B/obj" ]; then
	echo "SKIP layers: no objects in $B/obj (run from make check)"
	exit 0
fi
sh "$SRC/scripts/check-layers.sh" "$B"

# The module rule sees a loop no single file closes: in a scratch tree, a.c
# includes b.h and b.c includes a.h (x.c + x.h is one module, so a <-> b),
# while no header includes back, so the file-level rule passes.  The
# script must name the loop.  In the same tree, low/ (rank 0) includes
# high/ (rank 1): the ranking rule must name that use.
t=$(mktemp -d /tmp/iotrial-layers-self.XXXXXX)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts" "$t/src/high" "$t/src/low" "$t/cli" "$t/docs" "$t/build/obj/high" "$t/build/obj/low"
cp "$SRC/scripts/check-layers.sh" "$t/scripts/"
printf '## The floors\n\n| rank | folder | what |\n|---|---|---|\n| 0 | `src/low/` | below |\n| 1 | `src/high/` | above |\n\n## Next\n' >"$t/docs/design.md"
printf 'int a_one(void);\n' >"$t/src/high/a.h"
printf 'int b_one(void);\n' >"$t/src/high/b.h"
printf '#include "high/a.h"\n#include "high/b.h"\nint a_one(void) { return 1; }\n' >"$t/src/high/a.c"
printf '#include "high/b.h"\n#include "high/a.h"\nint b_one(void) { return 2; }\n' >"$t/src/high/b.c"
printf '#include "high/a.h"\nint c_one(void) { return a_one(); }\n' >"$t/src/low/c.c"
if ! ${CC:-cc} -I"$t/src" -c -o "$t/build/obj/high/a.o" "$t/src/high/a.c" 2>/dev/null ||
   ! ${CC:-cc} -I"$t/src" -c -o "$t/build/obj/high/b.o" "$t/src/high/b.c" 2>/dev/null ||
   ! ${CC:-cc} -I"$t/src" -c -o "$t/build/obj/low/c.o" "$t/src/low/c.c" 2>/dev/null; then
	echo "SKIP layers_modules_selftest: no C compiler"
	exit 0
fi
out=$(cd "$t" && sh scripts/check-layers.sh build 2>&1)
if echo "$out" | grep -q '^FAIL layers_modules: module loop: a <-> b$' &&
   echo "$out" | grep -q '^PASS layers_cycles'; then
	echo "PASS layers_modules_selftest"
else
	echo "FAIL layers_modules_selftest: the a <-> b loop was not named:"
	echo "$out" | sed 's/^/    /'
fi
# the use upward is named as an include and as a call, and nothing else fails there
if echo "$out" | grep '^FAIL layers_rank: ' | grep -q 'low/c.c (low, rank 0) uses high/a.h (high, rank 1)' &&
   echo "$out" | grep '^FAIL layers_rank: ' | grep -q 'low/c.c (low, rank 0) uses high/a.c (high, rank 1)' &&
   echo "$out" | grep -q '^PASS layers_folders'; then
	echo "PASS layers_rank_selftest"
else
	echo "FAIL layers_rank_selftest: low/c.c's include and call upward were not named:"
	echo "$out" | sed 's/^/    /'
fi
