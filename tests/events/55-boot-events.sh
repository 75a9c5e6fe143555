#!/bin/bash
# The core kernel's marker events at boot (issue 23, bug 5):
# trace_event=markers:module_load on the kernel command line enables the
# event from boot, as it does any event, so a later modprobe is in the
# trace without anyone enabling it; trace_event= naming a marker event
# and a stock one enables both, and a name that matches no event is still
# reported, once. The events of vmlinux's markers have their tracefs
# directories in every boot (they were made in a race with tracefs).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

boot() {
	local name=$1 append=$2
	"$vm" run --append "$append" -- bash -c "$(guest_half boot-events)" boot-events >"$scratch/$name" 2>&1 || echo "guest exit status $?" >>"$scratch/$name"
	sed "s/^/# $name: /" "$scratch/$name"
}

boot one 'trace_event=markers:module_load'
boot two 'trace_event=sched:sched_process_exec,markers:module_load,markers:no_such_marker'
for name in one two; do
	o=$scratch/$name
	check "$name: trace_event= enables markers:module_load from boot" grep -qx 'enabled at boot: 1' "$o"
	check "$name: ... and the modprobe after boot is in the trace" grep -qE '^trace: module_load: name acme_xa taints 0x[0-9a-f]+$' "$o"
	check "$name: the three vmlinux marker events have their directories" grep -qx 'vmlinux event dirs: 3' "$o"
	check "$name: the guest ran to the end" grep -qx "== done" "$o"
done
check "two: a stock event in the same list is enabled too" grep -qx 'sched_process_exec enabled at boot: 1' "$scratch/two"
check "two: a name that matches no event is reported once" \
	[ "$(grep -c '^dmesg: Failed to enable trace event: markers:no_such_marker$' "$scratch/two")" = 1 ]
check "one: the name that does exist is not reported" lacks 'Failed to enable trace event' "$scratch/one"
finish
