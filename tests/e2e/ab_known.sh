# Known truth through iotrial's own runner: rate_iops=1000 vs 1180 on the null
# engine gives +18% with a CI containing 18 and excluding 0.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ab.lib"
runner_missing ab_known_truth || ab_known ab_known_truth
