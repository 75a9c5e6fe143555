#!/bin/bash
# The attach/detach churn through the trace events, while the driver's
# submit marker fires throughout (a background acmectl loop of write
# commands, opcode 2): ftrace enables and disables
# events/markers/acme_cmd_submit (full: 200 times, else 30), perf stat
# opens and closes markers:acme_cmd_submit (full: 100, else 10) and
# bpftrace attaches a count to tracepoint:markers:acme_cmd_submit and
# detaches (full: 20, else 3), each around a fixed workload of read
# commands (opcode 1) and filtering on opcode 1: each attachment counts
# exactly its workload. A probe held by markers_churn for the whole run
# counts every command (background and measured) exactly; at the end the
# event is disabled and the listing is the one of before. The guest checks
# itself and prints KTAP (tests/stress/guest/tracers.sh).
# shellcheck source=tests/stress/lib.sh
. "$(dirname "$0")/lib.sh"

[ -e "$mods/markers_churn.ko" ] || die "no test modules; run tests/modules/build"
if [ "${KM_STRESS:-}" = full ]; then
	ftrace_cycles=200 perf_cycles=100 bpf_cycles=20 timeout=7200
else
	ftrace_cycles=30 perf_cycles=10 bpf_cycles=3 timeout=1800
fi
commands=100

start=$(date +%s)
guest_status=0
"$vm" run --rodir "/mnt/host=$mods" --timeout "$timeout" -- bash -c "$(stress_guest_half tracers)" tracers "$ftrace_cycles" "$perf_cycles" "$bpf_cycles" "$commands" >"$scratch/out" 2>&1 || guest_status=$?
took=$(($(date +%s) - start))
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
all=$(($(kv measured ran) + $(kv background ran)))
figure "tracers: ftrace $(kv ftrace enabled) enable/disable exact $(kv ftrace exact), perf $(kv perf opened) opens exact $(kv perf exact), bpftrace $(kv bpftrace attached) attaches exact $(kv bpftrace exact), $commands events each; submits expected $all counted $(kv held acme_cmd_submit); in $took s"
finish
