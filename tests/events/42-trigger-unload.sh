#!/bin/bash
# Triggers left on a module's events when the module unloads: nothing a
# tracer set may outlive the event. A trigger puts the event in soft mode,
# which the trace event core does not undo when it removes the event, so
# the event's probes stayed registered on its name after the event was
# freed, and the next module with that marker called freed memory (the
# first bug of issue 23: the rmmod warned in marker_events_module_notify).
# Here: a hist trigger on markers:acme_irq, rmmod, modprobe, a run; the
# same with a traceoff trigger on an instance's copy of an event; and a
# trigger on an enabled event. The reloaded events carry no trigger,
# count exactly, and the kernel reports nothing. The guest checks itself
# and prints KTAP (tests/events/guest/trigger-unload.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

guest_status=0
"$vm" run -- bash -c "$(guest_half trigger-unload)" trigger-unload >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
