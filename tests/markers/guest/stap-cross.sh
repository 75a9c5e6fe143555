#!/bin/bash
# In the guest: runs the SystemTap modules compiled on the host
# (/mnt/host/stap_*.ko) under staprun against the test modules, and a
# registration with a wrong format. Prints what the probes print ("NAME
# u=... ", "hits=N", ...) under "== PART" lines, the dmesg lines of the
# registrations, and "== done" at the end.
cd /mnt/host || exit 1
fire() { echo "$2" > "/sys/module/$1/parameters/fire"; }
echo "== core"
staprun -c "insmod markers_gpl.ko" stap_core.ko
rmmod markers_gpl
echo "== values"
staprun -c "sh -c \"insmod markers_gpl.ko; insmod markers_prop.ko; echo 1 > /sys/module/markers_gpl/parameters/fire; echo 1 > /sys/module/markers_prop/parameters/fire\"" stap_values.ko
rmmod markers_gpl markers_prop
echo "== count allowed"
staprun -c "sh -c \"insmod markers_prop.ko; echo 5 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\"" stap_count.ko
echo "== count unload-reload"
staprun -c "sh -c \"insmod markers_prop.ko; echo 2 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop; insmod markers_prop.ko; echo 3 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\"" stap_count.ko
echo "== count forced"
staprun -c "sh -c \"insmod -f markers_prop_forced.ko; grep ^test_prop_args /sys/kernel/debug/markers/list; echo 5 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\"" stap_count.ko
echo "== count deny then allow"
echo deny > /sys/module/markers/parameters/proprietary
staprun -c "sh -c \"insmod markers_prop.ko; echo 3 > /sys/module/markers_prop/parameters/fire; echo allow > /sys/module/markers/parameters/proprietary; echo 4 > /sys/module/markers_prop/parameters/fire; rmmod markers_prop\"" stap_count.ko
echo "== wrong format through the API"
insmod markers_gpl.ko
echo "wrong %d" > /sys/module/markers_gpl/parameters/register_format
rmmod markers_gpl
dmesg | grep -e "register module_load" -e "format mismatch"
echo "== done"
