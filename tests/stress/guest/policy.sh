#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... policy SWITCHES COMMANDS ACME_P. Switches markers.proprietary
# deny, allow, ... SWITCHES times under the core opens, running COMMANDS
# acme commands and firing markers_prop (/mnt/host) in each window. Prints
# "WHAT: key=value ..." lines ("acme_xa: proprietary=", "switches:",
# "ran:", "ftrace:", "held:", ...), "policy before/after: ...", "listing:
# unchanged", "unloaded: ok" and "== done".
switches=$1 commands=$2 acme_p=$3
P=/sys/module/markers/parameters/proprietary
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
T=/sys/kernel/tracing
modprobe acme_xa || exit 1
insmod /mnt/host/markers_churn.ko || exit 1
insmod /mnt/host/markers_prop.ko || exit 1
F=/sys/module/markers_prop/parameters/fire
if grep -q P /sys/module/acme_xa/taint; then echo "acme_xa: proprietary=1"; else echo "acme_xa: proprietary=0"; fi
echo "policy before: $(cat $P)"
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
echo "switches: allowed=$allowed denied=$denied read_back=$read_back listed_right=$listed_right prop_listed_right=$prop_listed_right"
echo "ran: allowed=$ran_allowed denied=$ran_denied failed_runs=$failed_runs"
echo 0 >$T/events/markers/acme_cmd_submit/enable
echo "ftrace: submits=$(grep -c " acme_cmd_submit: id " $T/trace)"
echo "ftrace lost: $(grep -h "^overrun:" $T/per_cpu/cpu*/stats | cut -d" " -f2 | paste -sd+ | bc)"
held_counts
echo "fs_open: opens=$(cat $M/open_hits)"
echo "" >$M/open_path
echo acme_cmd_submit >$M/release
echo acme_cmd_complete >$M/release
echo test_prop_args >$M/release
echo "policy after: $(cat $P)"
listing_since /tmp/list.before
rmmod markers_churn markers_prop acme_xa && echo "unloaded: ok"
echo "== done"
