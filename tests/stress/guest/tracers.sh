#!/bin/bash
# In the guest (after guest/lib.sh, put in front by stress_guest_half):
# bash -c ... tracers FTRACE_CYCLES PERF_CYCLES BPF_CYCLES COMMANDS. ftrace,
# perf stat and bpftrace attach to markers:acme_cmd_submit and detach, each
# time around COMMANDS read commands, under a background load of writes.
# Checks itself and prints KTAP, plan first; what it counted goes out as
# "WHAT: key=value ..." lines too, for the host's figure.
set -u
ftrace_cycles=$1 perf_cycles=$2 bpf_cycles=$3 commands=$4
L=/sys/kernel/debug/markers/list
M=/sys/module/markers_churn/parameters
E=/sys/kernel/tracing/events/markers/acme_cmd_submit
T=/sys/kernel/tracing
workload="/usr/local/bin/acmectl run --count $commands --threads 2 --opcodes read"
echo "1..12"
modprobe acme_xa || echo "# acme_xa does not load: the checks below fail"
insmod /mnt/host/markers_churn.ko || echo "# markers_churn does not load: the checks below fail"
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
report "ftrace: cycles=$ftrace_cycles enabled=$enabled exact=$exact"
check "ftrace enabled the event $ftrace_cycles times ($enabled)" [ "$enabled" = "$ftrace_cycles" ]
check "... and each time recorded exactly the $commands submits of its workload ($exact of $ftrace_cycles)" \
	[ "$exact" = "$ftrace_cycles" ]
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
report "perf: cycles=$perf_cycles opened=$opened exact=$exact"
check "perf stat opened the event $perf_cycles times ($opened)" [ "$opened" = "$perf_cycles" ]
check "... and each time counted exactly $commands ($exact of $perf_cycles)" [ "$exact" = "$perf_cycles" ]
exact=0 attached=0
for _ in $(seq "$bpf_cycles"); do
	bpftrace -e "tracepoint:markers:acme_cmd_submit /args->opcode == 1/ { @n = count(); }" \
		-c "$workload" >/tmp/bt.out 2>/dev/null && attached=$((attached + 1))
	measured=$((measured + $(sed -n "s/^completed=//p" /tmp/bt.out)))
	grep -qx "@n: $commands" /tmp/bt.out && exact=$((exact + 1))
done
report "bpftrace: cycles=$bpf_cycles attached=$attached exact=$exact"
check "bpftrace attached $bpf_cycles times ($attached)" [ "$attached" = "$bpf_cycles" ]
check "... and each time counted exactly $commands ($exact of $bpf_cycles)" [ "$exact" = "$bpf_cycles" ]
touch /tmp/km_stop
wait $background
report "measured: ran=$measured"
held_counts
measured_expected=$(((ftrace_cycles + perf_cycles + bpf_cycles) * commands))
all=$((measured + $(kv background ran)))
check "every measured workload ran all its commands ($measured of $measured_expected)" [ "$measured" = "$measured_expected" ]
background_ran() { at_least "$(kv background runs)" 1 && [ "$(kv background failed_runs)" = 0 ]; }
check "the background load ran throughout ($(kv background runs) runs, $(kv background ran) commands), no run failed" \
	background_ran
check "the probe held throughout counted every command ($(kv held acme_cmd_submit) of $all)" \
	same_nonzero "$(kv held acme_cmd_submit)" "$all"
check "the event is disabled at the end" reads $E/enable 0
check "the listing at the end is the one before" listing_since /tmp/list.before
echo acme_cmd_submit >$M/release
check "the modules unload" rmmod markers_churn acme_xa
