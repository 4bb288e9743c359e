# Shared helpers for end-to-end tests (sourced).  Each test prints
# "PASS name", "FAIL name: why" or "SKIP name: why".  $IOTRIAL is the binary,
# $SHARED the spec folder (may be absent: optional extra corpora only), $FIOREF
# fio reference outputs made by tests/fioref.sh, $T a scratch dir removed on exit.
: "${IOTRIAL:?IOTRIAL must point at the binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

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
