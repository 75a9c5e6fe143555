#!/bin/bash
# What a marker's format becomes in its trace event, for the formats that
# went wrong (issue 23, bugs 2 and 4): a %p extension that reads memory
# when it is printed (%pM) is recorded and printed as a plain address,
# with one log line naming the marker and the conversion, so reading the
# trace never reads the marker's buffer; %pS, %px and %pe, which read
# nothing but the pointer, keep their meaning; "arg2 %d %d" gives two
# fields with different names, which a filter and bpftrace can both use;
# and a marker without arguments has an event without fields. The rules
# for each class are KUnit's (markers_events); this is the same in a
# guest, from a module. The guest checks itself and prints KTAP
# (tests/events/guest/format-fields.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_events.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half format-fields)" format-fields >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
