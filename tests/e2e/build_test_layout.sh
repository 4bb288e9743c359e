#!/bin/sh
# Where tests sit and how they are named (tests/README), so a newcomer finds a
# module's test beside its source's path and an area's scripts by one prefix:
#  - each unit test tests/unit/<dir>/test_<name>.c has a module src/<dir>/<m>.c
#    (cli/<m>.c for tests/unit/cli/) with <name> = <m> or <m>_<aspect>;
#  - no two unit tests share a base name (tests/run.sh names them by it);
#  - each e2e script starts with a prefix of tests/README's table of areas.
# check-fast: reads file names only
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SRC" || exit 1

# unit tests: the module a test is named after, in its mirror folder
bad=""
for c in $(find tests/unit -name 'test_*.c' | sort); do
	rel=${c#tests/unit/}
	dir=$(dirname "$rel")
	name=$(basename "$rel" .c)
	name=${name#test_}
	if [ "$dir" = . ]; then
		bad="$bad $c (not in a folder: tests/unit/<folder of its module>/)"
		continue
	fi
	case $dir in cli) mdir=cli ;; *) mdir=src/$dir ;; esac
	found=""
	n=$name
	while :; do	# test_a_b_c: module a_b_c, else a_b, else a
		[ -f "$mdir/$n.c" ] && { found=$n; break; }
		case $n in *_*) n=${n%_*} ;; *) break ;; esac
	done
	[ -n "$found" ] || bad="$bad $c (no module $mdir/<m>.c for test_<m>[_<aspect>])"
done
if [ -z "$bad" ]; then
	pass "unit_tests_named_after_module ($(find tests/unit -name 'test_*.c' | wc -l) tests)"
else
	fail unit_tests_named_after_module "$bad"
fi

dups=$(find tests/unit -name 'test_*.c' -exec basename {} \; | sort | uniq -d | tr '\n' ' ')
if [ -z "$dups" ]; then pass unit_test_names_unique; else fail unit_test_names_unique "$dups"; fi

# e2e scripts: one prefix per area, the areas being tests/README's table
areas=$(sed -n 's/^| `\([a-z0-9]*_\)` |.*/\1/p' tests/README)
if [ "$(echo "$areas" | wc -w)" -lt 10 ]; then
	fail e2e_areas_listed "tests/README's table gives $(echo "$areas" | wc -w) areas: '$areas'"
else
	pass "e2e_areas_listed ($(echo "$areas" | wc -w) areas)"
fi
bad=""
for t in tests/e2e/*.sh; do
	n=$(basename "$t" .sh)
	[ "$n" = lib ] && continue
	ok=0
	for a in $areas; do
		case $n in "$a"?*) ok=1; break ;; esac
	done
	[ $ok = 1 ] || bad="$bad $n"
done
if [ -z "$bad" ]; then
	pass e2e_scripts_in_an_area
else
	fail e2e_scripts_in_an_area "no area prefix of tests/README:$bad"
fi
