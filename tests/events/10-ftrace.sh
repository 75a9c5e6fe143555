#!/bin/bash
# Markers as trace events, through ftrace: the events of vmlinux and of a
# proprietary module, their typed and named fields and print format, the
# ring buffer with filters, a hist trigger and an instance; the policy;
# the force-loaded twin; unloading with the event enabled; and bad input
# (an untypeable format, one name with two formats, NULL and unreadable
# strings, a filter on a field that does not exist). The guest checks
# itself and prints KTAP (tests/events/guest/ftrace.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_bad.ko" ] || die "no test modules; run tests/modules/build"

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half ftrace)" ftrace >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
