#!/bin/sh
# A throw-away single-node Ceph cluster for the rbd engine's tests, from
# Debian's packages (ceph-mon, ceph-osd, ceph-common), the way Ceph's own
# vstart.sh builds one: one monitor and one OSD on 127.0.0.1, all state in
# one temp directory, no systemd, no cephadm, no manager (the monitor creates
# pools and serves maps without one; RBD I/O goes client -> OSD).
#
# The OSD uses memstore (objects in the OSD's memory, capped by
# memstore_device_bytes): nothing touches a disk, it starts in seconds, and
# stopping the OSD frees everything.  Authentication is off (auth_*_required
# = none) and pools have one replica (osd_pool_default_size = 1 with
# mon_allow_pool_size_one), which is what a one-OSD cluster needs to be
# active+clean.
#
# Sourced (tests/e2e/engine_rbd.sh):
#   . tests/ceph/cluster.sh
#   ceph_cluster_start DIR    start it; exports CEPH_CONF=DIR/ceph.conf, so
#                             every librados client (rbd, rados, iotrial,
#                             fio) finds it; 0 when it serves I/O, else 1
#                             with the reason on stderr (and it is stopped)
#   ceph_pool_create NAME     a replicated pool, initialised for RBD
#   ceph_cluster_stop         kill the daemons (process groups), remove DIR
# or run:
#   sh tests/ceph/cluster.sh start DIR   prints "export CEPH_CONF=..." lines
#   sh tests/ceph/cluster.sh stop DIR
# The caller traps EXIT to call ceph_cluster_stop.  Knobs (environment):
# CEPH_MEMSTORE_BYTES (default 1 GiB), CEPH_START_TIMEOUT (default 60 s).

# ceph_cluster_missing: the missing programs' names, or nothing.
ceph_cluster_missing() {
	_m=""
	for _p in ceph-mon ceph-osd ceph monmaptool rbd rados uuidgen; do
		command -v "$_p" >/dev/null 2>&1 || _m="$_m $_p"
	done
	echo "${_m# }"
}

# A TCP port on 127.0.0.1 nobody listens on (the monitor's; the OSD takes
# free ones from its own range).
_ceph_free_port() {
	_p=$(( 20000 + ($$ * 7 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 20000 ))
	_n=0
	while [ $_n -lt 200 ]; do
		if ! ss -Htln "sport = :$_p" 2>/dev/null | grep -q .; then
			echo "$_p"
			return 0
		fi
		_p=$(( _p + 1 ))
		_n=$(( _n + 1 ))
	done
	return 1
}

# _ceph_wait SECONDS CMD...: run CMD until it succeeds, at most SECONDS.
_ceph_wait() {
	_end=$(( $(date +%s) + $1 ))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.2
	done
	return 0
}

ceph_cluster_start() {
	CEPH_DIR=$1
	_t0=$(date +%s.%N)
	_miss=$(ceph_cluster_missing)
	if [ -n "$_miss" ]; then
		echo "ceph cluster: missing programs: $_miss" >&2
		return 1
	fi
	mkdir -p "$CEPH_DIR/mon.a" "$CEPH_DIR/osd.0" "$CEPH_DIR/run" "$CEPH_DIR/log" || return 1
	CEPH_PIDS=""
	_port=$(_ceph_free_port) || { echo "ceph cluster: no free port" >&2; return 1; }
	_fsid=$(uuidgen)
	_osd_base=$(( _port + 1 ))
	CEPH_CONF=$CEPH_DIR/ceph.conf
	export CEPH_CONF
	cat >"$CEPH_CONF" <<EOF
[global]
fsid = $_fsid
mon host = v2:127.0.0.1:$_port
public addr = 127.0.0.1
ms bind msgr1 = false
ms bind ipv6 = false
ms bind port min = $_osd_base
ms bind port max = $(( _osd_base + 200 ))
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
run dir = $CEPH_DIR/run
log file = $CEPH_DIR/log/\$name.log
pid file = $CEPH_DIR/run/\$name.pid
keyring = /dev/null
crash dir = $CEPH_DIR/crash
log to stderr = false
err to stderr = false
log to file = true
debug ms = 0
[mon]
admin socket = $CEPH_DIR/run/\$name.asok
mon data = $CEPH_DIR/mon.\$id
mon cluster log file = $CEPH_DIR/log/cluster.log
[osd]
admin socket = $CEPH_DIR/run/\$name.asok
osd data = $CEPH_DIR/osd.\$id
osd objectstore = memstore
memstore device bytes = ${CEPH_MEMSTORE_BYTES:-1073741824}
memstore page set = true
memstore page size = 4096
osd class dir = /usr/lib/x86_64-linux-gnu/rados-classes
osd max object name len = 460
osd max object namespace len = 64
osd op num shards = 2
osd op num threads per shard = 1
osd min pg log entries = 100
osd max pg log entries = 200
osd pg log dups tracked = 200
EOF
	monmaptool --create --fsid "$_fsid" --addv a "[v2:127.0.0.1:$_port]" \
		"$CEPH_DIR/monmap" >"$CEPH_DIR/log/mkfs.log" 2>&1 &&
	ceph-mon -c "$CEPH_CONF" -i a --mkfs --monmap "$CEPH_DIR/monmap" \
		>>"$CEPH_DIR/log/mkfs.log" 2>&1 || {
		echo "ceph cluster: mon mkfs failed: $(tail -n 3 "$CEPH_DIR/log/mkfs.log" | tr '\n' ' ')" >&2
		ceph_cluster_stop
		return 1
	}
	# -f: in the foreground of its own process group (setsid), so the
	# stop function can kill the daemon with every thread and child
	setsid ceph-mon -c "$CEPH_CONF" -i a -f >>"$CEPH_DIR/log/mon.a.out" 2>&1 &
	CEPH_PIDS="$!"
	if ! _ceph_wait "${CEPH_START_TIMEOUT:-60}" ceph --connect-timeout 5 mon stat; then
		echo "ceph cluster: the monitor did not answer: $(tail -n 3 "$CEPH_DIR/log/mon.a.log" 2>/dev/null | tr '\n' ' ')" >&2
		ceph_cluster_stop
		return 1
	fi
	_uuid=$(uuidgen)
	_id=$(ceph osd new "$_uuid" 2>>"$CEPH_DIR/log/mkfs.log") && [ "$_id" = 0 ] &&
	ceph-osd -c "$CEPH_CONF" -i 0 --mkfs --osd-uuid "$_uuid" >>"$CEPH_DIR/log/mkfs.log" 2>&1 || {
		echo "ceph cluster: osd mkfs failed: $(tail -n 3 "$CEPH_DIR/log/mkfs.log" | tr '\n' ' ')" >&2
		ceph_cluster_stop
		return 1
	}
	# few malloc arenas: memstore's many small buffers spread over one
	# arena per thread otherwise, and the OSD's memory triples
	MALLOC_ARENA_MAX=2 setsid ceph-osd -c "$CEPH_CONF" -i 0 -f >>"$CEPH_DIR/log/osd.0.out" 2>&1 &
	CEPH_PIDS="$CEPH_PIDS $!"
	if ! _ceph_wait "${CEPH_START_TIMEOUT:-60}" sh -c 'ceph osd dump | grep -q "^osd.0 up"'; then
		echo "ceph cluster: osd.0 did not come up: $(tail -n 3 "$CEPH_DIR/log/osd.0.log" 2>/dev/null | tr '\n' ' ')" >&2
		ceph_cluster_stop
		return 1
	fi
	CEPH_START_SECONDS=$(echo "$(date +%s.%N) $_t0" | awk '{printf "%.1f", $1 - $2}')
	return 0
}

# ceph_pool_create NAME: a pool ready for RBD, once a write to it succeeds
# (its placement groups are active: without a manager the monitor does not
# know PG states, so the probe write is the readiness test).
ceph_pool_create() {
	ceph osd pool create "$1" 8 8 replicated >/dev/null 2>&1 &&
	ceph osd pool application enable "$1" rbd >/dev/null 2>&1 || {
		echo "ceph cluster: cannot create pool $1" >&2
		return 1
	}
	if ! _ceph_wait "${CEPH_START_TIMEOUT:-60}" \
			timeout 10 rados -p "$1" put ceph-cluster-probe "$CEPH_CONF"; then
		echo "ceph cluster: pool $1 takes no writes: $(tail -n 3 "$CEPH_DIR/log/osd.0.log" 2>/dev/null | tr '\n' ' ')" >&2
		return 1
	fi
	rados -p "$1" rm ceph-cluster-probe >/dev/null 2>&1
	return 0
}

# Kill every daemon this script started (each is the leader of its own
# process group: the whole group goes), wait for them, remove the directory.
ceph_cluster_stop() {
	for _pid in ${CEPH_PIDS:-}; do
		kill -TERM "-$_pid" 2>/dev/null
	done
	for _pid in ${CEPH_PIDS:-}; do
		_n=0
		while kill -0 "$_pid" 2>/dev/null && [ $_n -lt 50 ]; do
			sleep 0.1
			_n=$(( _n + 1 ))
		done
		kill -KILL "-$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
	done
	CEPH_PIDS=""
	[ -n "${CEPH_DIR:-}" ] && [ -f "$CEPH_DIR/ceph.conf" ] && rm -rf "$CEPH_DIR"
	return 0
}

# Run as a program: start / stop a cluster in DIR (the daemons' process
# group ids are kept in DIR/pids for stop).
case "${0##*/}" in
cluster.sh)
	case "${1:-}" in
	start)
		[ -n "${2:-}" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
		ceph_cluster_start "$2" || exit 1
		echo "$CEPH_PIDS" >"$2/pids"
		echo "export CEPH_CONF=$CEPH_CONF"
		echo "# started in $CEPH_START_SECONDS s" >&2
		;;
	stop)
		[ -n "${2:-}" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
		CEPH_DIR=$2
		CEPH_PIDS=$(cat "$2/pids" 2>/dev/null)
		ceph_cluster_stop
		;;
	*)
		echo "usage: $0 start|stop DIR" >&2
		exit 2
		;;
	esac
	;;
esac
