#!/bin/bash
# In the guest, booted with markers.proprietary=deny: loads markers_prop
# (/mnt/host, read-only) and checks the policy the command line set, its
# markers blocked (policy) and the decision logged, the switch to allow at
# run time making them connectable, a bogus value refused and changing
# nothing, the switch back, and that the debugfs directory has no policy
# knob. Checks itself and prints KTAP, plan first.
set -u
tab=$'\t'
fmt='u %u d %d llu %llu x %x s %s c %c p %p'
knob=/sys/module/markers/parameters/proprietary
list=/sys/kernel/debug/markers/list
echo "1..8"
lacks() {
	local found=0
	grep -a -q -e "$1" "$2" || found=$?
	[ "$found" = 1 ]
}
listed() { grep -qxF "$1" "$list"; }
logged() { dmesg | grep -q -e "$1"; }
is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }
fails() { ! "$@"; }
# set_to FILE VALUE: write VALUE to FILE; fails as the write does
set_to() { echo "$2" >"$1"; }
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"

echo "# policy=$(cat "$knob")"
check "markers.proprietary=deny on the command line sets the policy" is "$knob" deny
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
check "... and changes nothing" is "$knob" allow
set_to "$knob" deny
check "the parameter switches the policy back" is "$knob" deny
# (and the listing of the debugfs directory is there: it has the list file)
ls /sys/kernel/debug/markers/ >/tmp/debugfs
sed 's/^/# debugfs: /' /tmp/debugfs
no_debugfs_knob() { grep -qx list /tmp/debugfs && lacks '^proprietary' /tmp/debugfs; }
check "the policy has one interface: no debugfs knob" no_debugfs_knob
dmesg | grep -i marker | sed 's/^/# dmesg: /'
rmmod markers_prop
