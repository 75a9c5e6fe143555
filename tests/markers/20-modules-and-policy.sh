#!/bin/bash
# Markers in modules: the build's Module.markers lists; in the guest, a GPL and a proprietary test module load
# and list their markers; the proprietary one needs no GPL-only symbol; its
# force-loaded variant is blocked (forced); under markers.proprietary=deny it
# is blocked (policy) until the switch flips at run time. Markers whose
# names are also macros are recorded as written; one bad site costs only
# itself; a module built for another struct marker (markers_abi) loads with
# its markers blocked (layout).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_prop_forced.ko" ] || die "no test modules; run tests/modules/build"
tab=$(printf '\t')
fmt='u %u d %d llu %llu x %x s %s c %c p %p'

# What SystemTap reads: the kernel build's and the external build's lists.
check "the kernel build wrote Module.markers with vmlinux's markers" \
	grep -qxF "module_load${tab}vmlinux${tab}name %s taints %#lx" "$kbuild/Module.markers"
check "the external module build (M=) wrote its own Module.markers" \
	grep -qxF "test_gpl_args${tab}markers_gpl${tab}${fmt}" "$mods/Module.markers"
check "... with MARK_NOARGS as an empty format" grep -qxF "test_prop_noargs${tab}markers_prop${tab}" "$mods/Module.markers"
check "a marker named like a predefined macro (linux) is recorded as written" \
	grep -qxF "linux${tab}markers_gpl${tab}linux %d" "$mods/Module.markers"
check "a marker named like a #define is recorded as written" \
	grep -qxF "test_gpl_macro_name${tab}markers_gpl${tab}macro %u" "$mods/Module.markers"
check "a site outside __markers_strings does not reach Module.markers" lacks test_bad_outside "$mods/Module.markers"
# The sites call marker_probe_cb() directly: a non-GPL export, no code
# pointer in the module's data.
nm "$mods/markers_prop.ko" >"$scratch/nm-prop"
check "the proprietary module calls marker_probe_cb() directly" grep -qE '^ +U marker_probe_cb$' "$scratch/nm-prop"
abi=$(objcopy -O binary --only-section=.modinfo "$mods/markers_gpl.ko" /dev/stdout | tr '\0' '\n' | sed -n 's/^markers_abi=//p')
check "modpost records the marker layout in the module (markers_abi=$abi)" [ "$abi" = "2 64 jump_label" ]

"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half modules-allow)" modules-allow >"$scratch/allow" 2>&1 || true
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
check "markers named like macros are listed as written" \
	grep -qxF "linux${tab}markers_gpl${tab}linux %d${tab}off${tab}0" "$a"
check "... both of them" grep -qxF "test_gpl_macro_name${tab}markers_gpl${tab}macro %u${tab}off${tab}0" "$a"
check "a probe on the marker named linux gets its 3 hits; no marker is named after the expansion" \
	grep -qx 'linux-hits=3 expanded-hits=0' "$a"
check "a probe on the marker named like a #define gets its 2 hits" grep -qx 'macro-hits=2' "$a"
check "one bad site is left out, with its reason logged" \
	grep -q 'markers: markers_bad: marker [0-9]* ignored: name outside __markers_strings' "$a"
check "... and the module's good markers are listed" \
	grep -qxF "bad-list: test_bad_good_args${tab}markers_bad${tab}${fmt}${tab}off${tab}0" "$a"
check "... and connected: 4 hits" grep -qx 'bad-module-hits=4' "$a"
check "... and the bad site is not listed" lacks '^bad-list: test_bad_outside' "$a"
for v in abi1 noabi; do
	check "$v: a module built for another struct marker loads" grep -qx "$v: loaded, taint O" "$a"
	check "$v: its markers are listed blocked (layout)" \
		grep -qxF "$v-list: test_gpl_args${tab}markers_gpl${tab}${fmt}${tab}blocked${tab}0${tab}layout" "$a"
done
check "the loader says which markers_abi the module has and wants" \
	grep -q 'markers_gpl: built with markers_abi "1 64 jump_label", this kernel has "2 64 jump_label": its markers stay disconnected' "$a"
check "... also when the module has none" grep -q 'markers_gpl: built with markers_abi "(none)"' "$a"
check "the verdict for it is logged" grep -q 'markers: markers_gpl: 4 markers blocked: built for another struct marker' "$a"

"$vm" run --rodir "/mnt/host=$mods" --append markers.proprietary=deny -- bash -c "$(guest_half modules-deny)" modules-deny >"$scratch/deny" 2>&1 || true
cat "$scratch/deny"
d=$scratch/deny
check "markers.proprietary=deny on the command line sets the policy" grep -qx 'policy=deny' "$d"
check "under deny the proprietary module's markers are blocked (policy)" \
	grep -qxF "deny-list: test_prop_args${tab}markers_prop${tab}${fmt}${tab}blocked${tab}0${tab}policy" "$d"
check "the deny decision is logged" grep -q 'markers: markers_prop: 2 markers blocked: proprietary module, markers.proprietary=deny' "$d"
check "flipping to allow at run time makes them connectable" \
	grep -qxF "allow-list: test_prop_args${tab}markers_prop${tab}${fmt}${tab}off${tab}0" "$d"
check "a bad policy value is refused" grep -q 'bogus policy: refused' "$d"
check "... and changes nothing" grep -qx 'after bogus: allow' "$d"
check "the parameter switches the policy back" grep -qx 'again: deny' "$d"
# (and the listing of the debugfs directory is there: it has the list file)
no_debugfs_knob() { grep -qx 'debugfs: list' "$d" && lacks '^debugfs: proprietary' "$d"; }
check "the policy has one interface: no debugfs knob" no_debugfs_knob
finish
