#!/bin/bash
# One marker feeds every tracer: for the same workload (1000 commands on 4
# threads), SystemTap (kernel.mark), ftrace, perf and bpftrace (the
# markers: trace events) each count exactly 1000 acme_cmd_submit and 1000
# acme_cmd_complete, and the latency sum of the completions is acmectl's.
# Then SystemTap and bpftrace at once, on the same markers: both see
# every event. The guest checks itself and prints KTAP
# (tests/events/guest/every-tracer.sh).
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
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
