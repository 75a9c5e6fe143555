#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... churn CYCLES SESSIONS SESSION_COMMANDS CHUNK. Probes come and
# go (markers_churn, /mnt/host) under the vendor load and the core opens,
# while SystemTap sessions (km_churn_count.ko) run one after the other.
# Checks itself and prints KTAP, plan first; what the loads did goes out
# as "WHAT: key=value ..." lines too, for the host's figure.
set -u
cycles=$1 sessions=$2 session_commands=$3 chunk=$4
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
echo "1..14"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
modprobe acme_xa || echo "# acme_xa does not load: the checks below fail"
insmod markers_churn.ko || echo "# markers_churn does not load: the checks below fail"
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
	report "churn asked: asked=$asked failed_writes=$failed_writes"
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
report "sessions: run=$sessions ended=$ended exact=$good submits_seen=$session_submits ran=$session_ran"
[ "$good" = "$sessions" ] || sed 's/^/# last session: /' /tmp/session.out
touch /tmp/km_sessions_done
wait $churner
touch /tmp/km_stop
wait $vendor $core
report "$(sed "s/^cycles \([0-9]*\) failures \([0-9]*\) tick_hits \([0-9]*\) hits \([0-9]*\)$/churn: cycles=\1 failures=\2 tick_hits=\3 hits=\4/" $M/churn_stats)"
held_counts
report "fs_open: opens=$(cat $M/open_hits)"
echo "" >$M/open_path
echo acme_cmd_submit >$M/release
echo acme_cmd_complete >$M/release

asked=$(kv 'churn asked' asked)
ran=$(($(kv vendor ran) + $(kv sessions ran)))
# The checks of more than one value
all_asked() { at_least "$asked" "$cycles" && [ "$(kv 'churn asked' failed_writes)" = 0 ]; }
load_ran() { at_least "$(kv vendor runs)" 1 && [ "$(kv vendor failed_runs)" = 0 ]; }
sessions_saw_theirs() { at_least "$session_submits" "$session_ran" && [ "$session_submits" -le "$ran" ]; }
check "the churn asked for at least $cycles cycles ($asked), every write accepted (failed: $(kv 'churn asked' failed_writes))" \
	all_asked
check "... and did them all ($(kv churn cycles) of $asked)" same_nonzero "$(kv churn cycles)" "$asked"
check "... with no failed registration or unregistration ($(kv churn failures))" [ "$(kv churn failures)" = 0 ]
check "... each cycle's probe saw its own marker fire once ($(kv churn tick_hits) of $(kv churn cycles))" \
	same_nonzero "$(kv churn tick_hits)" "$(kv churn cycles)"
check "$sessions SystemTap sessions started and ended cleanly ($ended)" [ "$ended" = "$sessions" ]
check "... each counted exactly its own $session_commands submits ($good of $sessions)" [ "$good" = "$sessions" ]
check "the vendor workload ran throughout ($(kv vendor runs) runs, $(kv vendor ran) commands), no run failed ($(kv vendor failed_runs))" \
	load_ran
check "the probe held on acme_cmd_submit counted every command run ($(kv held acme_cmd_submit) of $ran)" \
	same_nonzero "$(kv held acme_cmd_submit)" "$ran"
check "... the one on acme_cmd_complete too ($(kv held acme_cmd_complete))" same_nonzero "$(kv held acme_cmd_complete)" "$ran"
check "the sessions saw no more submits than there were ($session_submits <= $ran)" \
	sessions_saw_theirs
check "the churn's probes were connected to live markers: they counted hits ($(kv churn hits))" \
	at_least "$(kv churn hits)" 1
check "the fs_open probe counted every open of the loop ($(kv fs_open opens) of $(kv core opens))" \
	same_nonzero "$(kv fs_open opens)" "$(kv core opens)"
check "the listing at the end is the one before" listing_since /tmp/list.before
check "the modules unload" rmmod markers_churn acme_xa
