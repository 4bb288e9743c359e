#!/bin/sh
# seeds.sh NAME DIR: add the seed inputs of harness NAME, made from the
# project's own test data (tests/data), to corpus directory DIR.  Seeds are
# named by content (cksum) so re-seeding a grown corpus adds nothing twice.
name=$1 dir=$2
data=$(dirname "$0")/../data
mkdir -p "$dir" || exit 1

put() {	# put FILE: copy FILE into the corpus under a content name
	sum=$(cksum <"$1" | cut -d' ' -f1)
	cp "$1" "$dir/seed-$sum" 2>/dev/null
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

results() { find "$data/results" "$data/series" -name '*.json' | sort; }
jobfiles() { find "$data/jobs" -name '*.fio' ! -name 'include*' | sort; }

# The "key=value" lines of the job files (no comments or section headers).
job_values() { jobfiles | xargs cat | grep -av '^[;#[]' | grep -a '='; }

case "$name" in
resultread)
	for f in $(results); do put "$f"; done
	;;
compare)
	set -- $(results | grep -v /bad/)
	prev=""
	for f in "$@"; do
		if [ -n "$prev" ]; then
			{ printf 'noise=2\nalpha=0.05\nbootstrap-seed=7\ncv-limit=10\n\0'
			  cat "$prev"; printf '\0'; cat "$f"; } >"$tmp"
			put "$tmp"
		fi
		prev=$f
	done
	;;
jobfile)
	for f in $(jobfiles); do put "$f"; done
	;;
cmdline)
	for f in $(jobfiles); do
		sed -n -e 's/^\[\(.*\)\]$/--name=\1/p' -e 's/^\([a-z_]*\)=\(.*\)$/--\1=\2/p' \
			-e 's/^\([a-z_]*\)$/--\1/p' "$f" >"$tmp"
		[ -s "$tmp" ] && put "$tmp"
	done
	printf -- '--name=x\n--rw=randrw\n--bs=4k,8k\n--size=1g\n--numjobs=2\n--offset_increment=1m\n--section=a,b\n--output-format=json\n' >"$tmp"
	put "$tmp"
	;;
num)
	# selector byte (which parser; bit 7: kb_base=1000) + a value
	{ job_values | sed 's/^[^=]*=//'
	  printf '%s\n' 4k 1M-4M 10s 250ms 4k/50:8k/50 4k,64k, 50% 0x10 1e3 '((4k*2)+1)' \
		'$ncpus' 16E 18446744073709551615 -1 1:2 1k-4k,2k-8k 3.5 1.5m; } | sort -u |
	while IFS= read -r v; do
		for k in 0 1 2 3 4 5 6 7 8 128; do
			printf "\\$(printf %o "$k")%s" "$v" >"$tmp"
			put "$tmp"
		done
	done
	;;
qmp)
	# QEMU's replies as QEMU 7.2 writes them (tests/unit/env/test_qmp.c has more)
	for l in '{"QMP": {"version": {"qemu": {"micro": 0, "minor": 2, "major": 7}}, "capabilities": ["oob"]}}' \
		'{"return": {}}' '{"event": "RESUME", "timestamp": {"seconds": 1, "microseconds": 2}}' \
		'{"error": {"class": "CommandNotFound", "desc": "The command x has not been found"}}' \
		'{"return": [{"device": "drive-virtio0", "qdev": "/machine/peripheral/virtio0/virtio-backend", "stats": {"rd_operations": 2426, "wr_operations": 0, "flush_operations": 0, "rd_bytes": 9936896, "wr_bytes": 0, "rd_total_time_ns": 325503000, "wr_total_time_ns": 0, "flush_total_time_ns": 0}}]}' \
		'{"return": [{"device": "drive-virtio0", "inserted": {"cache": {"direct": true, "writeback": true, "no-flush": false}, "image": {"virtual-size": 67108864, "actual-size": 0}}}]}' \
		'{"return": [{"id": "iothread-virtio0", "thread-id": 17699, "poll-max-ns": 32768}]}' \
		'{"return": [{"cpu-index": 0, "thread-id": 17705, "target": "x86_64"}]}'; do
		printf '%s' "$l" >"$tmp"
		put "$tmp"
	done
	;;
*)
	echo "seeds.sh: unknown harness '$name'" >&2
	exit 2
	;;
esac
exit 0
