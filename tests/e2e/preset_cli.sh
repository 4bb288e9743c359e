#!/bin/sh
# Presets (docs/usage.md, "7. Presets and suites"): `preset list` / `preset show`, unknown names, the
# precedence of command-line options over the preset's, `preset show` output
# that parses back to the very jobs --preset runs (compared through
# --showcmd), each preset run shortened on a scratch file, the cdm and
# snia-iops summary tables checked figure by figure against the JSON, and the
# snia-iops preset refused on a device holding a filesystem.
. "$(dirname "$0")/lib.sh"

PRESETS="cdm seed seed-async oltp snia-iops"

# list: every name, one line each
"$IOTRIAL" preset list >"$T/list" 2>"$T/err"
rc=$?
ok=1
for p in $PRESETS; do grep -q "^$p " "$T/list" || ok=0; done
if [ $rc -eq 0 ] && [ $ok -eq 1 ] && [ "$(wc -l <"$T/list")" -eq 5 ]; then pass preset_list
else fail preset_list "rc $rc: $(cat "$T/list" "$T/err")"; fi

expect_exit preset_unknown 2 "unknown preset 'nosuch' \(presets: cdm, seed, seed-async, oltp, snia-iops\)" \
	"$IOTRIAL" --preset=nosuch --size=1M
expect_exit preset_show_unknown 2 "unknown preset 'nosuch' \(presets: cdm, " \
	"$IOTRIAL" preset show nosuch
expect_exit preset_with_name 2 "--preset=cdm cannot be combined with --name jobs" \
	"$IOTRIAL" --preset=cdm --name=x --size=1M
expect_exit preset_bad_override 2 "invalid|unknown|bad" \
	"$IOTRIAL" --preset=cdm --bs=4q
expect_exit preset_comment_value 2 "option 'filename' value 'a;b' cannot be added to a preset" \
	"$IOTRIAL" --preset=oltp --filename='a;b'

# show parses back: the printed file runs to the same jobs as --preset, with and
# without overrides (whose values must win over the preset's own)
for p in $PRESETS; do
	for over in "" "--size=8M --runtime=2 --directory=$T"; do
		# shellcheck disable=SC2086
		"$IOTRIAL" preset show "$p" $over >"$T/$p.fio" 2>"$T/err" &&
		"$IOTRIAL" --preset="$p" $over --showcmd >"$T/a" 2>>"$T/err" &&
		"$IOTRIAL" "$T/$p.fio" --showcmd >"$T/b" 2>>"$T/err"
		rc=$?
		name="preset_show_roundtrip_$p${over:+_override}"
		if [ $rc -ne 0 ] || [ ! -s "$T/a" ] || ! cmp -s "$T/a" "$T/b"; then
			fail "$name" "rc $rc: $(diff "$T/a" "$T/b" | head -5) $(cat "$T/err")"
		elif [ -n "$over" ] && { grep -v -- "--size=8388608 .*--runtime=2000000us" "$T/a" ||
					 grep -v -- "--directory=$T" "$T/a"; } >/dev/null; then
			fail "$name" "an override did not win: $(head -3 "$T/a")"
		else
			pass "$name"
		fi
	done
done

# cdm: 8 tests named by the test, one after another; the preset's 5 s pause is
# an override away; runs shortened.  O_DIRECT is not on every file system
# (tmpfs): there the presets run buffered, through the same override.
W="$T/work"
mkdir -p "$W"
DIRECT=""
if ! "$IOTRIAL" --name=probe --filename="$W/probe" --size=64k --bs=4k --direct=1 \
	--output-format=json >/dev/null 2>&1; then
	DIRECT="--direct=0"
	echo "note: O_DIRECT refused under $T: presets run with --direct=0"
fi
rm -f "$W/probe"
# shellcheck disable=SC2086
"$IOTRIAL" --preset=cdm --directory="$W" --size=8M --runtime=300ms --startdelay=0 $DIRECT \
	--output-format=normal,json --output="$T/cdm.out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, re, sys
text = open(sys.argv[1]).read()
i = text.index("\n{")
summary, d = text[:i], json.loads(text[i:])
names = [j["jobname"] for j in d["jobs"]]
want = [t + "_" + rw for t in ("SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1")
        for rw in ("read", "write")]
assert names == want, names
assert len(set(j["groupid"] for j in d["jobs"])) == 8, "not stonewalled"
lines = summary[summary.index("Summary of preset cdm"):].splitlines()
assert lines[1].split()[0] == "test", lines[1]
rows = {l.split()[0]: l.split()[1:] for l in lines[2:] if l.strip() and not l.startswith("  warning [")}
# the warnings that qualify the figures follow the rows, short: a 300 ms run is short
assert any(l.startswith("  warning [short_run] 0.") for l in lines), lines
assert list(rows) == ["SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1"], rows
jobs = {j["jobname"]: j for j in d["jobs"]}
for t, cells in rows.items():
    r, w = jobs[t + "_read"]["read"], jobs[t + "_write"]["write"]
    exp = ["%.2f" % (r["bw_bytes"] / 1e6), "%.2f" % (w["bw_bytes"] / 1e6),
           "%.2f" % r["iops"], "%.2f" % w["iops"],
           "%.2f" % (r["lat_ns"]["mean"] / 1e3), "%.2f" % (w["lat_ns"]["mean"] / 1e3)]
    assert cells == exp, (t, cells, exp)
    assert r["iops"] > 0 and w["iops"] > 0, t
    o = jobs[t + "_read"]["job options"]
    assert o.get("size") == "8M" and o.get("runtime") == "300ms", o
# no ramp in cdm: the steady-state lines say nothing of one
assert "after ramp" not in summary, "a ramp is named"
' "$T/cdm.out"; then pass preset_cdm_summary_equals_json
else fail preset_cdm_summary_equals_json "rc $rc: $(tail -c 600 "$T/err")"; fi

# --output-format=summary: the table alone (one cdm test here, by --section)
# shellcheck disable=SC2086
"$IOTRIAL" --preset=cdm --section=SEQ1M_Q1T1_read --directory="$W" --size=8M --runtime=300ms \
	--startdelay=0 $DIRECT --output-format=summary >"$T/sum.out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -v '^  warning \[' "$T/sum.out" | grep -c .)" -eq 3 ] &&
   grep -q '^Summary of preset cdm: ' "$T/sum.out" && grep -Eq '^SEQ1M_Q1T1 +[0-9.]+ +- ' "$T/sum.out" &&
   grep -Eq '^  warning \[short_run\] 0\.[0-9] s run \(< 10 s\)$' "$T/sum.out"
then pass preset_summary_only; else fail preset_summary_only "rc $rc: $(cat "$T/sum.out" "$T/err")"; fi

# seed, seed-async, oltp: each runs shortened, and its summary has its one test
for p in seed seed-async oltp; do
	# shellcheck disable=SC2086
	"$IOTRIAL" --preset="$p" --directory="$W" --size=4M --runtime=300ms --ramp_time=0 $DIRECT \
		--output="$T/$p.out" 2>"$T/err"
	rc=$?
	job=randrw
	[ "$p" = oltp ] && job=oltp
	if [ $rc -eq 0 ] && grep -q "^Summary of preset $p:" "$T/$p.out" &&
	   grep -Eq "^$job +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ " "$T/$p.out"; then
		pass "preset_run_$p"
	else
		fail "preset_run_$p" "rc $rc: $(tail -3 "$T/$p.out") $(cat "$T/err")"
	fi
done
if grep -q "warning \[depth_ignored\] job 'randrw': iodepth=32 has no effect: ioengine=psync" "$T/seed.out" &&
   ! grep -q "depth_ignored" "$T/seed-async.out"; then pass preset_seed_depth_warning
else fail preset_seed_depth_warning "$(grep -h warning "$T/seed.out" "$T/seed-async.out")"; fi

# snia-iops: preconditioning then the 7 x 7 matrix; the table equals the JSON
# shellcheck disable=SC2086
"$IOTRIAL" --preset=snia-iops --directory="$W" --size=4M --runtime=50ms $DIRECT \
	--output-format=normal,json --output="$T/snia.out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
text = open(sys.argv[1]).read()
i = text.index("\n{")
summary, d = text[:i], json.loads(text[i:])
jobs = {j["jobname"]: j for j in d["jobs"]}
assert list(jobs)[:2] == ["precond_seq", "precond_rand"], list(jobs)[:3]
lines = summary[summary.index("Summary of preset snia-iops"):].splitlines()
cols = lines[1].split()[1:]
assert cols == ["r0w100", "r5w95", "r35w65", "r50w50", "r65w35", "r95w5", "r100w0"], cols
rows = [l.split() for l in lines[2:] if l.strip() and not l.startswith("  warning [")]
assert [r[0] for r in rows] == ["1m", "128k", "64k", "32k", "16k", "8k", "4k"], rows
for r in rows:
    for c, cell in zip(cols, r[1:]):
        j = jobs["iops_%s_%s" % (r[0], c)]
        assert cell == "%.0f" % (j["read"]["iops"] + j["write"]["iops"]), (r[0], c, cell)
        mix = int(c[1:c.index("w")])
        # the pure columns do one direction only (a 5% share may draw no I/O in 50 ms)
        assert mix != 0 or j["read"]["total_ios"] == 0, (r[0], c)
        assert mix != 100 or j["write"]["total_ios"] == 0, (r[0], c)
' "$T/snia.out"; then pass preset_snia_matrix_equals_json
else fail preset_snia_matrix_equals_json "rc $rc: $(tail -c 600 "$T/err")"; fi

# the sequential preconditioning writes the region twice in 128 KiB blocks
# (alone: the runtime override above would cap it)
# shellcheck disable=SC2086
"$IOTRIAL" --preset=snia-iops --section=precond_seq --directory="$W" --size=4M $DIRECT \
	--output-format=json --output="$T/precond.json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert [j["jobname"] for j in d["jobs"]] == ["precond_seq"], d["jobs"]
w = d["jobs"][0]["write"]
assert w["io_bytes"] == 2 * 4 << 20 and w["total_ios"] == 2 * 32, w
assert d["jobs"][0]["read"]["total_ios"] == 0
' "$T/precond.json"; then pass preset_snia_precondition_twice
else fail preset_snia_precondition_twice "rc $rc: $(cat "$T/err")"; fi

# snia-iops writes: on a device with a filesystem it is refused like any write job
why=""
if [ "$(id -u)" -ne 0 ]; then why="not root: loop devices need CAP_SYS_ADMIN"
elif [ ! -e /dev/loop-control ]; then why="no /dev/loop-control"
else
	for tool in losetup mkfs.ext4; do
		command -v $tool >/dev/null 2>&1 || { why="$tool is missing"; break; }
	done
fi
if [ -n "$why" ]; then
	skip preset_snia_refuses_device "$why"
else
	img=/tmp/iotrial-loop-$$-preset.img
	truncate -s 16M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1
	dev=$(attach_loop "$img" 2>/dev/null)
	if [ -z "$dev" ]; then
		skip preset_snia_refuses_device "losetup failed"
	else
		before=$(md5sum <"$dev")
		expect_exit preset_snia_refuses_device 4 "$dev.*(signature|ext4|filesystem)" \
			"$IOTRIAL" --preset=snia-iops --filename="$dev" --size=4M --runtime=50ms
		[ "$(md5sum <"$dev")" = "$before" ] || fail preset_snia_device_untouched "the device changed"
		losetup -d "$dev"
	fi
	rm -f "$img"
fi
