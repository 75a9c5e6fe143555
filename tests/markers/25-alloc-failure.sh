#!/bin/bash
# Every slab allocation of marker_probe_register() and
# marker_probe_unregister() failed in turn (fault injection's fail-nth,
# armed by the GPL test module around the call): a registration that
# fails with -ENOMEM changes nothing (the listing stays as it was), the
# next one works, and an unregistration that cannot allocate still takes
# the probe away. How many allocations a registration makes is found, not
# assumed: on the debug kernel, debugobjects' pool refills are slab
# allocations of the same task and take some of the counted turns. The
# guest checks itself and prints KTAP (guest/alloc-failure.sh), and the
# tally of its tries, the figure.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half alloc-failure)" alloc-failure >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
# The guest's tally of its tries, as this run's figure
tally=$(sed -n 's/^failslab: //p' "$scratch/out" | head -n 1)
[ -z "$tally" ] || figure "failslab: $tally"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
