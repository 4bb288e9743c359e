# disable_slat / disable_clat as fio 3.33 reads them: the latency is not kept,
# its JSON block says N 0 with no percentiles, its text line is not printed,
# and with disable_clat fio's latency distribution (latency_ns/us/ms and the
# text's "lat (usec)   :" lines, which fio counts with clat) is all zeros.
# Each of the four combinations on io_uring (both off: iotrial submits and
# waits in one enter, and reads no issue time) is checked against fio run
# here on the same job; without fio, against the same rules written down.
# The counts hold on a busy machine: what is checked is which figures exist.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
dd if=/dev/zero of=f bs=1M count=4 status=none

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# shape JSON TEXT: one line that says which latencies exist, as this test sees them
cat >shape.py <<'PY'
import json, re, sys
d = json.loads(open(sys.argv[1]).read())
t = open(sys.argv[2]).read()
r = d["jobs"][0]["read"]
out = []
for k in ("slat_ns", "clat_ns", "lat_ns"):
    out.append("%s:N=%s,pct=%s" % (k, "0" if r[k]["N"] == 0 else "all" if r[k]["N"] == r["total_ios"] else r[k]["N"],
                                  "percentile" in r[k]))
dist = sum(sum(d["jobs"][0][k].values()) for k in ("latency_ns", "latency_us", "latency_ms"))
out.append("dist=%s" % ("0" if dist == 0 else "100" if abs(dist - 100) < 0.5 else "%.1f" % dist))
for k in ("slat", "clat", " lat"):
    out.append("%s-line=%s" % (k.strip(), bool(re.search(r"^\s*%s \((n|u|m)sec\): min=" % re.escape(k.strip()), t, re.M))))
out.append("dist-lines=%s" % bool(re.search(r"^\s*lat \((n|u|m)sec\)\s*: [<>=]*\d+=", t, re.M)))
print(" ".join(out))
PY

# what fio 3.33 prints, written down (checked against it where it is present)
expect() {
	s=$1 c=$2
	sn=$([ "$s" = 1 ] && echo 0 || echo all)
	cn=$([ "$c" = 1 ] && echo 0 || echo all)
	cp=$([ "$c" = 1 ] && echo False || echo True)
	dist=$([ "$c" = 1 ] && echo 0 || echo 100)
	sl=$([ "$s" = 1 ] && echo False || echo True)
	cl=$([ "$c" = 1 ] && echo False || echo True)
	echo "slat_ns:N=$sn,pct=False clat_ns:N=$cn,pct=$cp lat_ns:N=all,pct=False dist=$dist" \
		"slat-line=$sl clat-line=$cl lat-line=True dist-lines=$cl"
}

for s in 0 1; do
	for c in 0 1; do
		name=opt_disable_slat${s}_clat${c}
		job="--name=j --ioengine=io_uring --rw=randread --bs=4k --size=4m --io_size=8m --iodepth=16
		     --filename=f --disable_slat=$s --disable_clat=$c"
		# shellcheck disable=SC2086
		"$IOTRIAL" $job --output-format=json >it.json 2>it.err &&
			"$IOTRIAL" $job >it.txt 2>>it.err
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "$name" "iotrial exits $rc: $(head -c 300 it.err)"
			continue
		fi
		got=$(python3 shape.py it.json it.txt) || { fail "$name" "unreadable output"; continue; }
		want=$(expect "$s" "$c")
		if [ $have_fio -eq 1 ]; then
			# shellcheck disable=SC2086
			fio $job --output-format=json >fio.json 2>/dev/null &&
				fio $job >fio.txt 2>/dev/null &&
				want=$(python3 shape.py fio.json fio.txt) ||
				{ fail "$name" "fio failed on the job"; continue; }
		fi
		if [ "$got" = "$want" ]; then
			pass "$name"
		else
			fail "$name" "iotrial: $got; fio: $want"
		fi
	done
done
