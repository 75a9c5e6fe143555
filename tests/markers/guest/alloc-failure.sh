#!/bin/bash
# In the guest: with failslab's fail-nth armed by markers_gpl (/mnt/host),
# registers and unregisters probes on markers_prop's test_prop_args,
# failing their Nth allocation. Prints "PARAM nth=N: ok|ERROR; listed STATE
# PROBES" per try, the probes' hits after each step ("hits ...: N N") and
# "after unload: N".
cd /mnt/host || exit 1
insmod markers_gpl.ko
insmod markers_prop.ko
F=/sys/kernel/debug/failslab
P=/sys/module/markers_gpl/parameters
# GFP_KERNEL allocations are what the marker core makes
echo N > $F/ignore-gfp-wait
echo 0 > $F/verbose
list() { grep "^test_prop_args	" /sys/kernel/debug/markers/list | cut -f4,5 | tr "\t" " "; }
# $1: parameter, $2: marker, $3: fail the Nth allocation
try() {
	echo "$3" > $P/fail_nth
	# err captures the write's error (echo's stderr), not what it echoes
	# shellcheck disable=SC2116
	if err=$(echo "$2" 2>&1 > "$P/$1"); then r=ok; else r=${err##*: }; fi
	echo "$1 nth=$3: $r; listed $(list)"
}
echo "before: listed $(list)"
# Fail the 1st, 2nd, ... allocation until one registration goes through
for n in $(seq 1 12); do try attach test_prop_args "$n"; [ "$r" != ok ] || break; done
echo 2 > /sys/module/markers_prop/parameters/fire
echo "hits after attach: $(cat $P/hits)"
for n in $(seq 1 12); do try attach_b test_prop_args "$n"; [ "$r" != ok ] || break; done
echo 3 > /sys/module/markers_prop/parameters/fire
echo "hits: $(cat $P/hits) $(cat $P/hits_b)"
try detach_b test_prop_args 1
echo 4 > /sys/module/markers_prop/parameters/fire
echo "hits after detach_b: $(cat $P/hits) $(cat $P/hits_b)"
try detach test_prop_args 1
echo 5 > /sys/module/markers_prop/parameters/fire
echo "hits after detach: $(cat $P/hits) $(cat $P/hits_b)"
try attach_b test_prop_args 0
echo 1 > /sys/module/markers_prop/parameters/fire
echo "hits at the end: $(cat $P/hits) $(cat $P/hits_b)"
rmmod markers_gpl markers_prop
echo "after unload: $(grep -c test_prop /sys/kernel/debug/markers/list)"
