#!/bin/bash
# One marker name in two modules (issue 23, bug 9): markers_twin_a and
# markers_twin_b both have test_twin with the same format, so they share
# the event markers:test_twin, which the first one to load makes. When
# that one unloads, the event stays for the other, still enabled, with its
# filter, and still counting the other's firings; it goes only with the
# last module that has the marker, and comes back with the next one.
# The guest checks itself and prints KTAP (tests/events/guest/shared-name.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_twin_a.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half shared-name)" shared-name >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
