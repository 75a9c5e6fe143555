#!/bin/bash
# Markers in modules: the build's Module.markers lists (checked on the
# host, with the modules' symbols and modinfo); in two guests that check
# themselves and print KTAP, a GPL and a proprietary test module load
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

# In the guests, which check themselves (guest/modules-allow.sh under the
# default policy, guest/modules-deny.sh booted with markers.proprietary=deny)
# and print KTAP: each run's plan and results become this test's.
allow_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half modules-common modules-allow)" modules-allow >"$scratch/allow" 2>&1 ||
	allow_status=$?
guest_ktap "$scratch/allow"
check "the allow guest ran to the end, with no kernel report (exit $allow_status)" [ "$allow_status" = 0 ]

deny_status=0
"$vm" run --rodir "/mnt/host=$mods" --append markers.proprietary=deny -- \
	bash -c "$(guest_half modules-common modules-deny)" modules-deny >"$scratch/deny" 2>&1 || deny_status=$?
guest_ktap "$scratch/deny"
check "the deny guest ran to the end, with no kernel report (exit $deny_status)" [ "$deny_status" = 0 ]
finish
