# Shared helpers for end-to-end tests (sourced).  Each test prints
# "PASS name", "FAIL name: why" or "SKIP name: why".  $IOTRIAL is the binary,
# $SHARED the spec folder (may be absent: optional extra corpora only), $FIOREF
# fio reference outputs made by tests/fioref.sh, $T a scratch dir removed on exit.
# Tests must pass on a busy machine (make check-loaded): a device a test counts
# on is its own (own_loop), results are compared as counts, not times, and a
# time check's margin comes from measured noise, said where it is set.  Noise
# measured here under tests/load.sh (2 CPUs, load average 9-13): a time_based
# job overran its runtime by 0-14 ms (20 runs of a 1 s null job); a thread
# sleeping 2 ms woke up to ~70 ms late; rate-limited null jobs kept their rate.
: "${IOTRIAL:?IOTRIAL must point at the binary}"
# Tests `cd "$T" || exit 1` and write relative paths there; an empty $T
# would leave them where they were started (cd "" succeeds), the repo.
T=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-e2e.XXXXXX") && [ -d "$T" ] ||
	{ echo "FAIL $(basename "$0" .sh): no scratch directory (mktemp -d)"; exit 1; }
LIB_LOOPS=""	# loop devices made by own_loop, detached by lib_cleanup
LIB_MNTS=""	# file systems mounted by own_fs, unmounted by lib_cleanup
# A test that sets its own EXIT trap calls lib_cleanup from it.
lib_cleanup() {
	for m in $LIB_MNTS; do
		# twice: a just-closed file may pin the mount for a moment
		umount "$m" 2>/dev/null || { sleep 0.3; umount "$m" 2>/dev/null; }
	done
	for l in $LIB_LOOPS; do losetup -d "$l" 2>/dev/null; done
	for c in $CGS; do rmdir "$c" 2>/dev/null; done
	LIB_MNTS="" LIB_LOOPS="" CGS=""
	rm -rf "$T"
}
trap 'lib_cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# own_loop MB: a block device only this test touches, so that what the device
# counts (reads, writes, ticks) is the test's own I/O and nobody else's: a
# loop device over an MB MiB file in /dev/shm (a RAM disk, untouched by the
# host disk's load), with direct I/O to its backing file.  Sets OWN_LOOP
# (/dev/loopN), detached on exit; the backing file is removed at once (the
# loop device keeps it).  Returns 1 with the reason in OWN_LOOP_WHY when not
# root or the kernel or tools give no loop device.
# attach_loop [LOSETUP-OPTION...] FILE: `losetup --find --show` that retries.
# Tests run side by side (tests/run.sh): two that attach at once can be given
# the same free device, and the one that loses the race gets "No such device
# or address" or "Device or resource busy".  Prints the device; the last
# attempt's error on stderr.
attach_loop() {
	_i=0
	while :; do
		if _dev=$(losetup --find --show "$@" 2>"${T:-/tmp}/attach_loop.err"); then
			echo "$_dev"
			return 0
		fi
		_i=$((_i + 1))
		if [ $_i -ge 8 ]; then
			cat "${T:-/tmp}/attach_loop.err" >&2
			return 1
		fi
		sleep 0.$((_i + 1))
	done
}

own_loop() {
	OWN_LOOP="" OWN_LOOP_WHY=""
	if [ "$(id -u)" -ne 0 ]; then
		OWN_LOOP_WHY="not root: a loop device needs CAP_SYS_ADMIN"
	elif ! command -v losetup >/dev/null 2>&1; then
		OWN_LOOP_WHY="losetup is missing (util-linux)"
	elif [ ! -e /dev/loop-control ]; then
		OWN_LOOP_WHY="no /dev/loop-control (no loop support in this kernel)"
	elif [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
		OWN_LOOP_WHY="no writable /dev/shm for the loop device's backing file"
	fi
	[ -z "$OWN_LOOP_WHY" ] || return 1
	img=$(mktemp /dev/shm/iotrial-e2e-loop.XXXXXX) || { OWN_LOOP_WHY="mktemp in /dev/shm failed"; return 1; }
	if ! truncate -s "${1}M" "$img" 2>/dev/null ||
		! OWN_LOOP=$(attach_loop --direct-io=on "$img" 2>"$T/own_loop.err"); then
		OWN_LOOP_WHY="losetup could not attach a loop device: $(head -c 200 "$T/own_loop.err" 2>/dev/null)"
		OWN_LOOP=""
		rm -f "$img"
		return 1
	fi
	rm -f "$img"
	LIB_LOOPS="$LIB_LOOPS $OWN_LOOP"
	return 0
}

# cgroups: a block-layer throttle for tests with a known rate (breakdown_truth,
# sweep).  The test's processes must have left a cgroup before it is removed.
# cg_new KIND: a new cgroup of this test, removed by lib_cleanup (KIND io: v1 blkio or v2 io; cpu),
# its directory in $CG, "" when this machine has none to give.
CGS=""
cg_new() {
	_n=iotrial-e2e.$$.$1 CG=""
	if [ "$1" = io ] && [ -w /sys/fs/cgroup/blkio ] && [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
		_d=/sys/fs/cgroup/blkio/$_n
	elif [ "$1" = cpu ] && [ -w /sys/fs/cgroup/cpu ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		_d=/sys/fs/cgroup/cpu/$_n
	elif grep -qw "$1" /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		_d=/sys/fs/cgroup/$_n	# v2, the controller enabled below the root
	else
		return 0
	fi
	mkdir "$_d" 2>/dev/null && CGS="$CGS $_d" && CG=$_d
}
# cg_run DIR CMD...: CMD in cgroup DIR
cg_run() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@"
}
# cg_riops DIR DEV N: reads of block device DEV limited to N a second
cg_riops() {
	_mm=$(cat "/sys/block/$(basename "$2")/dev")
	if [ -e "$1/blkio.throttle.read_iops_device" ]; then
		echo "$_mm $3" >"$1/blkio.throttle.read_iops_device"
	else
		echo "$_mm riops=$3" >"$1/io.max"
	fi
}
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CMD...: PASS when CMD succeeds, FAIL otherwise.
check() {
	name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "command failed: $*"; fi
}

# expect_exit NAME CODE PATTERN CMD...: CMD must exit CODE and print exactly one
# line on stderr that matches the grep -E PATTERN.
expect_exit() {
	name=$1 code=$2 pat=$3; shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		fail "$name" "exit $rc, wanted $code; stderr: $(head -c 300 "$T/err")"
	elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
		fail "$name" "wanted one line on stderr, got: $(head -c 300 "$T/err")"
	elif ! grep -qE -- "$pat" "$T/err"; then
		fail "$name" "stderr does not match /$pat/: $(cat "$T/err")"
	else
		pass "$name"
	fi
}

# jq-free JSON checks through python3 (on every Debian image used here).
pyjson() { python3 -c "$@"; }

# own_fs MB: a directory on a file system only this test uses (ext4 on an
# own_loop device of MB MiB, mounted under $T), for tests that need a file
# with a block device under it whose counters are the test's own.  Sets
# OWN_FS (the mount point) and OWN_LOOP; returns 1 with OWN_LOOP_WHY.
own_fs() {
	OWN_FS=""
	own_loop "$1" || return 1
	if ! command -v mkfs.ext4 >/dev/null 2>&1; then
		OWN_LOOP_WHY="mkfs.ext4 is missing (e2fsprogs)"
		return 1
	fi
	mkdir -p "$T/own_fs" &&
		mkfs.ext4 -q -F "$OWN_LOOP" >"$T/own_fs.err" 2>&1 &&
		mount "$OWN_LOOP" "$T/own_fs" 2>>"$T/own_fs.err" || {
		OWN_LOOP_WHY="mkfs.ext4 or mount on $OWN_LOOP failed: $(head -c 200 "$T/own_fs.err")"
		return 1
	}
	LIB_MNTS="$LIB_MNTS $T/own_fs"
	OWN_FS="$T/own_fs"
}

# engine_refused ENGINE: 0 (true) when the kernel refuses ENGINE's set-up
# here (io_uring disabled by kernel.io_uring_disabled or a seccomp profile,
# Linux AIO missing), with the reason in $REFUSED_WHY; a test then skips its
# io_uring/libaio cases instead of failing them.  Probed once per engine.
engine_refused() {
	_f="$T/.refused-$1"
	if [ ! -f "$_f" ]; then
		if "$IOTRIAL" --name=probe --ioengine="$1" --rw=read --bs=4k --size=4k \
			--filename="$T/.probe-$1" --output-format=json >/dev/null 2>"$T/.probe-$1.err"; then
			: >"$_f"
		elif grep -qiE 'not permitted|not implemented|ENOSYS|EPERM' "$T/.probe-$1.err"; then
			echo "the kernel refuses $1 here: $(head -c 200 "$T/.probe-$1.err")" >"$_f"
		else
			: >"$_f"	# another failure: the test itself shows it
		fi
		rm -f "$T/.probe-$1"
	fi
	REFUSED_WHY=$(cat "$_f")
	[ -n "$REFUSED_WHY" ]
}

# vm_setup NAME GUEST [COMMAND...]: the start of a test that boots a QEMU
# guest (tests/vm/README.md): V (the harness), G (the guest's name), lap,
# IOTRIAL_VM_RUN under $T, and the guest stopped on exit.  Returns 1 after
# a SKIP of NAME under SANITIZE=1 (guest tests run once, in the plain pass:
# TCG is slow) or when the harness, or a COMMAND the test also needs, is
# missing; the test then exits 0.
vm_setup() {
	_vm_name=$1 G=$2
	shift 2
	T0=$(date +%s)
	V="$(cd "$(dirname "$0")/../.." && pwd)/tests/vm/vm.sh"
	case "$IOTRIAL" in */build/san/iotrial) SANITIZE=1 ;; esac
	if [ "${SANITIZE:-0}" = 1 ]; then
		skip "$_vm_name" "SANITIZE=1: the guest tests run once, in the plain pass (TCG is slow)"
		return 1
	fi
	for _vm_c in qemu-system-x86_64 busybox cpio python3 "$@"; do
		if ! command -v "$_vm_c" >/dev/null 2>&1; then
			skip "$_vm_name" "$_vm_c is missing (scripts/deps.sh installs qemu-system-x86, busybox-static, cpio, util-linux)"
			return 1
		fi
	done
	export IOTRIAL_VM_RUN="$T/vm"
	# a guest step that stalls (tests/vm/README.md, "NVMe under TCG") ends
	# that step with exit 124 after 180 s, not the whole test at 600 s
	export IOTRIAL_VM_TIMEOUT=${IOTRIAL_VM_TIMEOUT:-180}
	trap 'vm_stop_guest' EXIT
}
# vm_nvme_log: after a failure, what the guest's NVMe driver logged, once (a
# command QEMU lost ends I/Os with EINTR or stalls them for a minute, in
# either tool: tests/vm/README.md, "NVMe under TCG")
vm_nvme_log() {
	[ -n "${_vm_nvme_logged:-}" ] && return
	_vm_nvme_logged=1
	echo "  guest's NVMe log: $("$V" sh "$G" --timeout 20 'dmesg | grep -iE "nvme.*(timeout|reset)" | tail -n 4' 2>&1 | tr '\n' ' ')"
}
vm_stop_guest() { "$V" stop "$G" >/dev/null 2>&1; lib_cleanup; }
lap() { echo "  [$(( $(date +%s) - T0 ))s] $*"; }
# vm_dev KIND FIELD: a disk's FIELD (guest_dev, guest_char, drive, ...) from
# the guest's vm.json, which the test saved as $T/vm.json
vm_dev() { python3 -c "
import json
d = [x for x in json.load(open('$T/vm.json'))['disks'] if x['kind'] == '$1'][0]
print(d['$2'])"; }
