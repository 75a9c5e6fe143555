#!/bin/bash
# In the guest: the same workload (1000 acme commands on 4 threads) under
# SystemTap (every.ko in /mnt/host), ftrace, perf and bpftrace, then under
# SystemTap and bpftrace at once; each tracer's counts and latency sum
# checked against the workload and acmectl's sum (latency_sum_ns) of its
# run. Checks itself and prints KTAP, plan first; what each tracer and
# acmectl printed goes out as plain lines ("stap: ...", "ftrace: ...",
# "perf: ...", "bpftrace: ...", "at once: ...").
set -u
echo "1..12"
cd /mnt/host || echo "cannot enter /mnt/host: the SystemTap checks fail"
modprobe acme_xa || echo "modprobe acme_xa failed: the checks below fail"
run="acmectl run --count 1000 --threads 4"
bt="tracepoint:markers:acme_cmd_submit { @s = count(); } tracepoint:markers:acme_cmd_complete { @c = count(); @sum = sum(args->latency_ns); }"
# acme_sum FILE: acmectl's latency sum, its line latency_sum_ns=N in FILE
acme_sum() { sed -n "s/^latency_sum_ns=//p" "$1"; }
# sums_to SUM FILE LINE: acmectl's latency sum is a positive number (an
# empty one would match an empty sum) and FILE has the tracer's LINE
# that says it
sums_to() { [[ $1 =~ ^[1-9][0-9]*$ ]] && grep -qxF -- "$3" "$2"; }

# SystemTap: every.ko's end probe prints its counts after acmectl's output
staprun -c "$run" every.ko >/tmp/stap.out 2>/tmp/stap.err
sed "s/^/stap: /" /tmp/stap.out /tmp/stap.err
s=$(acme_sum /tmp/stap.out)
check "SystemTap: 1000 submits, 1000 completes, latency sum = acmectl's ($s)" \
	sums_to "$s" /tmp/stap.out "stap submits=1000 completes=1000 sum=$s"

T=/sys/kernel/debug/tracing
echo 1 > $T/events/markers/acme_cmd_submit/enable
echo 1 > $T/events/markers/acme_cmd_complete/enable
echo > $T/trace
$run >/tmp/ftrace.run
s=$(acme_sum /tmp/ftrace.run)
{
	echo "ftrace submits=$(grep -c "acme_cmd_submit: id" $T/trace) completes=$(grep -c "acme_cmd_complete: id" $T/trace)"
	echo "ftrace sum=$(grep -o "acme_cmd_complete: id .* latency_ns [0-9]*" $T/trace | awk "{ s += \$NF } END { print s }")"
} >/tmp/ftrace.out
echo 0 > $T/events/markers/acme_cmd_submit/enable
echo 0 > $T/events/markers/acme_cmd_complete/enable
sed "s/^/ftrace: /" /tmp/ftrace.run /tmp/ftrace.out
check "ftrace: 1000 submits, 1000 completes" grep -qx "ftrace submits=1000 completes=1000" /tmp/ftrace.out
check "ftrace: latency sum = acmectl's ($s)" sums_to "$s" /tmp/ftrace.out "ftrace sum=$s"

# shellcheck disable=SC2086 # $run is the command and its arguments
perf stat -x, -a -e markers:acme_cmd_submit,markers:acme_cmd_complete -o /tmp/perf.out -- $run >/tmp/perf.run
sed -n "s/^\([0-9]*\),,markers:\(acme_cmd_[a-z]*\).*/perf \2=\1/p" /tmp/perf.out >/tmp/perf.counts
sed "s/^/perf: /" /tmp/perf.run /tmp/perf.out
check "perf: 1000 submits" grep -qx "perf acme_cmd_submit=1000" /tmp/perf.counts
check "perf: 1000 completes" grep -qx "perf acme_cmd_complete=1000" /tmp/perf.counts

# bpftrace prints its maps after acmectl's output
bpftrace -e "$bt" -c "/usr/local/bin/$run" >/tmp/bt.out 2>/tmp/bt.err
sed "s/^/bpftrace: /" /tmp/bt.out /tmp/bt.err
s=$(acme_sum /tmp/bt.out)
check "bpftrace: 1000 submits" grep -qx "@s: 1000" /tmp/bt.out
check "bpftrace: 1000 completes" grep -qx "@c: 1000" /tmp/bt.out
check "bpftrace: latency sum = acmectl's ($s)" sums_to "$s" /tmp/bt.out "@sum: $s"

# SystemTap and bpftrace at once, on the same markers
staprun every.ko >/tmp/stap2.out 2>&1 &
stap=$!
bpftrace -e "$bt" >/tmp/bt2.out 2>&1 &
btpid=$!
for _ in $(seq 100); do grep -q "Attaching" /tmp/bt2.out && grep -q "	on	2" /sys/kernel/debug/markers/list && break; sleep 0.2; done
attached=$(grep "^acme_cmd_submit	" /sys/kernel/debug/markers/list | cut -f4,5)
echo "at once: both attached: $attached"
check "at once: the marker is on with 2 probes (SystemTap's and the event's)" [ "$attached" = "on	2" ]
$run >/tmp/once.run
s=$(acme_sum /tmp/once.run)
kill -INT $btpid
wait $btpid
kill -INT $stap
wait $stap
sed "s/^/at once: /" /tmp/once.run /tmp/stap2.out /tmp/bt2.out
check "at once: SystemTap sees every event" \
	sums_to "$s" /tmp/stap2.out "stap submits=1000 completes=1000 sum=$s"
check "at once: bpftrace sees every event" grep -qx "@c: 1000" /tmp/bt2.out
check "at once: bpftrace's sum = acmectl's ($s)" sums_to "$s" /tmp/bt2.out "@sum: $s"
