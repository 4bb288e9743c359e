#!/bin/sh
# numa_cpu_nodes, numa_mem_policy (numa.h): a job on node 0 runs (bind,
# interleave:all, local, default); numa.fio's node 1 parses but is refused
# when run on a one-node machine, with one line naming the job, option and
# node; bad values are refused when parsing.  (The placement itself is
# test_numa's: affinity and get_mempolicy read back.)
. "$(dirname "$0")/lib.sh"
[ -d /sys/devices/system/node/node0 ] || { skip numa "no /sys/devices/system/node/node0"; exit 0; }
F="$T/f"
J="--name=n --filename=$F --size=1m --rw=randread --bs=4k"
for p in bind:0 interleave:all local default prefer:0; do
	# shellcheck disable=SC2086
	check "numa_runs_$p" "$IOTRIAL" $J --numa_cpu_nodes=0 --numa_mem_policy=$p --output-format=json --output="$T/o.json"
done
if [ ! -d /sys/devices/system/node/node1 ]; then
	# shellcheck disable=SC2086
	expect_exit numa_missing_node 2 "^iotrial: error: job 'n' \(command line\): numa_mem_policy: NUMA node 1 does not exist" \
		"$IOTRIAL" $J --numa_mem_policy=interleave:0-1
	# shellcheck disable=SC2086
	expect_exit numa_missing_cpu_node 2 "numa_cpu_nodes: NUMA node 1 does not exist" \
		"$IOTRIAL" $J --numa_cpu_nodes=0-1
	# shellcheck disable=SC2086
	check numa_parses_anyway "$IOTRIAL" --parse-only $J --numa_cpu_nodes=0-1 --numa_mem_policy=interleave:0-1
else
	skip numa_missing_node "this machine has a node 1"
fi
# shellcheck disable=SC2086
expect_exit numa_prefer_one 2 "'prefer:0-1'.*numa_mem_policy.*prefer takes one node" \
	"$IOTRIAL" --parse-only $J --numa_mem_policy=prefer:0-1
# shellcheck disable=SC2086
expect_exit numa_bad_mode 2 "'spread:0'.*numa_mem_policy" "$IOTRIAL" --parse-only $J --numa_mem_policy=spread:0
# shellcheck disable=SC2086
expect_exit numa_bad_list 2 "'x'.*numa_cpu_nodes" "$IOTRIAL" --parse-only $J --numa_cpu_nodes=x
