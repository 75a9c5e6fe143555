#!/bin/bash
# Markers as trace events, through perf and bpftrace: the events listed
# with their typed fields, perf stat counting exactly, perf record and
# perf script printing the marker's text, a bpftrace histogram of a
# proprietary module's marker; perf and BPF pinning the event's module;
# and, under markers.proprietary=deny, perf and bpftrace attaching and
# counting nothing; and the clear errors for the
# force-loaded twin. The guest checks itself and prints KTAP
# (tests/events/guest/perf-bpftrace.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

guest_status=0
"$vm" run -- bash -c "$(guest_half perf-bpftrace)" perf-bpftrace >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
