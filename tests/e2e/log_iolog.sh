#!/bin/sh
# write_iolog / read_iolog (iolog.h): a job's log has fio 3.33's version-3
# format, one line per I/O; replaying it issues the same I/Os with the log's
# directions (fio's t0031: a read job replays a write log); logs pass between
# iotrial and fio both ways; a bad line is refused naming file and line.
. "$(dirname "$0")/lib.sh"
F="$T/f"
G="--filename=$F --size=256k --bs=4k --ioengine=psync --output-format=json"
"$IOTRIAL" --name=w --rw=randwrite $G --write_iolog="$T/log" >"$T/w.json" 2>"$T/w.err" ||
	fail iolog_record "$(head -c 300 "$T/w.err")"
# 64 writes, each block once (random map), then add/open/close per file
if pyjson "
lines = open('$T/log').read().split('\n')
assert lines[0] == 'fio version 3 iolog', lines[0]
io = [l.split() for l in lines[1:] if l]
acts = [x[2] for x in io]
assert acts[:2] == ['add', 'open'] and acts[-1] == 'close', acts[:2] + acts[-1:]
w = [x for x in io if x[2] == 'write']
assert len(w) == 64 and sorted(int(x[3]) for x in w) == list(range(0, 262144, 4096))
t = [int(x[0]) for x in io]
assert t == sorted(t), 'times not in order'
assert all(x[1] == '$F' and x[4] == '4096' for x in w)"; then pass iolog_record
else fail iolog_record "log not as fio writes it: $(head -3 "$T/log")"; fi
# a read job replaying a write log writes the logged blocks (t0031)
counts() {	# JSON: reads writes
	pyjson "
import json
j = json.load(open('$1'))['jobs'][0]
print(j['read']['total_ios'], j['write']['total_ios'])"
}
"$IOTRIAL" --name=r --rw=read $G --read_iolog="$T/log" --replay_no_stall=1 >"$T/r.json" 2>"$T/r.err"
got=$(counts "$T/r.json" 2>/dev/null)
if [ "$got" = "0 64" ]; then pass "iolog_replay_directions ($got)"
else fail iolog_replay_directions "read/write I/Os '$got', wanted '0 64': $(head -c 300 "$T/r.err")"; fi
# a mixed v2 log (no times), with a sync: replayed in its order
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s write 8192 8192\n%s sync 0 0\n%s read 4096 4096\n%s close\n' \
	"$F" "$F" "$F" "$F" "$F" "$F" "$F" >"$T/v2"
"$IOTRIAL" --name=r --rw=read $G --read_iolog="$T/v2" >"$T/v2.json" 2>"$T/v2.err"
got=$(pyjson "
import json
j = json.load(open('$T/v2.json'))['jobs'][0]
print(j['read']['total_ios'], j['read']['io_bytes'], j['write']['total_ios'], j['write']['io_bytes'])" 2>/dev/null)
if [ "$got" = "2 8192 1 8192" ]; then pass "iolog_replay_v2 ($got)"
else fail iolog_replay_v2 "got '$got', wanted '2 8192 1 8192': $(head -c 300 "$T/v2.err")"; fi
# the logs pass between the tools: fio replays ours, we replay fio's
if command -v fio >/dev/null 2>&1; then
	timeout -s KILL 30 fio --name=r --rw=read $G --read_iolog="$T/log" --replay_no_stall=1 \
		--output="$T/fr.json" >/dev/null 2>&1
	got=$(counts "$T/fr.json" 2>/dev/null)
	if [ "$got" = "0 64" ]; then pass "iolog_fio_replays_ours ($got)"
	else fail iolog_fio_replays_ours "fio replayed '$got', wanted '0 64'"; fi
	timeout -s KILL 30 fio --name=w --rw=randread $G --write_iolog="$T/flog" \
		--output="$T/fw.json" >/dev/null 2>&1
	"$IOTRIAL" --name=r --rw=write $G --read_iolog="$T/flog" --replay_no_stall=1 >"$T/ir.json" 2>"$T/ir.err"
	got=$(counts "$T/ir.json" 2>/dev/null)
	if [ "$got" = "64 0" ]; then pass "iolog_we_replay_fios ($got)"
	else fail iolog_we_replay_fios "replayed '$got', wanted '64 0': $(head -c 300 "$T/ir.err")"; fi
else
	skip iolog_fio_interop "fio is not installed"
fi
printf 'fio version 2 iolog\n%s add\n%s read x 4096\n' "$F" "$F" >"$T/bad"
expect_exit iolog_bad_line 2 "read_iolog .*bad:3: not an iolog line" \
	"$IOTRIAL" --name=r --rw=read $G --read_iolog="$T/bad"
printf 'no log\n' >"$T/bad2"
expect_exit iolog_bad_header 2 "read_iolog .*bad2:1: not a fio version 2 or 3 iolog" \
	"$IOTRIAL" --name=r --rw=read $G --read_iolog="$T/bad2"
