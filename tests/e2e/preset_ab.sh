#!/bin/sh
# Suites in A/B (docs/usage.md, "7. Presets and suites"): `iotrial ab --preset=...` runs the whole suite
# per run and reports one row per test; `iotrial compare` of saved suite
# results pairs the tests by job name, whatever their order, and says which
# test one side lacks.  Known differences come from rate_iops on the null
# engine, so the verdicts are decided by the setup, not by the machine.
. "$(dirname "$0")/lib.sh"

W="$T/work"
mkdir -p "$W"

# ab over two tests of cdm: B is allowed twice A's IOPS in every test.  The
# null engine (an override like any other) keeps the disk and the machine's
# load out of it: the rate limit alone sets each side's IOPS.
"$IOTRIAL" ab --preset=cdm --section=SEQ1M_Q1T1_read,RND4K_Q1T1_write --directory="$W" \
	--size=4M --runtime=400ms --startdelay=0 --ioengine=null --runs=5 --dir="$T/ab" \
	--a rate_iops=500 --b rate_iops=1000 --output-format=json >"$T/ab.json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"]
assert [r["test"] for r in t] == ["SEQ1M_Q1T1_read", "RND4K_Q1T1_write"], t
assert [r["metric"] for r in t] == ["read.iops", "write.iops"], t
for r in t:
    assert r["n_a"] == 5 and r["n_b"] == 5, r
    # the limits are ceilings: a loaded machine can hold a run below its
    # limit (one A run at a fifth of it was seen under make check-loaded),
    # never above it, so each side mean is checked against its own limit
    # and the lead of B only as clearly positive
    assert r["a_mean"] <= 500 * 1.02 and r["b_mean"] <= 1000 * 1.02, r
    assert r["b_mean"] > 1000 * 0.5 and r["diff_pct"] > 30, r
    assert r["ci_lo"] is not None and r["ci_lo"] > 0, r
    assert r["verdict"].startswith("B is") and "faster" in r["verdict"], r
' "$T/ab.json"; then pass preset_ab_rows_per_test
else fail preset_ab_rows_per_test "rc $rc: $(tail -c 400 "$T/ab.json") $(tail -3 "$T/err")"; fi

# the text report of the same trial ends with the per-test table
"$IOTRIAL" compare "$T"/ab/run-*-A.json -- "$T"/ab/run-*-B.json >"$T/cmp.txt" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^per test (the table above adds up every test of a run; here the tests are paired by job name" "$T/cmp.txt" &&
   grep -Eq "^SEQ1M_Q1T1_read +read.iops .* 5 .* 5 +\+[0-9.]+% .*B is" "$T/cmp.txt" &&
   grep -Eq "^RND4K_Q1T1_write +write.iops " "$T/cmp.txt"; then pass preset_compare_text_rows
else fail preset_compare_text_rows "rc $rc: $(tail -5 "$T/cmp.txt") $(cat "$T/err")"; fi

# saved suites pair by name: B runs the tests in another order and adds one
# (null engine: the rate limits alone set the figures)
"$IOTRIAL" --directory="$W" --size=4M --runtime=300ms --time_based --ioengine=null \
	--filename=s.dat --stonewall \
	--name=one --rw=randread --bs=4k --rate_iops=300 \
	--name=two --rw=write --bs=64k --rate_iops=100 \
	--output-format=json --output="$T/a.json" 2>"$T/err" &&
"$IOTRIAL" --directory="$W" --size=4M --runtime=300ms --time_based --ioengine=null \
	--filename=s.dat --stonewall \
	--name=two --rw=write --bs=64k --rate_iops=200 \
	--name=three --rw=read --bs=4k \
	--name=one --rw=randread --bs=4k --rate_iops=150 \
	--output-format=json --output="$T/b.json" 2>>"$T/err" &&
"$IOTRIAL" compare --output-format=json "$T/a.json" "$T/b.json" >"$T/pair.json" 2>>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
def iops(doc, name, d):
    return [j[d]["iops"] for j in doc["jobs"] if j["jobname"] == name][0]
rows = {r["test"]: r for r in c["tests"]}
assert list(rows) == ["one", "two", "three"], list(rows)
one, two, three = rows["one"], rows["two"], rows["three"]
assert one["metric"] == "read.iops" and two["metric"] == "write.iops", rows
assert abs(one["a_mean"] - iops(a, "one", "read")) < 1e-6 * one["a_mean"], one
assert abs(one["b_mean"] - iops(b, "one", "read")) < 1e-6 * one["b_mean"], one
assert abs(two["b_mean"] - iops(b, "two", "write")) < 1e-6 * two["b_mean"], two
assert one["diff_pct"] < -30 and two["diff_pct"] > 60, (one, two)
assert one["verdict"].startswith("single run"), one
assert three["verdict"] == "only in B" and three["n_a"] == 0 and three["n_b"] == 1, three
' "$T/a.json" "$T/b.json" "$T/pair.json"; then pass preset_compare_pairs_by_name
else fail preset_compare_pairs_by_name "rc $rc: $(head -c 300 "$T/pair.json") $(cat "$T/err")"; fi

# one test per file: no per-test table (the summary over the file is the test)
"$IOTRIAL" --directory="$W" --size=1M --runtime=100ms --time_based --name=solo \
	--rw=read --output-format=json --output="$T/s1.json" 2>/dev/null &&
cp "$T/s1.json" "$T/s2.json" &&
"$IOTRIAL" compare --output-format=json "$T/s1.json" "$T/s2.json" >"$T/solo.json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
assert "tests" not in json.load(open(sys.argv[1]))
' "$T/solo.json"; then pass preset_compare_single_test_no_rows
else fail preset_compare_single_test_no_rows "rc $rc: $(cat "$T/err")"; fi
