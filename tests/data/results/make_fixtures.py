#!/usr/bin/env python3
"""Regenerate the result fixtures in this directory (their outputs are committed).

    python3 tests/data/results/make_fixtures.py /work/shared/spec/fio-samples

seed_virtio.json / seed_passthrough.json: the seed report's two runs rebuilt as
fio 3.33 JSON for exactly its command line
    fio --name=randrw --rw=randrw --bs=4k --iodepth=32 --size=10G --numjobs=4
        --runtime=600 --time_based
i.e. no rwmixread, no ioengine (fio's default psync), no direct, and no
group_reporting: fio then prints FOUR job entries, so the report's totals
(78k/22k IOPS, 410 us / 1.4 ms) are split evenly over 4 jobs.  fio omits bare
flags such as time_based from "job options"; so do these files.  The report
gives no CPU figures, percentiles, sample spread or disk stats: those values
below are invented (plausible) and marked as such; the checks and the
comparison tests only rely on the report's own numbers.

uring_a/, uring_b/, uring_same/: sets of 5 made from the real fio output
uring.json (randrw 70/30, io_uring, QD16).  B is A with read IOPS and read
bandwidth x 1.10 and read latency / 1.10; each file carries a small jitter
whose mean factor is exactly 1, so the true differences are +10% read IOPS and
-9.09% read mean latency.  uring_same/ is A's configuration with another jitter.

jp_a/, jp_b/: sets of 3 from jp.json (json+, latency bins), B's read IOPS x 0.8
(a 20% regression) for the --fail-on-regression test.

bad/: files that must be refused.  iotrial_a.json / iotrial_b.json: iotrial's
schema (fio's plus the "iotrial" object, intervals, steady, environment).
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def dump(path, obj, prefix=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(prefix)
        json.dump(obj, f, indent=2, separators=(",", " : "))
        f.write("\n")


def pct_block(p50, p99):
    """clat percentiles shaped like fio's (invented values around p50/p99)."""
    keys = ["1.000000", "5.000000", "10.000000", "20.000000", "30.000000",
            "40.000000", "50.000000", "60.000000", "70.000000", "80.000000",
            "90.000000", "95.000000", "99.000000", "99.500000", "99.900000",
            "99.950000", "99.990000"]
    frac = [0.35, 0.45, 0.55, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.35, 1.6, 1.9]
    out = {k: int(p50 * f) for k, f in zip(keys, frac)}
    out["99.000000"] = p99
    out["99.500000"] = int(p99 * 1.3)
    out["99.900000"] = int(p99 * 2.5)
    out["99.950000"] = int(p99 * 3.4)
    out["99.990000"] = int(p99 * 6.0)
    return out


def lat(mean, n, mn, mx, sd, pct=None):
    d = {"min": mn, "max": mx, "mean": float(mean), "stddev": float(sd), "N": n}
    if pct:
        d["percentile"] = pct
    return d


def empty_dir():
    z = lat(0, 0, 0, 0, 0)
    return {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0.0,
            "runtime": 0, "total_ios": 0, "short_ios": 0, "drop_ios": 0,
            "slat_ns": z, "clat_ns": dict(z), "lat_ns": dict(z),
            "bw_min": 0, "bw_max": 0, "bw_agg": 0.0, "bw_mean": 0.0, "bw_dev": 0.0,
            "bw_samples": 0, "iops_min": 0, "iops_max": 0, "iops_mean": 0.0,
            "iops_stddev": 0.0, "iops_samples": 0}


def seed_dir(iops, lat_ns, p99, runtime_ms, share):
    ios = int(iops * runtime_ms / 1000)
    slat = 4000.0                       # invented: submission part of lat
    sd_iops = iops * 0.03               # invented: 3% interval spread
    return {"io_bytes": ios * 4096, "io_kbytes": ios * 4, "bw_bytes": int(iops * 4096),
            "bw": int(iops * 4), "iops": float(iops), "runtime": runtime_ms,
            "total_ios": ios, "short_ios": 0, "drop_ios": 0,
            "slat_ns": lat(slat, ios, 1100, 2100000, 3100),
            "clat_ns": lat(lat_ns - slat, ios, 61000, 98000000, lat_ns * 0.9,
                           pct_block(int((lat_ns - slat) * 0.8), p99)),
            "lat_ns": lat(lat_ns, ios, 66000, 98010000, lat_ns * 0.9),
            "bw_min": int(iops * 4 * 0.9), "bw_max": int(iops * 4 * 1.1), "bw_agg": share,
            "bw_mean": iops * 4.0, "bw_dev": sd_iops * 4, "bw_samples": 1200,
            "iops_min": int(iops * 0.9), "iops_max": int(iops * 1.1),
            "iops_mean": float(iops), "iops_stddev": sd_iops, "iops_samples": 1200}


def seed_job(k, rd, wr, usr, sys_):
    z = lat(0, 0, 0, 0, 0)
    return {
        "jobname": "randrw", "groupid": 0, "error": 0, "eta": 0, "elapsed": 601,
        "job options": {"name": "randrw", "rw": "randrw", "bs": "4k", "iodepth": "32",
                        "size": "10G", "numjobs": "4", "runtime": "600"},
        "read": rd, "write": wr, "trim": empty_dir(),
        "sync": {"total_ios": 0, "lat_ns": z},
        "job_runtime": 600000, "usr_cpu": usr, "sys_cpu": sys_,   # invented
        "ctx": 21000000 + k, "majf": 0, "minf": 12,
        "iodepth_level": {"1": 100.0, "2": 0.0, "4": 0.0, "8": 0.0, "16": 0.0,
                          "32": 0.0, ">=64": 0.0},
        "iodepth_submit": {"0": 0.0, "4": 100.0, "8": 0.0, "16": 0.0, "32": 0.0,
                           "64": 0.0, ">=64": 0.0},
        "iodepth_complete": {"0": 0.0, "4": 100.0, "8": 0.0, "16": 0.0, "32": 0.0,
                             "64": 0.0, ">=64": 0.0},
        "latency_ns": {k2: 0.0 for k2 in ["2", "4", "10", "20", "50", "100", "250",
                                          "500", "750", "1000"]},
        "latency_us": {"2": 0.0, "4": 0.0, "10": 0.0, "20": 0.0, "50": 0.0,
                       "100": 1.2, "250": 18.5, "500": 41.3, "750": 14.9, "1000": 7.1},
        "latency_ms": {"2": 9.8, "4": 5.4, "10": 1.5, "20": 0.2, "50": 0.1, "100": 0.01,
                       "250": 0.0, "500": 0.0, "750": 0.0, "1000": 0.0, "2000": 0.0,
                       ">=2000": 0.0},
        "latency_depth": 32, "latency_target": 0, "latency_percentile": 100.0,
        "latency_window": 0}


def seed_file(name, r_iops, w_iops, r_lat, w_lat, r_p99, w_p99, usr, sys_, disk, ts):
    jobs = []
    for k in range(4):
        rd = seed_dir(r_iops / 4, r_lat, r_p99, 600000, 25.0)
        wr = seed_dir(w_iops / 4, w_lat, w_p99, 600000, 25.0)
        jobs.append(seed_job(k, rd, wr, usr, sys_))
    rios = int(r_iops * 600)
    wios = int(w_iops * 600)
    doc = {"fio version": "fio-3.33", "timestamp": ts, "timestamp_ms": ts * 1000,
           "time": "invented", "jobs": jobs,
           "disk_util": [{"name": disk, "read_ios": rios, "write_ios": wios,
                          "read_merges": 0, "write_merges": 0,
                          "read_ticks": int(rios * r_lat / 1e6),
                          "write_ticks": int(wios * w_lat / 1e6),
                          "in_queue": int(rios * r_lat / 1e6 + wios * w_lat / 1e6),
                          "util": 99.9}]}
    dump(os.path.join(HERE, name), doc)


def scale_dir(d, f_iops, f_lat):
    for k in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "total_ios"):
        d[k] = int(d[k] * f_iops)
    d["iops"] = d["iops"] * f_iops
    for k in ("bw_min", "bw_max", "bw_mean", "bw_dev", "iops_min", "iops_max",
              "iops_mean", "iops_stddev"):
        d[k] = type(d[k])(d[k] * f_iops)
    for key in ("clat_ns", "lat_ns"):
        d[key]["mean"] = d[key]["mean"] * f_lat
        d[key]["N"] = d["total_ios"]


def make_set(src, outdir, read_factor, read_lat_factor, jitter, tag):
    base = json.load(open(src))
    for i, j in enumerate(jitter):
        doc = copy.deepcopy(base)
        doc["timestamp"] += i
        for job in doc["jobs"]:
            scale_dir(job["read"], read_factor * j, read_lat_factor / j)
            scale_dir(job["write"], j, 1 / j)
        dump(os.path.join(HERE, outdir, "run-%d.json" % (i + 1)), doc)


def bad_files():
    d = os.path.join(HERE, "bad")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "empty.json"), "w").close()
    full = open(os.path.join(HERE, "seed_virtio.json")).read()
    open(os.path.join(d, "truncated.json"), "w").write(full[: len(full) // 2])
    open(os.path.join(d, "notfio.json"), "w").write('{"name": "not a result", "values": [1, 2]}\n')
    open(os.path.join(d, "malformed.json"), "w").write('{"fio version" : "fio-3.33", "jobs" : [ {,} ]}\n')
    open(os.path.join(d, "nojobs.json"), "w").write('{"fio version" : "fio-3.33", "jobs" : []}\n')
    open(os.path.join(d, "text.json"), "w").write("fio: this is fio's text output, not JSON\n")


def iotrial_file(src, name, driver, disk, attained, scale):
    doc = copy.deepcopy(json.load(open(src)))
    job = doc["jobs"][0]
    scale_dir(job["read"], scale, 1 / scale)
    base = job["read"]["iops"]
    wave = [1.0, 1.02, 0.97, 1.01, 0.99, 1.03, 0.98, 1.0, 1.01, 0.99, 1.0, 0.98]
    job["intervals"] = [{"t_ms": 1000 * (i + 1), "ramp": i < 2,
                         "read": {"ios": int(base * w), "bytes": int(base * w) * 4096,
                                  "iops": base * w, "bw_bytes": base * w * 4096,
                                  "lat_ns": {"mean": 180.0, "min": 120, "max": 9000,
                                             "p50": 151, "p99": 262, "p99.9": 310}},
                         "write": {"ios": 0, "bytes": 0, "iops": 0.0, "bw_bytes": 0.0,
                                   "lat_ns": {"mean": 0.0, "min": 0, "max": 0, "p50": 0,
                                              "p99": 0, "p99.9": 0}}}
                        for i, w in enumerate(wave)]
    job["steady"] = {"criterion": "iops:20%", "attained": attained, "start_ms": 2000,
                     "end_ms": 12000}
    doc["iotrial"] = {
        "version": "0.1.0", "clock_source": "tsc", "partial": False,
        "environment": {
            "iotrial_version": "0.1.0",
            "kernel": {"sysname": "Linux", "release": "6.1.0-18-amd64", "machine": "x86_64"},
            "cpu": {"model": "AMD EPYC 7B13", "count": 2, "flags": "constant_tsc nonstop_tsc"},
            "memory_bytes": 4110000000, "clock_source": "kvm-clock",
            "hypervisor": {"cpuid": True, "vendor": "KVMKVMKVM", "dmi_vendor": "QEMU"},
            "iommu_groups": 0,
            "targets": [{"path": "/dev/" + disk, "type": "block",
                         "device": {"name": disk, "driver": driver,
                                    "rotational": 0, "scheduler": "none"}}]}}
    dump(os.path.join(HERE, name), doc)


def main():
    samples = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/spec/fio-samples"
    # virtio-blk side, then passthrough (report's numbers; CPU % and p99 invented)
    seed_file("seed_virtio.json", 78000, 22000, 410000, 1400000, 1236992, 4046848,
              5.2, 21.4, "vda", 1700000000)
    seed_file("seed_passthrough.json", 92000, 26000, 350000, 1200000, 1056768, 3489792,
              5.4, 21.9, "nvme0n1", 1700000700)
    jit_a = [1.00, 1.01, 0.99, 1.02, 0.98]
    jit_b = [0.99, 1.02, 1.00, 0.98, 1.01]
    uring = os.path.join(samples, "uring.json")
    make_set(uring, "uring_a", 1.0, 1.0, jit_a, "a")
    make_set(uring, "uring_b", 1.10, 1 / 1.10, jit_b, "b")
    make_set(uring, "uring_same", 1.0, 1.0, jit_b, "same")
    jp = os.path.join(samples, "jp.json")
    make_set(jp, "jp_a", 1.0, 1.0, [1.0, 1.01, 0.99], "a")
    make_set(jp, "jp_b", 0.8, 1.25, [0.99, 1.0, 1.01], "b")
    bad_files()
    prefixed = open(os.path.join(samples, "psync.json")).read()
    dump_text = "note: fio printed this line before its JSON\n\n" + prefixed
    open(os.path.join(HERE, "prefixed.json"), "w").write(dump_text)
    nulls = os.path.join(samples, "null.json")
    iotrial_file(nulls, "iotrial_a.json", "virtio_blk", "vda", True, 1.0)
    iotrial_file(nulls, "iotrial_b.json", "nvme", "nvme0n1", False, 1.05)


if __name__ == "__main__":
    main()
