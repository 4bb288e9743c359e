# The same configuration twice with fio as the runner: negligible
# difference, or negligible.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ab.lib"
if command -v fio >/dev/null 2>&1; then
	ab_same ab_fio_same_config --runner=fio
else
	skip ab_fio_same_config "fio is not installed"
fi
