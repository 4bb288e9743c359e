#!/bin/sh
# What fio's t/random_seed.py checks, in seconds: --debug=random writes each
# job's random seeds ("rand_seeds[i]=V") into the text output; randrepeat=1
# gives the same seeds on every run, randrepeat=0 fresh ones; randseed=N
# fixes them whatever randrepeat says, and another N gives others;
# allrandrepeat=1 repeats, allrandrepeat=0 leaves the non-offset streams
# fresh (fio 3.33's split).  JSON output keeps the lines off stdout.
. "$(dirname "$0")/lib.sh"
n=0
seeds() {	# options...: the seed lines' values, one line
	n=$((n + 1))
	"$IOTRIAL" --debug=random --name=r --ioengine=null --filesize=32k --rw=randread "$@" \
		--output="$T/o$n" >/dev/null 2>&1
	grep 'rand_seeds\[' "$T/o$n" | sed 's/.*=//' | tr '\n' ' '
}
r1a=$(seeds --randrepeat=1) r1b=$(seeds --randrepeat=1)
r0a=$(seeds --randrepeat=0) r0b=$(seeds --randrepeat=0)
s1=$(seeds --randseed=12345 --randrepeat=0) s2=$(seeds --randseed=12345 --randrepeat=1)
s3=$(seeds --randseed=12345 --allrandrepeat=0) s4=$(seeds --randseed=67890)
a1a=$(seeds --allrandrepeat=1 --randrepeat=0) a1b=$(seeds --allrandrepeat=1 --randrepeat=0)
a0a=$(seeds --allrandrepeat=0) a0b=$(seeds --allrandrepeat=0)
why=""
[ "$(echo "$r1a" | wc -w)" -ge 1 ] || why="$why no-seed-lines"
[ "$r1a" = "$r1b" ] || why="$why randrepeat=1-differs"
[ "$r0a" != "$r0b" ] && [ "$r0a" != "$r1a" ] || why="$why randrepeat=0-repeats"
[ "$s1" = "$s2" ] && [ "$s1" = "$s3" ] || why="$why randseed-not-fixed"
[ "$s1" != "$s4" ] || why="$why randseeds-give-same"
[ "$a1a" = "$a1b" ] || why="$why allrandrepeat=1-differs"
[ "$a0a" != "$a0b" ] || why="$why allrandrepeat=0-repeats"
# allrandrepeat=0 keeps the offsets' seed (randrepeat=1), the others are fresh
[ "${a0a%% *}" = "${a0b%% *}" ] || why="$why allrandrepeat=0-offsets-not-repeated"
if [ -z "$why" ]; then pass "debug_random_seeds"; else fail debug_random_seeds "$why: $r1a | $r0a"; fi
"$IOTRIAL" --debug=random --name=r --ioengine=null --filesize=32k --rw=randread \
	--output-format=json >"$T/j" 2>"$T/e"
if pyjson "import json; json.load(open('$T/j'))" 2>/dev/null && grep -q 'rand_seeds\[0\]=' "$T/e"; then
	pass debug_random_json_alone
else fail debug_random_json_alone "stdout not JSON alone or no seeds on stderr"; fi
expect_exit allrandrepeat_bad 2 "allrandrepeat.*a boolean is 0 or 1" \
	"$IOTRIAL" --name=r --ioengine=null --size=32k --allrandrepeat=2
