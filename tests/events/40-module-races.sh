#!/bin/bash
# Enabling the events of a module that is coming and going: the proprietary
# driver is loaded and unloaded in a loop while ftrace enables and disables
# its event and perf opens it; an enable file held open across the unload
# refuses writes afterwards, a format file held open refuses reads (the
# event's memory is gone with the module), and so do a trigger file and
# a filter file; opens of the event's files race the unload in a loop
# (KM_STRESS=full: 60 s, else 15 s); then the module is loaded once more
# and its event counts exactly. No kernel report (the guest fails on any),
# no stale event. The guest checks itself and prints KTAP
# (tests/events/guest/module-races.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# An open whose path walk found the file before the unload reaches
# ->open() after it; under KASAN that window showed as a use-after-free
# within about 30 s of this loop.
if [ "${KM_STRESS:-}" = full ]; then race_seconds=60; else race_seconds=15; fi

guest_status=0
"$vm" run -- env RACE_SECONDS=$race_seconds bash -c "$(guest_half module-races)" module-races >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
figure "open races: $(sed -n 's/^race reloads: //p' "$scratch/out") unloads and reloads in ${race_seconds} s against opens of 4 files of the event"
finish
