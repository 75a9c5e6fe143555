#!/bin/bash
# One marker feeds every tracer: for the same workload (1000 commands on 4
# threads), SystemTap (kernel.mark), ftrace, perf and bpftrace (the
# markers: trace events) each count exactly 1000 acme_cmd_submit and 1000
# acme_cmd_complete, and the latency sum of the completions is acmectl's.
# Then SystemTap and bpftrace at once, on the same markers: both see
# every event.
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
"$vm" run --share "$share" --timeout 900 -- bash -c "$(guest_half every-tracer)" every-tracer >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
section() { sed -n "/^== $1\$/,/^== /p" "$scratch/out"; }
in_section() { section "$1" | grep -qE -- "$2"; }
sum_of() { section "$1" | sed -n 's/^acmectl sum=//p'; }
# sums_to SUM SECTION LINE-REGEX: acmectl's latency sum is a positive
# number (an empty one would match an empty sum) and the tracer's line
# says it
sums_to() { [[ $1 =~ ^[1-9][0-9]*$ ]] && in_section "$2" "$3"; }

s=$(sum_of stap)
check "SystemTap: 1000 submits, 1000 completes, latency sum = acmectl's ($s)" \
	sums_to "$s" stap "^stap submits=1000 completes=1000 sum=$s\$"
s=$(sum_of ftrace)
check "ftrace: 1000 submits, 1000 completes" in_section ftrace '^ftrace submits=1000 completes=1000$'
check "ftrace: latency sum = acmectl's ($s)" sums_to "$s" ftrace "^ftrace sum=$s\$"
check "perf: 1000 submits" in_section perf '^perf acme_cmd_submit=1000$'
check "perf: 1000 completes" in_section perf '^perf acme_cmd_complete=1000$'
s=$(sum_of bpftrace)
check "bpftrace: 1000 submits" in_section bpftrace '^bpftrace @s: 1000$'
check "bpftrace: 1000 completes" in_section bpftrace '^bpftrace @c: 1000$'
check "bpftrace: latency sum = acmectl's ($s)" sums_to "$s" bpftrace "^bpftrace @sum: $s\$"
s=$(sum_of 'stap and bpftrace at once')
check "at once: the marker is on with 2 probes (SystemTap's and the event's)" \
	in_section 'stap and bpftrace at once' '^both attached: on	2$'
check "at once: SystemTap sees every event" \
	sums_to "$s" 'stap and bpftrace at once' "^stap submits=1000 completes=1000 sum=$s\$"
check "at once: bpftrace sees every event" \
	in_section 'stap and bpftrace at once' '^bpftrace @c: 1000$'
check "at once: bpftrace's sum = acmectl's ($s)" \
	sums_to "$s" 'stap and bpftrace at once' "^bpftrace @sum: $s\$"
check "the guest run finished" grep -qx '== done' "$scratch/out"
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
