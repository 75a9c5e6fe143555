#!/bin/bash
# Markers in modules: the build's Module.markers lists; in the guest, a GPL and a proprietary test module load
# and list their markers; the proprietary one needs no GPL-only symbol; its
# force-loaded variant is blocked (forced); under markers.proprietary=deny it
# is blocked (policy) until the switch flips at run time.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

mods=$project_dir/build/test-modules
[ -e "$mods/markers_prop_forced.ko" ] || die "no test modules; run tests/modules/build"
tab=$(printf '\t')
fmt='u %u d %d llu %llu x %x s %s c %c p %p'

# What SystemTap reads: the kernel build's and the external build's lists.
check "the kernel build wrote Module.markers with vmlinux's markers" \
	grep -qxF "module_load${tab}vmlinux${tab}name %s taints %#lx" "$kbuild/Module.markers"
check "the external module build (M=) wrote its own Module.markers" \
	grep -qxF "test_gpl_args${tab}markers_gpl${tab}${fmt}" "$mods/Module.markers"
check "... with MARK_NOARGS as an empty format" grep -qxF "test_prop_noargs${tab}markers_prop${tab}" "$mods/Module.markers"

# shellcheck disable=SC2016 # expanded by the guest's shell
"$vm" run --share "$mods" -- bash -c '
	set -x
	cd /mnt/host
	insmod markers_gpl.ko
	insmod markers_prop.ko
	echo "tainted=$(cat /proc/sys/kernel/tainted)"
	cat /sys/kernel/debug/markers/list
	echo "policy=$(cat /sys/kernel/debug/markers/proprietary)"
	rmmod markers_prop markers_gpl
	insmod markers_prop_forced.ko || echo "forced without -f: refused"
	insmod -f markers_prop_forced.ko && echo "forced with -f: loaded"
	grep "^test_prop" /sys/kernel/debug/markers/list | sed "s/^/forced-list: /"
	echo 5 > /sys/module/markers_prop/parameters/fire
	rmmod markers_prop
	echo "after-unload: $(grep -c "^test_prop" /sys/kernel/debug/markers/list)"
	dmesg' >"$scratch/allow" 2>&1 || true
cat "$scratch/allow"
a=$scratch/allow
check "core markers are listed for vmlinux" grep -q "^module_load${tab}vmlinux${tab}name %s taints %#lx${tab}off${tab}0$" "$a"
check "the GPL module's markers are listed, off, every conversion kind" grep -qxF "test_gpl_args${tab}markers_gpl${tab}${fmt}${tab}off${tab}0" "$a"
check "MARK_NOARGS is listed with an empty format" grep -qxF "test_gpl_noargs${tab}markers_gpl${tab}${tab}off${tab}0" "$a"
check "the proprietary module's markers are listed, connectable" grep -qxF "test_prop_args${tab}markers_prop${tab}${fmt}${tab}off${tab}0" "$a"
check "the proprietary module taints the kernel P (and O)" grep -qx 'tainted=4097' "$a"
check "the policy is allow by default" grep -qx 'policy=allow' "$a"
check "the decision for the proprietary module is logged with its reason" \
	grep -q 'markers: markers_prop: 2 markers connectable (proprietary, markers.proprietary=allow)' "$a"
check "a proprietary module with markers needs no GPL-only symbol" lacks 'Unknown symbol\|GPL-incompatible' "$a"
check "the forced variant does not load without -f" grep -q 'forced without -f: refused' "$a"
check "the forced variant loads with insmod -f" grep -q 'forced with -f: loaded' "$a"
check "the forced variant's markers are listed blocked (forced)" \
	grep -qxF "forced-list: test_prop_args${tab}markers_prop${tab}${fmt}${tab}blocked${tab}0${tab}forced" "$a"
check "the decision for the forced module is logged" grep -q 'markers: markers_prop: 2 markers blocked: force-loaded' "$a"
check "an unloaded module's markers leave the list" grep -qx 'after-unload: 0' "$a"

# shellcheck disable=SC2016 # expanded by the guest's shell
"$vm" run --share "$mods" --append markers.proprietary=deny -- bash -c '
	cd /mnt/host
	echo "policy=$(cat /sys/kernel/debug/markers/proprietary)"
	insmod markers_prop.ko
	grep "^test_prop_args" /sys/kernel/debug/markers/list | sed "s/^/deny-list: /"
	echo allow > /sys/kernel/debug/markers/proprietary
	grep "^test_prop_args" /sys/kernel/debug/markers/list | sed "s/^/allow-list: /"
	echo bogus > /sys/kernel/debug/markers/proprietary || echo "bogus policy: refused"
	echo deny > /sys/module/markers/parameters/proprietary
	echo "via sysfs: $(cat /sys/kernel/debug/markers/proprietary)"
	dmesg' >"$scratch/deny" 2>&1 || true
cat "$scratch/deny"
d=$scratch/deny
check "markers.proprietary=deny on the command line sets the policy" grep -qx 'policy=deny' "$d"
check "under deny the proprietary module's markers are blocked (policy)" \
	grep -qxF "deny-list: test_prop_args${tab}markers_prop${tab}${fmt}${tab}blocked${tab}0${tab}policy" "$d"
check "the deny decision is logged" grep -q 'markers: markers_prop: 2 markers blocked: proprietary module, markers.proprietary=deny' "$d"
check "flipping to allow at run time makes them connectable" \
	grep -qxF "allow-list: test_prop_args${tab}markers_prop${tab}${fmt}${tab}off${tab}0" "$d"
check "a bad policy value is refused" grep -q 'bogus policy: refused' "$d"
check "the policy is also a module parameter" grep -qx 'via sysfs: deny' "$d"
finish
