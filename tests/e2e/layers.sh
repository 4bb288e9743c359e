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
