#!/bin/bash
# In the guest, booted with markers.proprietary=deny: loads markers_prop
# (/mnt/host) and prints the policy ("policy=..."), its marker's listing
# under deny and after the switch to allow ("deny-list: ...", "allow-list:
# ..."), what a bogus value does, the debugfs directory ("debugfs: FILE")
# and all of dmesg.
# shellcheck disable=SC2012 # ls lists a debugfs directory
cd /mnt/host || exit 1
knob=/sys/module/markers/parameters/proprietary
echo "policy=$(cat $knob)"
insmod markers_prop.ko
grep "^test_prop_args" /sys/kernel/debug/markers/list | sed "s/^/deny-list: /"
echo allow > $knob
grep "^test_prop_args" /sys/kernel/debug/markers/list | sed "s/^/allow-list: /"
echo bogus > $knob || echo "bogus policy: refused"
echo "after bogus: $(cat $knob)"
echo deny > $knob
echo "again: $(cat $knob)"
ls /sys/kernel/debug/markers/ | sed "s/^/debugfs: /"
dmesg
