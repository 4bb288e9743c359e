#!/bin/sh
# iotrial's rbd engine next to fio's on one image of a throw-away test
# cluster (cluster.sh): 4k randread and 4k randwrite at iodepth 16, each
# RUNTIME seconds (default 10), direct=1 (librbd's cache off: the cluster is
# measured), run alternately ROUNDS times (default 2) so that drift on a busy
# machine hits both tools alike.  Prints one line per run: IOPS, clat mean
# and p99.  Not part of make check (it takes minutes); docs/ceph.md.
#   sh tests/ceph/compare.sh [IOTRIAL] [RUNTIME] [ROUNDS]
cd "$(dirname "$0")/../.." || exit 1
IOTRIAL=${1:-$PWD/build/iotrial}
RUNTIME=${2:-10}
ROUNDS=${3:-2}
. tests/ceph/cluster.sh
D=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-ceph.XXXXXX")
trap 'ceph_cluster_stop; rm -rf "$D"' EXIT INT TERM
ceph_cluster_start "$D/ceph" || exit 1
echo "cluster started in $CEPH_START_SECONDS s"
ceph_pool_create bench && rbd create --size 256M bench/img || exit 1
cd "$D" || exit 1
R="--name=r --ioengine=rbd --pool=bench --rbdname=img --output-format=json"
# shellcheck disable=SC2086
"$IOTRIAL" $R --rw=write --bs=1M --iodepth=4 >/dev/null || exit 1	# reads find data
for rw in randread randwrite; do
	k=0
	while [ $k -lt "$ROUNDS" ]; do
		k=$((k + 1))
		for tool in iotrial fio; do
			[ $tool = fio ] && bin=fio || bin=$IOTRIAL
			# shellcheck disable=SC2086
			$bin $R --rw=$rw --bs=4k --iodepth=16 --direct=1 --time_based \
				--runtime="$RUNTIME" >"$D/o.json" 2>"$D/err" || { cat "$D/err"; exit 1; }
			python3 -c "
import json
j = json.load(open('$D/o.json'))['jobs'][0]
d = j['${rw#rand}']
c = d['clat_ns']
print('%-7s %-9s round %d: %7.0f IOPS, clat mean %6.0f us, p99 %6.0f us' % ('$tool', '$rw', $k,
      d['iops'], c['mean'] / 1000, c['percentile']['99.000000'] / 1000))"
		done
	done
done
