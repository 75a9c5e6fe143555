#!/bin/bash
# In the guest, booted with trace_event= on its command line: whether
# markers:module_load and sched_process_exec are enabled from boot ("...
# enabled at boot: 0|1"), how many vmlinux marker event directories there
# are, the modprobe of acme_xa in the trace ("trace: ...") and the trace
# event lines of dmesg ("dmesg: ..."); "== done" at the end.
# shellcheck disable=SC2012 # ls counts tracefs directories, named like identifiers
T=/sys/kernel/tracing
echo "enabled at boot: $(cat $T/events/markers/module_load/enable)"
echo "sched_process_exec enabled at boot: $(cat $T/events/sched/sched_process_exec/enable)"
ls -d $T/events/markers/fs_open $T/events/markers/module_load $T/events/markers/module_unload | wc -l | sed "s/^/vmlinux event dirs: /"
modprobe acme_xa
grep -o "module_load: name acme_xa taints 0x[0-9a-f]*" $T/trace | sed "s/^/trace: /"
dmesg | grep -i "trace event" | sed "s/^\[[ 0-9.]*\] /dmesg: /"
echo "== done"
