#!/bin/sh
# The QEMU guest harness's command (tests/vm/README.md); the work is in vm.py.
exec python3 "$(dirname "$0")/vm.py" "$@"
