#!/bin/bash
# In the guest: runs the SystemTap modules compiled on the host
# (/mnt/host/stap_*.ko) under staprun against the test modules, and a
# registration with a wrong format, and checks each right after it: a
# core marker's name and format, exact argument values from the GPL and
# the proprietary module, MARK_NOARGS markers firing, every firing of a
# connected marker counted (also across unload and reload), nothing from a
# force-loaded module (its marker blocked, forced, with the probe waiting)
# nor under deny, everything after the flip to allow, and -EBUSY for a
# wrong format with both formats logged. Checks itself and prints KTAP,
# plan first; what staprun printed goes to /tmp and out as comments.
set -u
tab=$'\t'
echo "1..12"
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"
# run_stap PART MODULE CMD: staprun MODULE while CMD runs, what it prints
# in /tmp/PART.out (the probes' output and CMD's), stderr in /tmp/PART.err
run_stap() {
	staprun -c "$3" "$2" >"/tmp/$1.out" 2>"/tmp/$1.err"
	echo "# staprun $2 ($1): exit $?"
	sed "s/^/# $1: /" "/tmp/$1.out" "/tmp/$1.err"
}

run_stap core stap_core.ko "insmod markers_gpl.ko"
rmmod markers_gpl
check "a core marker reaches a probe with its name and format" grep -qxF 'module_load|name %s taints %#lx' /tmp/core.out

run_stap values stap_values.ko "sh -c \"insmod markers_gpl.ko; insmod markers_prop.ko; echo 1 > /sys/module/markers_gpl/parameters/fire; echo 1 > /sys/module/markers_prop/parameters/fire\""
rmmod markers_gpl markers_prop
for who in gpl prop; do
	check "exact values from the $who module (%u %d %llu %x %s %c %p)" \
		grep -qxF "test_${who}_args u=4000000000 d=-42 llu=12345678901234 x=deadbeef s=hello markers c=M p=0xffff888012345678" /tmp/values.out
	check "MARK_NOARGS marker of the $who module fires" grep -q "^test_${who}_noargs fired" /tmp/values.out
done

run_stap allowed stap_count.ko "sh -c \"insmod markers_prop.ko; echo 5 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\""
check "every firing of a connected proprietary marker is seen (5)" grep -qx hits=5 /tmp/allowed.out

run_stap reload stap_count.ko "sh -c \"insmod markers_prop.ko; echo 2 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop; insmod markers_prop.ko; echo 3 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\""
check "a probe stays registered across unload and reload (2 + 3)" grep -qx hits=5 /tmp/reload.out

run_stap forced stap_count.ko "sh -c \"insmod -f markers_prop_forced.ko; grep ^test_prop_args /sys/kernel/debug/markers/list; echo 5 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\""
check "a force-loaded module's marker is blocked (forced) with a probe waiting, named" \
	grep -qE "${tab}blocked${tab}1${tab}forced${tab}[^[:space:]]+ \[stap_[[:alnum:]_]+\]$" /tmp/forced.out
check "nothing fires from a force-loaded module" grep -qx hits=0 /tmp/forced.out

echo deny >/sys/module/markers/parameters/proprietary
run_stap deny-allow stap_count.ko "sh -c \"insmod markers_prop.ko; echo 3 > /sys/module/markers_prop/parameters/fire; echo allow > /sys/module/markers/parameters/proprietary; echo 4 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\""
check "under deny nothing fires; after the flip to allow everything does (4)" grep -qx hits=4 /tmp/deny-allow.out

# A probe with the wrong format, through the API (markers_gpl's
# register_format): refused, and logged
insmod markers_gpl.ko
echo "wrong %d" >/sys/module/markers_gpl/parameters/register_format
rmmod markers_gpl
dmesg >/tmp/dmesg
grep -e "register module_load" -e "format mismatch" /tmp/dmesg | sed 's/^/# dmesg: /'
check "a wrong format through the API gets -EBUSY" grep -qF 'register module_load with format "wrong %d": -16' /tmp/dmesg
check "the refusal is logged naming both formats" \
	grep -qF 'format mismatch for marker module_load: probe "wrong %d", marker "name %s taints %#lx"' /tmp/dmesg
