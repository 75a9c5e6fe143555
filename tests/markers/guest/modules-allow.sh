#!/bin/bash
# In the guest, under the default policy (allow): loads the test modules
# (/mnt/host, read-only) and checks, each right after what it checks, the
# markers listing (vmlinux's, the GPL and the proprietary module's, those
# named like macros), the taint, the policy and the decision logged, the
# hits of probes on markers named like macros, what becomes of markers_bad
# (its bad site left out, its good markers listed and connected), of the
# modules built for another struct marker (loaded, markers blocked:
# layout, the loader's message) and of the force-loaded one (refused
# without -f, markers blocked: forced); that an unloaded module's markers
# leave the list; and at the end that no load needed a GPL-only symbol.
# Checks itself and prints KTAP, plan first; scratch files go to /tmp.
set -u
: "${list:?}" "${tab:?}" "${fmt:?}" # from modules-common.sh, which guest_half puts first
gpl=/sys/module/markers_gpl/parameters
echo "1..28"
# What every insmod said, for the check that none needed a GPL-only symbol
: >/tmp/insmod.err
load() { insmod "$@" 2>>/tmp/insmod.err; }
cd /mnt/host || echo "# cannot enter /mnt/host: the checks below fail"

load markers_gpl.ko || echo "# markers_gpl does not load"
load markers_prop.ko || echo "# markers_prop does not load"
sed 's/^/# list: /' "$list"
check "core markers are listed for vmlinux" listed "module_load${tab}vmlinux${tab}name %s taints %#lx${tab}off${tab}0"
check "the GPL module's markers are listed, off, every conversion kind" \
	listed "test_gpl_args${tab}markers_gpl${tab}${fmt}${tab}off${tab}0"
check "MARK_NOARGS is listed with an empty format" listed "test_gpl_noargs${tab}markers_gpl${tab}${tab}off${tab}0"
check "the proprietary module's markers are listed, connectable" \
	listed "test_prop_args${tab}markers_prop${tab}${fmt}${tab}off${tab}0"
check "markers named like macros are listed as written" listed "linux${tab}markers_gpl${tab}linux %d${tab}off${tab}0"
check "... both of them" listed "test_gpl_macro_name${tab}markers_gpl${tab}macro %u${tab}off${tab}0"
echo "# tainted=$(cat /proc/sys/kernel/tainted)"
check "the proprietary module taints the kernel P (and O)" reads /proc/sys/kernel/tainted 4097
check "the policy is allow by default" reads /sys/module/markers/parameters/proprietary allow
check "the decision for the proprietary module is logged with its reason" \
	logged 'markers: markers_prop: 2 markers connectable (proprietary, markers.proprietary=allow)'

# Probes on the markers named like macros, by name: linux (a predefined
# macro), never what it expands to, and test_gpl_macro_name (a #define)
echo test_gpl_expanded >"$gpl/attach_b"
echo linux >"$gpl/attach"
echo 3 >"$gpl/fire_macro_names"
echo "# linux-hits=$(cat "$gpl/hits") expanded-hits=$(cat "$gpl/hits_b")"
linux_hits() { reads "$gpl/hits" 3 && reads "$gpl/hits_b" 0; }
check "a probe on the marker named linux gets its 3 hits; no marker is named after the expansion" linux_hits
echo linux >"$gpl/detach"
echo test_gpl_expanded >"$gpl/detach_b"
echo test_gpl_macro_name >"$gpl/attach_b"
echo 2 >"$gpl/fire_macro_names"
echo "# macro-hits=$(cat "$gpl/hits_b")"
check "a probe on the marker named like a #define gets its 2 hits" reads "$gpl/hits_b" 2
rmmod markers_prop markers_gpl

# One bad site in markers_bad costs only itself
load markers_bad.ko || echo "# markers_bad does not load"
sed 's/^/# list: /' "$list"
check "one bad site is left out, with its reason logged" \
	logged 'markers: markers_bad: marker [0-9]* ignored: name outside __markers_strings'
check "... and the module's good markers are listed" \
	listed "test_bad_good_args${tab}markers_bad${tab}${fmt}${tab}off${tab}0"
check "... and the bad site is not listed" lacks '^test_bad_outside' "$list"
load markers_gpl.ko || echo "# markers_gpl does not load"
echo test_bad_good_args >"$gpl/attach"
echo 4 >/sys/module/markers_bad/parameters/fire
echo "# bad-module-hits=$(cat "$gpl/hits")"
check "... and connected: 4 hits" reads "$gpl/hits" 4
rmmod markers_gpl markers_bad

# Modules built for another struct marker: markers_abi "1 64 jump_label"
# and none at all
# load_tainted_o MODULE: it loads, with O (out of tree) its only taint
load_tainted_o() { load "$1" && reads /sys/module/markers_gpl/taint O; }
for v in abi1 noabi; do
	check "$v: a module built for another struct marker loads" load_tainted_o "markers_gpl_$v.ko"
	echo "# $v: taint $(cat /sys/module/markers_gpl/taint 2>&1)"
	check "$v: its markers are listed blocked (layout)" \
		listed "test_gpl_args${tab}markers_gpl${tab}${fmt}${tab}blocked${tab}0${tab}layout"
	rmmod markers_gpl
done
check "the loader says which markers_abi the module has and wants" \
	logged 'markers_gpl: built with markers_abi "1 64 jump_label", this kernel has "2 64 jump_label": its markers stay disconnected'
check "... also when the module has none" logged 'markers_gpl: built with markers_abi "(none)"'
check "the verdict for it is logged" logged 'markers: markers_gpl: 4 markers blocked: built for another struct marker'

# The force-loaded variant (its vermagic does not match)
check "the forced variant does not load without -f" fails load markers_prop_forced.ko
check "the forced variant loads with insmod -f" load -f markers_prop_forced.ko
grep '^test_prop' "$list" | sed 's/^/# forced-list: /'
check "the forced variant's markers are listed blocked (forced)" \
	listed "test_prop_args${tab}markers_prop${tab}${fmt}${tab}blocked${tab}0${tab}forced"
check "the decision for the forced module is logged" logged 'markers: markers_prop: 2 markers blocked: force-loaded'
echo 5 >/sys/module/markers_prop/parameters/fire
rmmod markers_prop
check "an unloaded module's markers leave the list" lacks '^test_prop' "$list"

# Every load of this run, markers_prop's above all: no GPL-only symbol
# wanted, in what insmod said or in the kernel log
sed 's/^/# insmod: /' /tmp/insmod.err
dmesg >/tmp/dmesg
no_gpl_only() { lacks 'Unknown symbol\|GPL-incompatible' /tmp/dmesg && lacks 'Unknown symbol\|GPL-incompatible' /tmp/insmod.err; }
check "a proprietary module with markers needs no GPL-only symbol" no_gpl_only
grep -i -e marker -e 'Unknown symbol' -e GPL /tmp/dmesg | sed 's/^/# dmesg: /'
