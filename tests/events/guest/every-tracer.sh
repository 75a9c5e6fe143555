#!/bin/bash
# In the guest: the same workload (1000 acme commands on 4 threads) under
# SystemTap (every.ko in /mnt/host), ftrace, perf and bpftrace, then under
# SystemTap and bpftrace at once. Prints each under "== TRACER", with its
# counts ("stap submits=...", "ftrace submits=...", "perf acme_cmd_...=N",
# "bpftrace @s: N", ...) and acmectl's latency sum ("acmectl sum=N");
# "== done" at the end.
cd /mnt/host || exit 1
modprobe acme_xa
run="acmectl run --count 1000 --threads 4"
bt="tracepoint:markers:acme_cmd_submit { @s = count(); } tracepoint:markers:acme_cmd_complete { @c = count(); @sum = sum(args->latency_ns); }"
# keeps the tracer lines and renames the latency sum of acmectl
sum() { grep -E "^(stap|bpftrace|latency_sum_ns=)" | sed "s/^latency_sum_ns=/acmectl sum=/"; }
echo "== stap"
staprun -c "$run" every.ko 2>/dev/null | grep -E "^stap |^latency_sum_ns=" | sum
echo "== ftrace"
T=/sys/kernel/debug/tracing
echo 1 > $T/events/markers/acme_cmd_submit/enable
echo 1 > $T/events/markers/acme_cmd_complete/enable
echo > $T/trace
$run | sum
echo "ftrace submits=$(grep -c "acme_cmd_submit: id" $T/trace) completes=$(grep -c "acme_cmd_complete: id" $T/trace)"
echo "ftrace sum=$(grep -o "acme_cmd_complete: id .* latency_ns [0-9]*" $T/trace | awk "{ s += \$NF } END { print s }")"
echo 0 > $T/events/markers/acme_cmd_submit/enable
echo 0 > $T/events/markers/acme_cmd_complete/enable
echo "== perf"
# shellcheck disable=SC2086 # $run is the command and its arguments
perf stat -x, -a -e markers:acme_cmd_submit,markers:acme_cmd_complete -o /tmp/perf.out -- $run | sum
sed -n "s/^\([0-9]*\),,markers:\(acme_cmd_[a-z]*\).*/perf \2=\1/p" /tmp/perf.out
echo "== bpftrace"
bpftrace -e "$bt" -c "/usr/local/bin/$run" 2>/dev/null | grep -E "^@|^latency_sum_ns=" | sed "s/^@/bpftrace @/" | sum
echo "== stap and bpftrace at once"
staprun every.ko > /tmp/stap.out 2>&1 &
stap=$!
bpftrace -e "$bt" > /tmp/bt.out 2>&1 &
btpid=$!
for _ in $(seq 100); do grep -q "Attaching" /tmp/bt.out && grep -q "	on	2" /sys/kernel/debug/markers/list && break; sleep 0.2; done
grep "^acme_cmd_submit	" /sys/kernel/debug/markers/list | cut -f4,5 | sed "s/^/both attached: /"
$run | sum
kill -INT $btpid; wait $btpid
kill -INT $stap; wait $stap
grep -E "^@" /tmp/bt.out | sed "s/^@/bpftrace @/"
grep "^stap " /tmp/stap.out
echo "== done"
