#!/bin/sh
# Every time-valued option's `--cmdhelp` names the unit a bare number is read
# in, and that is the unit the run uses and fio's HOWTO gives (the
# help once said "bare number: seconds" for thinktime, thinktime_spin and
# latency_target, which take microseconds as in fio).  For each option whose
# help type is a time:
#   - the unit the parser applies, measured: --showcmd of NAME=3 and of
#     NAME=3s (the same representation either way), whose ratio is 1 for
#     seconds, 1000 for milliseconds, 10^6 for microseconds;
#   - the help's "bare number: UNIT" must be that unit;
#   - a default or range written bare in the help would be read back in
#     that unit, so a number stored in another unit carries its suffix;
#   - fio's HOWTO (when installed), for the options fio has, says the same
#     unit ("When the unit is omitted, the value is interpreted in ...").
# check-fast: parse-level (--parse-only, --cmdhelp, --showcmd, usage errors)
. "$(dirname "$0")/lib.sh"

# options that only parse beside another
extra() {
	case $1 in
	latency_target) echo "--latency_window=1s" ;;
	latency_window) echo "--latency_target=1s" ;;
	thinktime_spin) echo "--thinktime=1h" ;;
	grace_time) echo "--ioengine=exec --program=/bin/true --runtime=1" ;;
	*) echo "--ioengine=null" ;;
	esac
}

# every option's help from one run (--cmdhelp=all, as fio's), split into one
# file per option; the time-valued ones are then probed with --showcmd
"$IOTRIAL" --cmdhelp=all >"$T/all" 2>&1 || fail cmdhelp_all "exit $?: $(head -c 200 "$T/all")"
mkdir "$T/h.d"
awk -v d="$T/h.d" '/^$/ { if (f) close(f); f = ""; next } /^[a-z_0-9]+: / && !f { f = d "/" substr($1, 1, length($1) - 1) } f { print > f }' "$T/all"
n=$(ls "$T/h.d" | wc -l)
m=$("$IOTRIAL" --cmdhelp | awk '$1 ~ /^[a-z_][a-z_0-9]*$/' | wc -l)
if [ "$n" -eq "$m" ] && [ "$n" -gt 100 ]; then pass "cmdhelp_all (all $n options described)"
else fail cmdhelp_all "--cmdhelp=all described $n options, --cmdhelp lists $m"; fi
: >"$T/time"
for h in "$T"/h.d/*; do
	o=$(basename "$h")
	grep -q '^  type:    time' "$h" || continue
	"$IOTRIAL" --cmdhelp="$o" | cmp -s - "$h" || fail "cmdhelp_all_$o" "--cmdhelp=$o differs from its part of --cmdhelp=all"
	unit=$(sed -n 's/^  type:    time (bare number: \([a-z]*\);.*/\1/p' "$h")
	for v in 3 3s; do
		# shellcheck disable=SC2046
		"$IOTRIAL" --showcmd --name=t --size=1m $(extra "$o") --"$o"=$v >"$T/s.$v" 2>&1
	done
	a=$(grep -o -- "--$o=[0-9]*[a-z]*" "$T/s.3" | sed 's/.*=//')
	b=$(grep -o -- "--$o=[0-9]*[a-z]*" "$T/s.3s" | sed 's/.*=//')
	dflt=$(sed -n 's/^  default: //p' "$h")
	range=$(sed -n 's/^  range:   //p' "$h")
	echo "$o|$unit|$a|$b|$dflt|$range" >>"$T/time"
done

HOWTO=""
for f in /usr/share/doc/fio/HOWTO.rst.gz /usr/share/doc/fio/HOWTO.gz; do
	[ -f "$f" ] && { zcat "$f" >"$T/howto" 2>/dev/null && HOWTO="$T/howto"; break; }
done

python3 - "$T/time" "$HOWTO" <<'PY'
import re, sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1]) if l.strip()]
howto = open(sys.argv[2]).read() if sys.argv[2] else ""
per = {"seconds": 1, "milliseconds": 1000, "microseconds": 10**6}

def num(v):
    m = re.fullmatch(r"(\d+)(us|ms|s)?", v)
    if not m:
        return None
    return int(m.group(1)) * {None: 1, "us": 1, "ms": 1000, "s": 10**6}[m.group(2)], m.group(2)

def howto_unit(name):
    # the option's own section: from ".. option:: NAME" to the next option
    m = re.search(r"^\.\. option:: %s\b.*?(?=^\.\. option::|\Z)" % re.escape(name), howto, re.M | re.S)
    if not m:
        return None
    text = " ".join(m.group(0).split())
    for pat in (r"interpreted in (\w+)", r"given in (\w+)", r"[Vv]alue is in (\w+)",
                r"time, in (\w+),", r"is (\d+) (second)"):
        u = re.search(pat, text)
        if u:
            w = u.group(u.lastindex).lower()
            return {"second": "seconds", "usec": "microseconds", "msec": "milliseconds"}.get(w, w)
    return None

if len(rows) < 8:
    print("FAIL cmdhelp_units: only %d time options found in --cmdhelp" % len(rows)); sys.exit()
checked_fio = 0
for name, unit, a, b, dflt, rng in rows:
    errs = []
    if unit not in per:
        errs.append("help says no bare unit (%r)" % unit)
    pa, pb = num(a) if a else None, num(b) if b else None
    if not pa or not pb or pa[1] != pb[1]:
        errs.append("--showcmd gave %r and %r" % (a, b))
    else:
        ratio = pb[0] // pa[0] if pa[0] else 0
        measured = {1: "seconds", 1000: "milliseconds", 10**6: "microseconds"}.get(ratio)
        if measured != unit:
            errs.append("help says %s, the parser reads 3 as 3 %s (3s/3 = %d)" % (unit, measured, ratio))
        # a bare number in the help must mean what it says: a stored unit
        # differing from the bare one shows as a suffix in --showcmd, and
        # must in the help too
        if pa[1] is not None:
            for what, v in (("default", dflt), ("range", rng)):
                if any(x != "0" and not x.endswith(pa[1]) for x in re.findall(r"\d+[a-z]*", v)):
                    errs.append("%s %s has no unit, stored in %s" % (what, v, pa[1]))
    fio = howto_unit(name) if howto else None
    if fio:
        checked_fio += 1
        if fio != unit:
            errs.append("fio's HOWTO reads a bare number as %s, the help as %s" % (fio, unit))
    if errs:
        print("FAIL cmdhelp_unit_%s: %s" % (name, "; ".join(errs)))
    else:
        print("PASS cmdhelp_unit_%s (bare: %s%s)" % (name, unit, ", as fio's HOWTO" if fio else ""))
if not howto:
    print("SKIP cmdhelp_units_fio: fio's HOWTO (/usr/share/doc/fio/HOWTO.rst.gz) is not installed")
elif checked_fio < 6:
    print("FAIL cmdhelp_units_fio: the HOWTO named a unit for only %d of the options" % checked_fio)
PY
