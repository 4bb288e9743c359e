#!/bin/sh
# Resolved values agree with fio's own parser (fio --debug=parse prints each
# parsed number as "out=N"): sizes with fio's KiB quirk, kb_base, hex, times,
# per-direction lists.  Skipped when fio is not installed.
. "$(dirname "$0")/lib.sh"
if ! command -v fio >/dev/null 2>&1; then
	skip fio_compare "fio is not installed"
	exit 0
fi
IOTRIAL="$IOTRIAL" python3 - <<'PY'
import os, re, subprocess
iot = os.environ["IOTRIAL"]
# (option, value, extra options before it)
cases = [
    ("bs", "4KiB", []), ("bs", "4kib", []), ("bs", "4k", []), ("bs", "4ki", []), ("bs", "4KB", []),
    ("bs", "1m", []), ("bs", "1mib", []), ("bs", "4k,64k", []), ("bs", "4k", ["--kb_base=1000"]),
    ("bs", "4kib", ["--kb_base=1000"]), ("size", "1MiB", []), ("size", "1t", []), ("size", "1ti", []),
    ("size", "1pib", []), ("size", "1GiB", []), ("size", "10G", []), ("rate_iops", "1k", []),
    ("rate_iops", "1ki", []), ("rate_iops", "1kib", []), ("rate", "1m,2m", []),
    ("iodepth", "0x10", []), ("offset", "0x1000", []), ("runtime", "1m", []),
    ("runtime", "1500ms", []), ("runtime", "10us", []), ("runtime", "2H", []),
    ("runtime", "1d", []), ("runtime", "5msec", []), ("runtime", "600", []),
    ("startdelay", "10", []), ("ramp_time", "5mS", []), ("ss_dur", "1h", []),
    ("ss_ramp", "30", []), ("blockalign", "8k", []), ("offset_increment", "1m", []),
    ("nrfiles", "1k", []), ("fsync", "1k", []), ("loops", "1k", []), ("log_avg_msec", "100", []),
    ("rwmixread", "70", []), ("numjobs", "0x4", []), ("log_avg_msec", "2k", []),
    ("log_hist_msec", "1k", []), ("size", "0x10b", ["--bs=16"]), ("runtime", "2S", []),
]
# Values fio 3.33 reads in a way iotrial will not copy (it refuses them):
# a unit after hex is ignored, a hex time is microseconds, "sec" and "min"
# are microseconds, log_*_msec take size units, fractions are truncated.
refused = [
    ("size", "0x10k"), ("bs", "0x1M"), ("runtime", "0x10"), ("runtime", "2sec"),
    ("runtime", "2min"), ("ramp_time", "1min"), ("log_avg_msec", "2s"),
    ("log_avg_msec", "2ms"), ("log_hist_msec", "1000us"), ("size", "1.5k"),
    ("runtime", "1.5"),
]
def canon(opt):
    out = subprocess.run([iot, "--cmdhelp=" + opt], capture_output=True, text=True).stdout
    return out.split(":")[0].strip()
fails = 0
for opt, val, extra in cases:
    f = subprocess.run(["fio", "--parse-only", "--debug=parse", "--name=x"] + extra +
                       ["--%s=%s" % (opt, val)], capture_output=True, text=True)
    # the out= values printed after the last option fio handled (ours; fio
    # names it by its canonical name, which may differ from what was typed)
    text = f.stdout + f.stderr
    tail = text[max(m.start() for m in re.finditer(r" handle_option=", text)):]
    fio_vals = [int(v) for v in re.findall(r"out=(\d+)", tail)]
    i = subprocess.run([iot, "--showcmd", "--ioengine=null", "--name=x"] + extra +
                       ["--%s=%s" % (opt, val)], capture_output=True, text=True)
    name = canon(opt)
    m = re.search(r"--%s=(\S+)" % re.escape(name), i.stdout)
    if m:
        ours = m.group(1)
    else:  # equal to the default: --cmdhelp says what that is
        h = subprocess.run([iot, "--cmdhelp=" + opt], capture_output=True, text=True).stdout
        ours = re.search(r"default: (\S+)", h).group(1)
    ours = [int(v[:-2] if v.endswith("us") else v) for v in ours.split(",")]
    label = "fio_%s=%s%s" % (opt, val, "".join(extra).replace("--", "_"))
    if i.returncode != 0 or not fio_vals:
        print("FAIL %s: iotrial rc %d (%s), fio values %s" % (label, i.returncode, i.stderr.strip(), fio_vals))
        fails += 1
    elif ours[:len(fio_vals)] != fio_vals:
        print("FAIL %s: fio %s, iotrial %s" % (label, fio_vals, ours))
        fails += 1
    else:
        print("PASS %s" % label)
for opt, val in refused:
    f = subprocess.run(["fio", "--parse-only", "--debug=parse", "--name=x", "--%s=%s" % (opt, val)],
                       capture_output=True, text=True)
    text = f.stdout + f.stderr
    tail = text[max(m.start() for m in re.finditer(r" handle_option=", text)):]
    fio_vals = re.findall(r"out=(\d+)", tail)
    i = subprocess.run([iot, "--parse-only", "--ioengine=null", "--name=x", "--%s=%s" % (opt, val)],
                       capture_output=True, text=True)
    label = "refused_%s=%s" % (opt, val)
    # fio takes it (silently, with its own reading); iotrial must say no, by name
    if f.returncode != 0 or not fio_vals:
        print("FAIL %s: fio no longer accepts it (rc %d): revisit docs/numbers.md" % (label, f.returncode))
    elif i.returncode != 2 or ("'%s'" % val) not in i.stderr:
        print("FAIL %s: iotrial rc %d: %s (fio reads %s)" % (label, i.returncode, i.stderr.strip(), fio_vals[-1]))
    else:
        print("PASS %s (fio reads %s)" % (label, fio_vals[-1]))
PY
