#!/bin/sh
# Exit codes are one list (err_exit_codes() in src/lib/err.c): --help prints it,
# and the hand-written man page's EXIT STATUS must name the same codes, in
# the same order, so neither can drift from the code.
# check-fast: reads --help and the man page
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MAN=$SRC/docs/iotrial.1
[ -f "$MAN" ] || { skip exit_codes_man "no man page at $MAN"; exit 0; }
"$IOTRIAL" --help >"$T/help" 2>&1
help=$(sed -n '/^exit codes:/,$p' "$T/help" | sed -n 's/^  \([0-9][0-9]*\)  .*/\1/p' | tr '\n' ' ')
man=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MAN" | sed -n 's/^\.B \([0-9][0-9]*\)$/\1/p' | tr '\n' ' ')
if [ -n "$help" ] && [ "$help" = "0 1 2 3 4 5 6 7 8 70 " ]; then
	pass exit_codes_help
else
	fail exit_codes_help "--help lists '$help'"
fi
if [ -n "$man" ] && [ "$man" = "$help" ]; then
	pass exit_codes_man "($man)"
else
	fail exit_codes_man "man page EXIT STATUS lists '$man', --help '$help'"
fi
