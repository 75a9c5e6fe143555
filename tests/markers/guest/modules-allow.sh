#!/bin/bash
# In the guest, under the default policy (allow): loads the test modules
# (/mnt/host) and prints the taint, the markers listing, the policy, the
# hits of probes on markers named like macros ("linux-hits=N ..."), what
# became of markers_bad ("bad-list: ...", "bad-module-hits=N"), of the
# modules built for another struct marker ("V: loaded, taint T", "V-list:
# ..."), of the force-loaded one ("forced-list: ..."), then all of dmesg.
# Traced with set -x (on stderr, which the host keeps too).
set -x
cd /mnt/host || exit 1
insmod markers_gpl.ko
insmod markers_prop.ko
echo "tainted=$(cat /proc/sys/kernel/tainted)"
cat /sys/kernel/debug/markers/list
echo "policy=$(cat /sys/module/markers/parameters/proprietary)"
echo test_gpl_expanded > /sys/module/markers_gpl/parameters/attach_b
echo linux > /sys/module/markers_gpl/parameters/attach
echo 3 > /sys/module/markers_gpl/parameters/fire_macro_names
echo "linux-hits=$(cat /sys/module/markers_gpl/parameters/hits) expanded-hits=$(cat /sys/module/markers_gpl/parameters/hits_b)"
echo linux > /sys/module/markers_gpl/parameters/detach
echo test_gpl_expanded > /sys/module/markers_gpl/parameters/detach_b
echo test_gpl_macro_name > /sys/module/markers_gpl/parameters/attach_b
echo 2 > /sys/module/markers_gpl/parameters/fire_macro_names
echo "macro-hits=$(cat /sys/module/markers_gpl/parameters/hits_b)"
rmmod markers_prop markers_gpl
insmod markers_bad.ko
grep "	markers_bad	" /sys/kernel/debug/markers/list | sed "s/^/bad-list: /"
insmod markers_gpl.ko
echo test_bad_good_args > /sys/module/markers_gpl/parameters/attach
echo 4 > /sys/module/markers_bad/parameters/fire
echo "bad-module-hits=$(cat /sys/module/markers_gpl/parameters/hits)"
rmmod markers_gpl markers_bad
for v in abi1 noabi; do
	insmod markers_gpl_$v.ko && echo "$v: loaded, taint $(cat /sys/module/markers_gpl/taint)"
	grep "	markers_gpl	" /sys/kernel/debug/markers/list | sed "s/^/$v-list: /"
	rmmod markers_gpl
done
insmod markers_prop_forced.ko || echo "forced without -f: refused"
insmod -f markers_prop_forced.ko && echo "forced with -f: loaded"
grep "^test_prop" /sys/kernel/debug/markers/list | sed "s/^/forced-list: /"
echo 5 > /sys/module/markers_prop/parameters/fire
rmmod markers_prop
echo "after-unload: $(grep -c "^test_prop" /sys/kernel/debug/markers/list)"
dmesg
