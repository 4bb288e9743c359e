# fio's log files through the CLI (docs/time-series.md, "fio's log files"): the same jobs run by iotrial
# and by fio 3.33 on the null engine, in two directories, must give the same
# file names, the same columns, the same line counts (one averaging window of
# slack for timing, 3% for one line per I/O) and the same stamps, directions
# and block sizes; and fio's own readers (fiologparser_hist.py, fio2gnuplot,
# fio_generate_plots) must read ours.  Jobs:
#   avg  randrw, log_avg_msec=250, hist every 500 ms, 2 s, iodepth=1
#   pio  one line per I/O with log_offset=1, numjobs=2, iodepth=2
#   pjl  per_job_logs=0: both clones append to one file per kind
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null 2>&1; then
	skip logs_fio_format "fio not installed"
	exit 0
fi
# the runs happen inside scratch directories: a relative $IOTRIAL must survive
IOTRIAL=$(cd "$(dirname "$IOTRIAL")" && pwd)/$(basename "$IOTRIAL")
NULL="--ioengine=null --bs=4k --size=1g --time_based --output-format=json"
AVG="--name=avg $NULL --rw=randrw --runtime=2 --rate_iops=500 --write_bw_log=a --write_iops_log=a
	--write_lat_log=a --write_hist_log=a --log_hist_msec=500 --log_avg_msec=250"
PIO="--name=pio $NULL --rw=randread --runtime=1 --rate_iops=200 --numjobs=2 --iodepth=2
	--write_lat_log=p --write_iops_log=p --write_bw_log=p --log_offset=1"
PJL="--name=pjl $NULL --rw=randread --runtime=1 --rate_iops=200 --numjobs=2 --write_bw_log=b
	--write_hist_log=h --log_hist_msec=250 --per_job_logs=0 --log_avg_msec=250"
pids=""
for j in avg pio pjl; do
	mkdir -p "$T/ours/$j" "$T/fio/$j"
	case $j in avg) args=$AVG ;; pio) args=$PIO ;; pjl) args=$PJL ;; esac
	# $args is split on purpose: it is a list of options
	(cd "$T/ours/$j" && "$IOTRIAL" $args >out.json 2>err.txt; echo $? >rc) &
	pids="$pids $!"
	(cd "$T/fio/$j" && fio $args >out.json 2>err.txt; echo $? >rc) &
	pids="$pids $!"
done
for p in $pids; do wait "$p"; done

cat >"$T/cmp.py" <<'PY'
import os, sys

T = sys.argv[1]

def report(name, errs):
    print(("FAIL %s: %s" % (name, "; ".join(errs[:4]))) if errs else "PASS %s" % name)

def logs(d):
    return {f: [l.split(", ") for l in open(os.path.join(d, f)).read().splitlines()]
            for f in sorted(os.listdir(d)) if f.endswith(".log")}

def compare(job, per_io, ndirs, win_ms):
    errs = []
    for who in ("ours", "fio"):
        rc = open("%s/%s/%s/rc" % (T, who, job)).read().strip()
        if rc != "0":
            errs.append("%s exit %s: %s" % (who, rc, open("%s/%s/%s/err.txt" % (T, who, job)).read()[:200]))
    if errs:
        return errs
    ours, fio = logs("%s/ours/%s" % (T, job)), logs("%s/fio/%s" % (T, job))
    if sorted(ours) != sorted(fio):
        return ["files %s, fio's %s" % (sorted(ours), sorted(fio))]
    for f in fio:
        o, g = ours[f], fio[f]
        if "slat" in f and not g:
            continue		# logs_slat_inline below
        if {len(l) for l in o} != {len(l) for l in g}:
            errs.append("%s: %s columns, fio's %s" % (f, sorted({len(l) for l in o}),
                                                         sorted({len(l) for l in g})))
            continue
        slack = max(3, len(g) * 3 // 100) if per_io else ndirs
        if abs(len(o) - len(g)) > slack:
            errs.append("%s: %d lines, fio's %d" % (f, len(o), len(g)))
        if {l[1 if "hist" in f else 2] for l in o} != {l[1 if "hist" in f else 2] for l in g}:
            errs.append("%s: directions differ" % f)
        bs = 2 if "hist" in f else 3
        if {l[bs] for l in o} != {l[bs] for l in g}:
            errs.append("%s: block sizes %s, fio's %s" % (f, {l[bs] for l in o}, {l[bs] for l in g}))
        # fio logs the window ending with the job when it overruns (a loaded
        # machine): one window of slack on the last stamp
        if o and g and abs(int(o[-1][0]) - int(g[-1][0])) > (30 if per_io else win_ms + 20):
            errs.append("%s: last stamp %s ms, fio's %s" % (f, o[-1][0], g[-1][0]))
        if len(g[0]) > 6 and not per_io and any(l[4] != "0" for l in o):
            errs.append("%s: an averaged line with a non-zero offset" % f)
    return errs

report("logs_avg_like_fio", compare("avg", False, 2, 500))
report("logs_per_io_offset_like_fio", compare("pio", True, 1, 0))
report("logs_per_job_logs_0_like_fio", compare("pjl", False, 2, 250))

# fio issues no slat for an I/O its engine completed at queue time (null at
# iodepth=1), and leaves the slat file empty; so must we
o = open("%s/ours/avg/a_slat.1.log" % T).read() if os.path.exists("%s/ours/avg/a_slat.1.log" % T) else None
g = open("%s/fio/avg/a_slat.1.log" % T).read()
if g:
    print("SKIP logs_slat_inline: this fio logged slat for inline completions")
elif o is None or o:
    print("FAIL logs_slat_inline: fio's slat log is empty, ours has %s lines (the worker "
          "should pass FIOLOG_NONE for I/O completed at queue time)" % (o.count("\n") if o else "no"))
else:
    print("PASS logs_slat_inline")
PY
python3 "$T/cmp.py" "$T" || fail logs_fio_format "comparer crashed"

# fio's readers on the files the CLI wrote
if ! /usr/bin/python3 -c 'import numpy, pandas' 2>/dev/null ||
   [ ! -f /usr/share/doc/fio/fiologparser_hist.py.gz ]; then
	skip logs_fiologparser_hist "needs fiologparser_hist.py and python3-numpy, python3-pandas"
else
	zcat /usr/share/doc/fio/fiologparser_hist.py.gz >"$T/flh.py"
	/usr/bin/python3 "$T/flh.py" -i 500 "$T/ours/avg/a_clat_hist.1.log" >"$T/flh.ours" 2>&1
	r1=$?
	/usr/bin/python3 "$T/flh.py" -i 500 "$T/fio/avg/a_clat_hist.1.log" >"$T/flh.fio" 2>&1
	no=$(grep -c '^[0-9]' "$T/flh.ours")
	nf=$(grep -c '^[0-9]' "$T/flh.fio")
	if [ $r1 -ne 0 ] || grep -qi 'error\|warning' "$T/flh.ours"; then
		fail logs_fiologparser_hist "$(head -c 300 "$T/flh.ours")"
	elif [ "$no" -lt 3 ] || [ $((no - nf)) -gt 1 ] || [ $((nf - no)) -gt 1 ]; then
		fail logs_fiologparser_hist "$no rows from ours, $nf from fio's"
	else
		pass logs_fiologparser_hist
	fi
fi
if ! command -v fio2gnuplot >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import six' 2>/dev/null; then
	skip logs_fio2gnuplot "needs fio2gnuplot and python3-six"
else
	for who in ours fio; do
		(cd "$T/$who/avg" && /usr/bin/python3 "$(command -v fio2gnuplot)" -p 'a_bw.1.log' \
			>f2g.out 2>&1)
	done
	vo=$(sed -n 's/^values_count=//p' "$T/ours/avg/a_bw.1.global" 2>/dev/null)
	vf=$(sed -n 's/^values_count=//p' "$T/fio/avg/a_bw.1.global" 2>/dev/null)
	if [ -z "$vo" ] || [ -z "$vf" ] || [ $((vo - vf)) -gt 2 ] || [ $((vf - vo)) -gt 2 ]; then
		fail logs_fio2gnuplot "values_count ours '$vo', fio's '$vf': $(head -c 200 "$T/ours/avg/f2g.out")"
	else
		pass logs_fio2gnuplot
	fi
fi
if ! command -v fio_generate_plots >/dev/null 2>&1 || ! command -v gnuplot >/dev/null 2>&1; then
	skip logs_fio_generate_plots "needs fio_generate_plots and gnuplot"
else
	(cd "$T/ours/avg" && fio_generate_plots a >gp.out 2>&1)
	if grep -q 'rror' "$T/ours/avg/gp.out" || ! grep -q '<path' "$T/ours/avg/a-bw.svg" 2>/dev/null; then
		fail logs_fio_generate_plots "$(head -c 300 "$T/ours/avg/gp.out")"
	else
		pass logs_fio_generate_plots
	fi
fi
