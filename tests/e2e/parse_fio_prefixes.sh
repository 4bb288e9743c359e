#!/bin/sh
# fio's abbreviations of command-line options over the whole set: fio reads
# its command line with getopt_long_only, so an exact name wins, a prefix of
# one name is that option, and a prefix of two or more is refused as
# ambiguous.  fio's list (its process options, every job option and alias,
# and the options of the job's engine) is read from fio 3.33 itself: glibc
# names every candidate of an ambiguous prefix, so "--a" ... "--z" list them
# all.  Then for every name, its shortest unique prefix and the prefix one
# character shorter, iotrial must resolve to what fio does (the same option,
# refused as ambiguous, or unknown), after --name=x under psync and
# io_uring.  Where fio knows no such name, iotrial may know one of its own
# (--prese is --preset), never one of fio's.  fio itself is run on each
# prefix in four too (except those that name a process option, which would
# act: --server, --crctest...) so the model above is checked against fio,
# not assumed.  No I/O: --parse-only.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
if ! command -v fio >/dev/null 2>&1 || ! fio --version 2>/dev/null | grep -q '^fio-3\.33'; then
	skip fio_prefixes "fio 3.33 is not installed (it is the reference)"
	exit 0
fi
python3 - "$IOTRIAL" <<'PY'
import re, string, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

pool = ThreadPoolExecutor(4)

iotrial = sys.argv[1]

def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout + r.stderr

def fio_names(eng):
    """fio's whole getopt list after --name=x under engine eng."""
    names = set()
    firsts = string.ascii_lowercase + string.digits + "_-"
    outs = pool.map(lambda c: run(["fio", "--parse-only", "--name=x", "--ioengine=" + eng, "--" + c]),
                    firsts)
    for rc, out in outs:
        m = re.search(r"is ambiguous; possibilities:(.*)", out)
        if m:
            names.update(re.findall(r"'--([^']+)'", m.group(1)))
        else:
            # one name only: it says which when its value is missing
            m = re.search(r"option '--([^']+)' requires an argument", out) or \
                re.search(r"option (\S+) requires an argument", out)
            if m:
                names.add(m.group(1))
    return names

def model(names, p):
    if p in names:
        return p
    hits = [n for n in names if n.startswith(p)]
    return hits[0] if len(hits) == 1 else ("AMBIGUOUS" if hits else "UNKNOWN")

PROCESS_ACTS = ("server", "daemonize", "client", "remote-config", "crctest", "memcpytest",
                "cpuclock-test", "help", "version", "cmdhelp", "enghelp", "inflate-log",
                "trigger", "trigger-file", "trigger-remote", "trigger-timeout", "profile",
                "idle-prof", "merge-blktrace-only", "output", "latency-log", "debug",
                "section", "alloc-size", "max-jobs", "terse-version", "status-interval",
                "eta", "eta-interval", "eta-newline", "aux-path", "output-format",
                "append-terse", "bandwidth-log", "minimal", "parse-only", "showcmd",
                "readonly", "warnings-fatal")

# The prefix goes last, bare: a value it needs is then missing, and the
# message names the option it resolved to (getopt's, fio's or iotrial's);
# one that takes none shows in --debug=parse's trace.
def fio_says(eng, p):
    rc, out = run(["fio", "--parse-only", "--debug=parse", "--name=x", "--ioengine=" + eng,
                   "--size=4k", "--filename=f", "--" + p])
    if "is ambiguous" in out:
        return "AMBIGUOUS"
    # getopt names the option whose value is missing, then fio calls it unrecognized
    m = re.search(r"option '--([^']+)' requires an argument", out) or \
        re.search(r"option (\S+) requires an argument", out)
    if m:
        return m.group(1)
    if "unrecognized option" in out:
        return "UNKNOWN"
    h = re.findall(r"handle_option=([^,]+),", out)
    return h[-1] if h else "?" + out[:120]

def iotrial_says(eng, p):
    rc, out = run([iotrial, "--parse-only", "--debug=parse", "--name=x", "--ioengine=" + eng,
                   "--size=4k", "--filename=f", "--" + p])
    if "ambiguous option" in out:
        return "AMBIGUOUS"
    if re.search(r"unknown option '(?:--)?" + re.escape(p) + "'", out):
        return "UNKNOWN"
    # the job's own check after the options were read names the option first
    m = re.search(r"option '(?:--)?([^' ]+)'", out) or \
        re.search(r"job 'x' \(command line\): ([a-z_]+) ", out)
    h = re.findall(r"handle_option=([^,]+),", out)
    if m:
        return m.group(1)
    if rc == 0 and len(h) > 4:	# name, ioengine, size, filename, then the prefix's
        return h[-1]
    return "PROCESS" if rc == 0 else "?" + out[:120]

def canon(eng, name):
    """iotrial names an alias's row by its canonical name: fio's alias -> row."""
    rc, out = run([iotrial, "--cmdhelp=" + name])
    m = re.match(r"\s*([A-Za-z0-9_-]+)", out)
    return m.group(1) if rc == 0 and m else name

fails, checked, fio_checked = [], 0, 0
lists = {}
for eng in ("psync", "io_uring"):
    names = lists[eng] = fio_names(eng)
    if len(names) < 200:
        print("FAIL fio_prefixes_%s: fio's list has %d names" % (eng, len(names)))
        sys.exit(0)
    probes = set()
    for n in names:
        for k in range(1, len(n) + 1):
            if model(names, n[:k]) == n:
                probes.add(n[:k])
                if k > 1:
                    probes.add(n[:k - 1])
                break
    if eng != "psync":	# the engine's own options are what differs
        base = lists["psync"]
        probes = {p for p in probes if model(names, p) != model(base, p)}
    ordered = sorted(probes)
    iot = dict(zip(ordered, pool.map(lambda p: iotrial_says(eng, p), ordered)))
    # fio starts slowly: glibc's rule is checked on every 4th prefix
    sample = [p for i, p in enumerate(ordered) if i % 4 == 0 and model(names, p) not in PROCESS_ACTS]
    fio = dict(zip(sample, pool.map(lambda p: fio_says(eng, p), sample)))
    for p in ordered:
        want = model(names, p)
        if p in fio:
            got = fio[p]
            fio_checked += 1
            if got not in (want, canon(eng, want)) and not (want in ("AMBIGUOUS", "UNKNOWN") and got == want):
                fails.append("%s --%s: fio %s, model %s" % (eng, p, got, want))
        got = iot[p]
        checked += 1
        if want == "UNKNOWN":
            # fio knows no such name: iotrial may know one of its own (--prese is
            # --preset, --nowa names io_uring's nowait), never one of fio's
            ok = got not in names or got == "UNKNOWN"
        else:
            ok = got == want or (want != "AMBIGUOUS" and
                                 (got == canon(eng, want) or (got == "PROCESS" and want in PROCESS_ACTS)))
        if not ok:
            fails.append("%s --%s: iotrial %s, fio %s" % (eng, p, got, want))
if fails:
    print("FAIL fio_prefixes: %d of %d prefixes differ: %s" % (len(fails), checked, "; ".join(fails[:12])))
else:
    print("PASS fio_prefixes (%d prefixes, %d also run through fio)" % (checked, fio_checked))
PY

# the script's own line: fio 3.33 reads --append as --append-terse (terse added)
"$IOTRIAL" --name=x --append=1 --size=1M --filename="$T/f" --ioengine=null --rw=read >a.out 2>a.err
rc=$?
if [ $rc -eq 0 ] && grep -q '^3;' a.out; then pass fio_prefix_append
else fail fio_prefix_append "exit $rc: $(head -c 200 a.err)"; fi
expect_exit fio_prefix_ambiguous 2 "ambiguous option '--a': .*--append-terse.*--allrandrepeat" \
	"$IOTRIAL" --name=x --a=1 --parse-only
