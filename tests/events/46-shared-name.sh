#!/bin/bash
# One marker name in two modules (issue 23, bug 9): markers_twin_a and
# markers_twin_b both have test_twin with the same format, so they share
# the event markers:test_twin, which the first one to load makes. When
# that one unloads, the event stays for the other, still enabled, with its
# filter, and still counting the other's firings; it goes only with the
# last module that has the marker, and comes back with the next one.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_twin_a.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half shared-name)" shared-name >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }

check "both twins feed markers:test_twin, the filter keeps 5 of each" has 'both loaded: a 5 b 5'
check "the twin that made the event unloads" has 'rmmod of the first twin: ok'
check "... and the event stays for the other" has 'event after the first left: 1'
check "... still enabled" has 'enabled after the first left: 1'
check "... with its filter" has 'filter after the first left: n < 5'
check "... and counting the other's firings" has 'b alone: 5'
check "perf counts the remaining twin's 6 firings" grep -q '^perf: 6,,markers:test_twin' "$o"
check "the event passes back and forth: b unloads, a (loaded again) keeps it" has 'a again, b gone: 3'
check "the event goes with the last twin" has 'event after both left: 0'
check "... and comes back with the next" has 'event with b back: 1'
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
