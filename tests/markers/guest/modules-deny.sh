#!/bin/bash
# In the guest, booted with markers.proprietary=deny: loads markers_prop
# (/mnt/host, read-only) and checks the policy the command line set, its
# markers blocked (policy) and the decision logged, the switch to allow at
# run time making them connectable, a bogus value refused and changing
# nothing, the switch back, and that the debugfs directory has no policy
# knob. Checks itself and prints KTAP, plan first.
set -u
: "${list:?}" "${tab:?}" "${fmt:?}" # from modules-common.sh, which guest_half puts first
knob=/sys/module/markers/parameters/proprietary
echo "1..8"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"

echo "# policy=$(cat "$knob")"
check "markers.proprietary=deny on the command line sets the policy" reads "$knob" deny
insmod markers_prop.ko || echo "# markers_prop does not load"
grep '^test_prop_args' "$list" | sed 's/^/# deny-list: /'
check "under deny the proprietary module's markers are blocked (policy)" \
	listed "test_prop_args${tab}markers_prop${tab}${fmt}${tab}blocked${tab}0${tab}policy"
check "the deny decision is logged" logged 'markers: markers_prop: 2 markers blocked: proprietary module, markers.proprietary=deny'
set_to "$knob" allow
grep '^test_prop_args' "$list" | sed 's/^/# allow-list: /'
check "flipping to allow at run time makes them connectable" \
	listed "test_prop_args${tab}markers_prop${tab}${fmt}${tab}off${tab}0"
check "a bad policy value is refused" fails set_to "$knob" bogus
echo "# after bogus: $(cat "$knob")"
check "... and changes nothing" reads "$knob" allow
set_to "$knob" deny
check "the parameter switches the policy back" reads "$knob" deny
# (and the listing of the debugfs directory is there: it has the list file)
ls /sys/kernel/debug/markers/ >/tmp/debugfs
sed 's/^/# debugfs: /' /tmp/debugfs
no_debugfs_knob() { grep -qx list /tmp/debugfs && lacks '^proprietary' /tmp/debugfs; }
check "the policy has one interface: no debugfs knob" no_debugfs_knob
dmesg | grep -i marker | sed 's/^/# dmesg: /'
rmmod markers_prop
