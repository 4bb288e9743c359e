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
# script must name the loop.
t=$(mktemp -d /tmp/iotrial-layers-self.XXXXXX)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts" "$t/src" "$t/cli" "$t/build/obj"
cp "$SRC/scripts/check-layers.sh" "$t/scripts/"
printf 'int a_one(void);\n' >"$t/src/a.h"
printf 'int b_one(void);\n' >"$t/src/b.h"
printf '#include "a.h"\n#include "b.h"\nint a_one(void) { return 1; }\n' >"$t/src/a.c"
printf '#include "b.h"\n#include "a.h"\nint b_one(void) { return 2; }\n' >"$t/src/b.c"
if ! ${CC:-cc} -c -o "$t/build/obj/a.o" "$t/src/a.c" 2>/dev/null ||
   ! ${CC:-cc} -c -o "$t/build/obj/b.o" "$t/src/b.c" 2>/dev/null; then
	echo "SKIP layers_modules_selftest: no C compiler"
	exit 0
fi
out=$(sh "$t/scripts/check-layers.sh" "$t/build" 2>&1)
if echo "$out" | grep -q '^FAIL layers_modules: module loop: a <-> b$' &&
   echo "$out" | grep -q '^PASS layers_cycles'; then
	echo "PASS layers_modules_selftest"
else
	echo "FAIL layers_modules_selftest: the a <-> b loop was not named:"
	echo "$out" | sed 's/^/    /'
fi
