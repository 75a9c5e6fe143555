#!/bin/bash
# One marker feeds every tracer: for the same workload (1000 commands on 4
# threads), SystemTap (kernel.mark), ftrace, perf and bpftrace (the
# markers: trace events) each count exactly 1000 acme_cmd_submit and 1000
# acme_cmd_complete, and the latency sum of the completions is acmectl's.
# Then SystemTap and bpftrace at once, on the same markers: both see
# every event.
# shellcheck disable=SC2016 # $argN and args-> are the tracers'
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

share=$scratch/share
mkdir -p "$share"
cat >"$share/every.stp" <<'STP'
global submits, completes, sum
probe kernel.mark("acme_cmd_submit") { submits++ }
probe kernel.mark("acme_cmd_complete") { completes++; sum += $arg3 }
probe end { printf("stap submits=%d completes=%d sum=%d\n", submits, completes, sum) }
STP
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m every every.stp) >"$scratch/compile.log" 2>&1 || true
check "stap -r -p4 compiles the counting script" test -s "$share/every.ko"

guest_status=0
"$vm" run --share "$share" --timeout 900 -- bash -c '
	cd /mnt/host
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
	echo "== done"' >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
section() { sed -n "/^== $1\$/,/^== /p" "$scratch/out"; }
in_section() { section "$1" | grep -qE -- "$2"; }
sum_of() { section "$1" | sed -n 's/^acmectl sum=//p'; }

s=$(sum_of stap)
check "SystemTap: 1000 submits, 1000 completes, latency sum = acmectl's ($s)" \
	in_section stap "^stap submits=1000 completes=1000 sum=$s\$"
s=$(sum_of ftrace)
check "ftrace: 1000 submits, 1000 completes" in_section ftrace '^ftrace submits=1000 completes=1000$'
check "ftrace: latency sum = acmectl's ($s)" in_section ftrace "^ftrace sum=$s\$"
check "perf: 1000 submits" in_section perf '^perf acme_cmd_submit=1000$'
check "perf: 1000 completes" in_section perf '^perf acme_cmd_complete=1000$'
s=$(sum_of bpftrace)
check "bpftrace: 1000 submits" in_section bpftrace '^bpftrace @s: 1000$'
check "bpftrace: 1000 completes" in_section bpftrace '^bpftrace @c: 1000$'
check "bpftrace: latency sum = acmectl's ($s)" in_section bpftrace "^bpftrace @sum: $s\$"
s=$(sum_of 'stap and bpftrace at once')
check "at once: the marker is on with 2 probes (SystemTap's and the event's)" \
	in_section 'stap and bpftrace at once' '^both attached: on	2$'
check "at once: SystemTap sees every event" \
	in_section 'stap and bpftrace at once' "^stap submits=1000 completes=1000 sum=$s\$"
check "at once: bpftrace sees every event" \
	in_section 'stap and bpftrace at once' '^bpftrace @c: 1000$'
check "at once: bpftrace's sum = acmectl's ($s)" \
	in_section 'stap and bpftrace at once' "^bpftrace @sum: $s\$"
check "the guest run finished" grep -qx '== done' "$scratch/out"
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
