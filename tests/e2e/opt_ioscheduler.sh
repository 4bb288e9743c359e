#!/bin/sh
# ioscheduler=NAME: the I/O scheduler of the device under the job's target is
# NAME while the job runs (the JSON environment records the switch and the
# device's scheduler as the run saw it) and is put back afterwards: after a
# run that succeeds, one refused after a switch, one whose job fails, and
# one stopped by SIGINT.  An unknown name, or a target on no block device,
# is refused with one line naming what is available.  A file stands for the
# device of its file system (fio 3.33 switches that one too).  On loop
# devices this test makes (they have schedulers: none, mq-deadline, ...).
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
if ! own_loop 8; then
	skip ioscheduler "$OWN_LOOP_WHY"
	exit 0
fi
DEV=$(basename "$OWN_LOOP")
SCHED=/sys/block/$DEV/queue/scheduler
active() { sed 's/.*\[\(.*\)\].*/\1/' "$SCHED"; }
BEFORE=$(active)
# another scheduler than the current one, mq-deadline when offered
WANT=$(tr -d '[]' <"$SCHED" | tr ' ' '\n' | grep -v "^$BEFORE\$" | grep -v '^$' |
	awk '$0=="mq-deadline"{m=$0} NR==1{f=$0} END{print m ? m : f}')
if [ -z "$WANT" ]; then
	skip ioscheduler "$DEV offers one scheduler only ($(cat "$SCHED"))"
	exit 0
fi
# every check ends with the device as it was
restored() { [ "$(active)" = "$BEFORE" ]; }

# 1. a run: switched during, recorded, put back
"$IOTRIAL" --name=s --filename="$OWN_LOOP" --rw=read --bs=4k --size=1m --ioscheduler="$WANT" \
	--output-format=json >s.json 2>s.err
rc=$?
got=$(pyjson "
import json
env = json.load(open('s.json'))['iotrial']['environment']
sw = env['ioscheduler']
dev = env['targets'][0].get('device', {})
print(len(sw), sw[0]['device'], sw[0]['scheduler'], sw[0]['before'], dev.get('scheduler', '-'))
" 2>&1)
if [ $rc -eq 0 ] && [ "$got" = "1 $DEV $WANT $BEFORE $WANT" ] && restored; then
	pass ioscheduler_run
else
	fail ioscheduler_run "exit $rc, env '$got' (want '1 $DEV $WANT $BEFORE $WANT'), now $(active): $(head -c 200 s.err)"
fi

# 2. refused before any I/O, with what the device offers; nothing changed
expect_exit ioscheduler_unknown 2 "ioscheduler=nosuch.*$DEV offers: .*$WANT" \
	"$IOTRIAL" --name=u --filename="$OWN_LOOP" --rw=read --size=1m --ioscheduler=nosuch
restored || fail ioscheduler_unknown_restored "now $(active), was $BEFORE"

# 3. refused after a switch (two jobs want two schedulers on one device): put back
expect_exit ioscheduler_conflict 2 "one scheduler per device" \
	"$IOTRIAL" --name=a --filename="$OWN_LOOP" --rw=read --size=1m --ioscheduler="$WANT" \
	--name=b --filename="$OWN_LOOP" --rw=read --size=1m --ioscheduler="$BEFORE"
if restored; then pass ioscheduler_conflict_restored
else fail ioscheduler_conflict_restored "now $(active), was $BEFORE"; fi

# 4. a job that fails (its verify finds blocks never written): put back
"$IOTRIAL" --name=v --filename="$OWN_LOOP" --rw=read --bs=4k --size=1m --verify=crc32c \
	--ioscheduler="$WANT" >v.out 2>v.err
rc=$?
if [ $rc -ne 0 ] && restored; then pass ioscheduler_failed_job_restored
else fail ioscheduler_failed_job_restored "exit $rc (want non-zero), now $(active), was $BEFORE"; fi

# 5. SIGINT in the middle of a run: switched while it ran, put back when it stopped
"$IOTRIAL" --name=i --filename="$OWN_LOOP" --rw=randread --bs=4k --size=8m --time_based \
	--runtime=30 --ioscheduler="$WANT" --output-format=json >i.json 2>i.err &
pid=$!
i=0
while [ "$(active)" != "$WANT" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
during=$(active)
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
if [ "$during" = "$WANT" ] && [ $rc -eq 5 ] && restored; then	# 5: interrupted, partial results written
	pass ioscheduler_sigint_restored
else
	fail ioscheduler_sigint_restored "during: $during, exit $rc, now $(active), was $BEFORE: $(head -c 200 i.err)"
fi

# 6. a file: the device under its file system
if own_fs 32; then
	FDEV=$(basename "$OWN_LOOP")
	FS=/sys/block/$FDEV/queue/scheduler
	fbefore=$(sed 's/.*\[\(.*\)\].*/\1/' "$FS")
	"$IOTRIAL" --name=f --filename="$OWN_FS/f" --rw=write --bs=4k --size=1m --ioscheduler="$WANT" \
		--output-format=json >f.json 2>f.err
	rc=$?
	got=$(pyjson "import json; s=json.load(open('f.json'))['iotrial']['environment']['ioscheduler'][0]; print(s['device'], s['scheduler'])" 2>&1)
	if [ $rc -eq 0 ] && [ "$got" = "$FDEV $WANT" ] &&
		[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$FS")" = "$fbefore" ]; then
		pass ioscheduler_file
	else
		fail ioscheduler_file "exit $rc, switched '$got' (want '$FDEV $WANT'): $(head -c 200 f.err)"
	fi
else
	skip ioscheduler_file "$OWN_LOOP_WHY"
fi

# 7. a file on no block device (tmpfs): nothing to switch, said in one line
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	mkdir -p /dev/shm/iotrial-e2e.$$ && trap 'rm -rf /dev/shm/iotrial-e2e.$$; lib_cleanup' EXIT
	expect_exit ioscheduler_no_device 2 "no I/O scheduler to switch" \
		"$IOTRIAL" --name=t --filename=/dev/shm/iotrial-e2e.$$/t --rw=write --size=64k \
		--ioscheduler="$WANT"
fi
