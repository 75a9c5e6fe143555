#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... policy SWITCHES COMMANDS ACME_P DRIVER. Switches
# markers.proprietary deny, allow, ... SWITCHES times under the core opens,
# running COMMANDS acme commands and firing markers_prop (/mnt/host) in
# each window. ACME_P says whether acme_xa is proprietary here (1: the
# drop; 0: its GPL build, which the policy leaves alone), DRIVER names it
# in the checks. Checks itself and prints KTAP, plan first; what it
# counted goes out as "WHAT: key=value ..." lines too, for the host's
# figure.
set -u
switches=$1 commands=$2 acme_p=$3 driver=$4
P=/sys/module/markers/parameters/proprietary
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
T=/sys/kernel/tracing
echo "1..15"
modprobe acme_xa || echo "# acme_xa does not load: the checks below fail"
insmod /mnt/host/markers_churn.ko || echo "# markers_churn does not load: the checks below fail"
insmod /mnt/host/markers_prop.ko || echo "# markers_prop does not load: the checks below fail"
F=/sys/module/markers_prop/parameters/fire
taint=$(cat /sys/module/acme_xa/taint 2>/dev/null)
is_proprietary=0
case $taint in *P*) is_proprietary=1 ;; esac
check "the guest's acme_xa is $driver (taint '$taint')" [ "$is_proprietary" = "$acme_p" ]
check "the policy is allow to start with" reads $P allow
cp $L /tmp/list.before
echo acme_cmd_submit >$M/hold
echo acme_cmd_complete >$M/hold
echo test_prop_args >$M/hold
touch /tmp/km_core
echo /tmp/km_core >$M/open_path
echo 1 >$T/events/markers/acme_cmd_submit/enable
core_opens /tmp/km_core &
core=$!
allowed=0 denied=0 listed_right=0 prop_listed_right=0 read_back=0 ran_allowed=0 ran_denied=0 failed_runs=0
for i in $(seq "$switches"); do
	if [ $((i % 2)) = 1 ]; then policy=deny want=blocked; else policy=allow want=on; fi
	echo $policy >$P
	[ "$(cat $P)" = $policy ] && read_back=$((read_back + 1))
	acme_want=$want
	[ "$acme_p" = 1 ] || acme_want=on
	[ "$(grep -P "^acme_cmd_submit\t" $L | cut -f4)" = $acme_want ] && listed_right=$((listed_right + 1))
	[ "$(grep -P "^test_prop_args\t" $L | cut -f4)" = $want ] && prop_listed_right=$((prop_listed_right + 1))
	echo "$commands" >$F
	if out=$(acmectl run --count "$commands" --threads 2); then
		n=$(completed "$out")
		if [ $policy = allow ]; then
			allowed=$((allowed + 1)) ran_allowed=$((ran_allowed + n))
		else
			denied=$((denied + 1)) ran_denied=$((ran_denied + n))
		fi
	else
		failed_runs=$((failed_runs + 1))
	fi
done
touch /tmp/km_stop
wait $core
echo 0 >$T/events/markers/acme_cmd_submit/enable
report "ftrace: submits=$(grep -c " acme_cmd_submit: id " $T/trace)"
echo "# ftrace lost: $(grep -h "^overrun:" $T/per_cpu/cpu*/stats | cut -d" " -f2 | paste -sd+ | bc)"
held_counts
report "fs_open: opens=$(cat $M/open_hits)"
echo "" >$M/open_path
echo acme_cmd_submit >$M/release
echo acme_cmd_complete >$M/release
echo test_prop_args >$M/release

half=$((switches / 2))
# The driver's markers count in the allowed windows if it is proprietary,
# in all of them if not; the proprietary test module's only in the
# allowed ones.
expected_prop=$((half * commands))
if [ "$acme_p" = 1 ]; then expected=$expected_prop; else expected=$((switches * commands)); fi
check "$switches switches made: $allowed allowed windows, $denied denied" [ "$allowed/$denied" = "$half/$half" ]
check "each switch reads back ($read_back of $switches)" [ "$read_back" = "$switches" ]
check "after each switch acme_cmd_submit ($driver) is listed as the policy says ($listed_right of $switches)" \
	[ "$listed_right" = "$switches" ]
check "... and test_prop_args of the proprietary test module blocked or on ($prop_listed_right of $switches)" \
	[ "$prop_listed_right" = "$switches" ]
check "every window ran its $commands commands, the denied ones too ($ran_allowed + $ran_denied, failed runs: $failed_runs)" \
	[ "$ran_allowed/$ran_denied/$failed_runs" = "$expected_prop/$expected_prop/0" ]
check "the held acme_cmd_submit probe counted the commands of the windows $driver is allowed in ($(kv held acme_cmd_submit) of $expected)" \
	[ "$(kv held acme_cmd_submit)" = "$expected" ]
check "... so did the held acme_cmd_complete probe ($(kv held acme_cmd_complete))" \
	[ "$(kv held acme_cmd_complete)" = "$expected" ]
check "... and the ftrace event enabled throughout ($(kv ftrace submits))" [ "$(kv ftrace submits)" = "$expected" ]
check "the held test_prop_args probe counted the allowed windows' firings ($(kv held test_prop_args) of $expected_prop)" \
	[ "$(kv held test_prop_args)" = "$expected_prop" ]
check "the fs_open probe counted every background open, whatever the policy ($(kv fs_open opens) of $(kv core opens))" \
	same_nonzero "$(kv fs_open opens)" "$(kv core opens)"
check "the policy is allow at the end" reads $P allow
check "the listing at the end is the one before" listing_since /tmp/list.before
check "the modules unload" rmmod markers_churn markers_prop acme_xa
