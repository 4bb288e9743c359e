#!/bin/sh
# The rule of src/history/ (docs/design.md): the history reads result
# documents, never the machinery that makes them -- no worker, run or engine
# header is included there -- and nothing else in the library depends on it:
# only the command line (cli/) calls the history.
. "$(dirname "$0")/lib.sh"
top="$(cd "$(dirname "$0")/../.." && pwd)"
if [ ! -d "$top/src/history" ]; then
	skip history_layering "no source tree beside the tests"
	exit 0
fi
bad=$(grep -HnE '#include "(.*/)?(worker|run|engine[a-z_]*|job_engine)\.h"' "$top"/src/history/*.[ch])
if [ -z "$bad" ]; then pass history_layering_includes; else
	fail history_layering_includes "$bad"; fi
bad=$(grep -lE '#include "(history/)?history(_[a-z]+)?\.h"' $(find "$top/src" -name '*.[ch]' ! -path '*/history/*'))
if [ -z "$bad" ]; then pass history_layering_users; else
	fail history_layering_users "library files that include the history: $bad"; fi
