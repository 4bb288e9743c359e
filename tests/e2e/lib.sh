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
