# Known truth with fio as the runner (--runner=fio): +18% for rate_iops 1000
# vs 1180 on the null engine, CI containing 18 and excluding 0.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ab.lib"
if command -v fio >/dev/null 2>&1; then
	ab_known ab_fio_known_truth --runner=fio
else
	skip ab_fio_known_truth "fio is not installed"
fi
