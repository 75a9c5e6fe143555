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
# count exactly, and the kernel reports nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

guest_status=0
"$vm" run -- bash -c "$(guest_half trigger-unload)" trigger-unload >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }

check "a hist trigger on markers:acme_irq counts" grep -qE '^hist before rmmod: [1-9]' "$o"
check "the driver unloads with the trigger set" has 'rmmod with a hist trigger: ok'
check "reloaded, its event has no trigger" has 'triggers after reload: 0'
check "... and the driver runs (the old probe would be called here)" has 'run after reload: ok'
check "... and its events count exactly" has 'submits after reload: 10'
check "it unloads with a trigger in an instance and one with a filter" has 'rmmod with two triggers: ok'
check "... reloaded, the instance's event has no trigger" has 'instance triggers after reload: 0'
check "... a run does not fire the old traceoff" has 'tracing_on in the instance after the run: 1'
check "... and the instance can be removed" has 'instance removed'
check "it unloads with an event both enabled and triggered" has 'rmmod with an enabled, triggered event: ok'
check "... which comes back disabled" has 'enabled after reload: 0'
check "... and counts exactly" has 'completes after reload: 6'
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
