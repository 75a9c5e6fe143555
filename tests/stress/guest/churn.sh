#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... churn CYCLES SESSIONS SESSION_COMMANDS CHUNK. Probes come and
# go (markers_churn, /mnt/host) under the vendor load and the core opens,
# while SystemTap sessions (km_churn_count.ko) run one after the other.
# Prints "WHAT: key=value ..." lines ("churn asked:", "sessions:",
# "churn:", "held:", "fs_open:", ...), "listing: unchanged", "unloaded: ok"
# and "== done".
cycles=$1 sessions=$2 session_commands=$3 chunk=$4
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
cd /mnt/host || exit 1
modprobe acme_xa || exit 1
insmod markers_churn.ko || exit 1
cp $L /tmp/list.before
echo acme_cmd_submit >$M/hold
echo acme_cmd_complete >$M/hold
touch /tmp/km_core
echo /tmp/km_core >$M/open_path
vendor_load vendor --count 200 --threads 2 &
vendor=$!
core_opens /tmp/km_core &
core=$!
# the churn: chunks of $chunk cycles, at least $cycles, and on
# while the sessions come and go
(
	asked=0 failed_writes=0
	while [ $asked -lt "$cycles" ] || [ ! -e /tmp/km_sessions_done ]; do
		echo "$chunk acme_cmd_submit acme_cmd_complete fs_open module_load" >$M/churn ||
			failed_writes=$((failed_writes + 1))
		asked=$((asked + chunk))
	done
	echo "churn asked: asked=$asked failed_writes=$failed_writes"
) &
churner=$!
good=0 ended=0 session_submits=0 session_ran=0
for _ in $(seq "$sessions"); do
	staprun -c "acmectl run --count $session_commands --threads 2" km_churn_count.ko >/tmp/session.out 2>&1 &&
		ended=$((ended + 1))
	own=$(sed -n "s/^session: .*own=//p" /tmp/session.out)
	done_here=$(sed -n "s/^completed=//p" /tmp/session.out)
	[ "$own" = "$session_commands" ] && [ "$done_here" = "$session_commands" ] && good=$((good + 1))
	session_submits=$((session_submits + $(sed -n "s/^session: submits=\([0-9]*\).*/\1/p" /tmp/session.out)))
	session_ran=$((session_ran + ${done_here:-0}))
done
echo "sessions: run=$sessions ended=$ended exact=$good submits_seen=$session_submits ran=$session_ran"
[ "$good" = "$sessions" ] || cat /tmp/session.out
touch /tmp/km_sessions_done
wait $churner
touch /tmp/km_stop
wait $vendor $core
sed "s/^cycles \([0-9]*\) failures \([0-9]*\) tick_hits \([0-9]*\) hits \([0-9]*\)$/churn: cycles=\1 failures=\2 tick_hits=\3 hits=\4/" $M/churn_stats
held_counts
echo "fs_open: opens=$(cat $M/open_hits)"
echo "" >$M/open_path
echo acme_cmd_submit >$M/release
echo acme_cmd_complete >$M/release
listing_since /tmp/list.before
rmmod markers_churn acme_xa && echo "unloaded: ok"
echo "== done"
