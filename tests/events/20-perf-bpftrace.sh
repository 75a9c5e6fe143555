#!/bin/bash
# Markers as trace events, through perf and bpftrace: the events listed
# with their typed fields, perf stat counting exactly, perf record and
# perf script printing the marker's text, a bpftrace histogram of a
# proprietary module's marker; perf and BPF pinning the event's module;
# and, under markers.proprietary=deny, perf and bpftrace attaching and
# counting nothing; and the clear errors for the
# force-loaded twin.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

guest_status=0
"$vm" run -- bash -c "$(guest_half perf-bpftrace)" perf-bpftrace >"$scratch/out" 2>&1 || guest_status=$?
sed 's/^/# /' "$scratch/out"
o=$scratch/out
has() { grep -qxF -- "$1" "$o"; }
check "perf list shows the driver's 12 markers as tracepoint events" has 'perf list acme: 12'
check "... and the core ones" grep -q '^markers:fs_open *\[Tracepoint event\]' "$o"
check "perf stat -e markers:acme_cmd_submit -- acmectl run --count 1000 counts 1000" grep -q '^per-task: 1000,,markers:acme_cmd_submit' "$o"
check "perf stat -a counts 1000 submissions" grep -q '^system-wide: 1000,,markers:acme_cmd_submit' "$o"
check "... and 1000 completions" grep -q '^system-wide: 1000,,markers:acme_cmd_complete' "$o"
check "perf script prints 5 records in the marker's own text" \
	[ "$(grep -cE '^script: .* markers:acme_cmd_complete: id [0-9]+ status 0 latency_ns [0-9]+$' "$o")" = 5 ]
check "bpftrace -l lists the 12" has 'bpftrace list acme: 12'
check "bpftrace -lv shows typed, named args" grep -q '^args: unsigned long long latency_ns$' "$o"
check "... all three" [ "$(grep -cE '^args: (unsigned int id|int status|unsigned long long latency_ns)$' "$o")" = 3 ]
check "bpftrace counts the 300 completions" has 'bpftrace: @n: 300'
check "... and prints a histogram of a proprietary module's marker" grep -q '^bpftrace: @latency_ns:' "$o"
sum_bt=$(sed -n 's/^bpftrace: @sum: //p' "$o")
sum_acme=$(sed -n 's/^bpftrace: latency_sum_ns=//p' "$o")
check "the latency sum bpftrace computes ($sum_bt) is acmectl's ($sum_acme)" test -n "$sum_bt" -a "$sum_bt" = "$sum_acme"
check "perf holding an event pins its module" grep -q '^rmmod under perf: rmmod: ERROR: Module acme_xa is in use' "$o"
check "a BPF program on it pins it too" grep -q '^rmmod under bpftrace: rmmod: ERROR: Module acme_xa is in use' "$o"
check "... and the module unloads once they are gone" has 'rmmod afterwards: ok'
check "under deny, perf opens the event and counts none of 10 commands" grep -q '^perf under deny: 0,,markers:acme_cmd_submit,' "$o"
check "under deny, bpftrace attaches and counts none" grep -qx 'bpftrace under deny: count 0' "$o"
check "perf on the forced twin's marker: no such event" grep -q '^perf on the forced twin: ' "$o"
check "bpftrace on it: an error" grep -q '^bpftrace on the forced twin: ' "$o"
check "the guest run finished" has '== done'
check "... with no kernel report (guest exit $guest_status)" [ "$guest_status" = 0 ]
finish
