#!/bin/bash
# The core kernel's marker events at boot (issue 23, bug 5):
# trace_event=markers:module_load on the kernel command line enables the
# event from boot, as it does any event, so a later modprobe is in the
# trace without anyone enabling it; trace_event= naming a marker event
# and a stock one enables both, and a name that matches no event is still
# reported, once. The events of vmlinux's markers have their tracefs
# directories in every boot (they were made in a race with tracefs). Each
# guest checks itself and prints KTAP (tests/events/guest/boot-events.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# boot NAME ARGS: a guest booted with ARGS on its command line, which
# checks itself as boot NAME (one or two) and prints KTAP
boot() {
	local name=$1 append=$2 guest_status=0
	echo "# boot $name: $append"
	"$vm" run --append "$append" -- bash -c "$(guest_half boot-events)" boot-events "$name" >"$scratch/$name" 2>&1 ||
		guest_status=$?
	guest_ktap "$scratch/$name"
	check "$name: the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
}

boot one 'trace_event=markers:module_load'
boot two 'trace_event=sched:sched_process_exec,markers:module_load,markers:no_such_marker'
finish
