#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... tracers FTRACE_CYCLES PERF_CYCLES BPF_CYCLES COMMANDS. ftrace,
# perf stat and bpftrace attach to markers:acme_cmd_submit and detach, each
# time around COMMANDS read commands, under a background load of writes.
# Prints "WHAT: key=value ..." lines ("ftrace:", "perf:", "bpftrace:",
# "measured:", "held:", ...), "enable after: N", "listing: unchanged",
# "unloaded: ok" and "== done".
ftrace_cycles=$1 perf_cycles=$2 bpf_cycles=$3 commands=$4
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
E=/sys/kernel/tracing/events/markers/acme_cmd_submit
T=/sys/kernel/tracing
workload="/usr/local/bin/acmectl run --count $commands --threads 2 --opcodes read"
modprobe acme_xa || exit 1
insmod /mnt/host/markers_churn.ko || exit 1
echo acme_cmd_submit >$M/hold
cp $L /tmp/list.before
vendor_load background --count 200 --threads 2 --opcodes write &
background=$!
measured=0
# run_workload: the measured commands, counted as acmectl reports them
run_workload() {
	local out
	out=$($workload) || return 1
	measured=$((measured + $(completed "$out")))
}
echo "opcode == 1" >$E/filter
exact=0 enabled=0
for _ in $(seq "$ftrace_cycles"); do
	echo >$T/trace
	echo 1 >$E/enable && enabled=$((enabled + 1))
	run_workload
	echo 0 >$E/enable
	[ "$(grep -c " acme_cmd_submit: id " $T/trace)" = "$commands" ] && exact=$((exact + 1))
done
echo "ftrace: cycles=$ftrace_cycles enabled=$enabled exact=$exact"
echo 0 >$E/filter
exact=0 opened=0
for _ in $(seq "$perf_cycles"); do
	# shellcheck disable=SC2086 # $workload is the command and its arguments
	if out=$(perf stat -x, -a -e markers:acme_cmd_submit --filter "opcode == 1" -- $workload 2>&1 >/tmp/perf.workload); then
		opened=$((opened + 1))
		measured=$((measured + $(sed -n "s/^completed=//p" /tmp/perf.workload)))
	fi
	[ "$(printf "%s\n" "$out" | sed -n "s/^\([0-9]*\),,markers:acme_cmd_submit,.*/\1/p")" = "$commands" ] && exact=$((exact + 1))
done
echo "perf: cycles=$perf_cycles opened=$opened exact=$exact"
exact=0 attached=0
for _ in $(seq "$bpf_cycles"); do
	bpftrace -e "tracepoint:markers:acme_cmd_submit /args->opcode == 1/ { @n = count(); }" \
		-c "$workload" >/tmp/bt.out 2>/dev/null && attached=$((attached + 1))
	measured=$((measured + $(sed -n "s/^completed=//p" /tmp/bt.out)))
	grep -qx "@n: $commands" /tmp/bt.out && exact=$((exact + 1))
done
echo "bpftrace: cycles=$bpf_cycles attached=$attached exact=$exact"
touch /tmp/km_stop
wait $background
echo "measured: ran=$measured"
held_counts
echo "enable after: $(cat $E/enable)"
listing_since /tmp/list.before
echo acme_cmd_submit >$M/release
rmmod markers_churn acme_xa && echo "unloaded: ok"
echo "== done"
