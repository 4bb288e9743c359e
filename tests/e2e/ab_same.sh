# Known truth through iotrial's own runner: the same configuration twice is
# "negligible" (never faster or slower).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ab.lib"
runner_missing ab_same_config_twice || ab_same ab_same_config_twice
