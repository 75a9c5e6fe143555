#!/bin/bash
# In the guest, booted with trace_event= on its command line:
#   boot-events.sh one|two
# one: trace_event=markers:module_load; two: trace_event= with
# sched:sched_process_exec, markers:module_load and markers:no_such_marker.
# Checks that the three vmlinux marker events have their directories,
# that markers:module_load (and in two sched_process_exec) is enabled from
# boot, that the modprobe of acme_xa is then in the trace, and what dmesg
# says of the names (one: nothing failed to enable; two: no_such_marker
# reported once). Checks itself and prints KTAP, plan first (one: 4
# results, two: 5); what it read goes out as plain lines ("trace: ...",
# "dmesg: ..."). Any other argument prints no plan, which fails.
set -u
T=/sys/kernel/tracing
boot=${1:-}
case $boot in
one) echo "1..4" ;;
two) echo "1..5" ;;
*) echo "usage: boot-events.sh one|two, not '$boot'"; exit 1 ;;
esac

dirs=0
for ev in fs_open module_load module_unload; do
	[ ! -d $T/events/markers/$ev ] || dirs=$((dirs + 1))
done
echo "vmlinux event dirs: $dirs"
check "$boot: the three vmlinux marker events have their directories" [ "$dirs" = 3 ]

if [ "$boot" = two ]; then
	enabled=$(cat $T/events/sched/sched_process_exec/enable)
	echo "sched_process_exec enabled at boot: $enabled"
	check "two: a stock event in the same list is enabled too" [ "$enabled" = 1 ]
fi
enabled=$(cat $T/events/markers/module_load/enable)
echo "enabled at boot: $enabled"
check "$boot: trace_event= enables markers:module_load from boot" [ "$enabled" = 1 ]
modprobe acme_xa
grep -o "module_load: name acme_xa taints 0x[0-9a-f]*" $T/trace >/tmp/trace
sed "s/^/trace: /" /tmp/trace
check "$boot: ... and the modprobe after boot is in the trace" \
	grep -qE '^module_load: name acme_xa taints 0x[0-9a-f]+$' /tmp/trace

# The kernel's log, without its timestamps; its trace event lines shown
dmesg_status=0
dmesg >/tmp/dmesg.raw || dmesg_status=$?
sed "s/^\[[ 0-9.]*\] //" /tmp/dmesg.raw >/tmp/dmesg
grep -i "trace event" /tmp/dmesg | sed "s/^/dmesg: /"
# unreported: dmesg was read, and it reports no name that failed to enable
unreported() { [ "$dmesg_status" = 0 ] && [ -s /tmp/dmesg ] && lacks "Failed to enable trace event" /tmp/dmesg; }
if [ "$boot" = one ]; then
	check "one: the name that does exist is not reported" unreported
else
	check "two: a name that matches no event is reported once" \
		[ "$(grep -cxF 'Failed to enable trace event: markers:no_such_marker' /tmp/dmesg)" = 1 ]
fi
