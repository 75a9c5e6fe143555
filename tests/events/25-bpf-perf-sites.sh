#!/bin/bash
# BPF and perf on marker events, where they went wrong (issue 23, bugs 3
# and 6): a BPF program on the event of a marker without arguments (no
# fields) attaches and counts exactly over several reloads of its module;
# the size the kernel checks a BPF program's reads of the record against
# is the record's (it came from an empty field list for such an event,
# so attaching failed or passed at random, and a program could read past
# the record): bpf-ctx-read attaches programs that read at the end of a
# record and past it; and perf record's samples point at the marker's
# site in its module, not into the tracing code, and so do the first
# frames of their callchains. The guest checks itself and prints KTAP
# (tests/events/guest/bpf-perf-sites.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"
rounds=5
# The guest compiles bpf-ctx-read (the root has gcc), next to the module
check "bpf-ctx-read is cppcheck clean" cppcheck --enable=warning,style,performance,portability \
	--error-exitcode=1 --quiet tests/events/bpf-ctx-read.c
cp "$mods/markers_gpl.ko" tests/events/bpf-ctx-read.c "$scratch/"

guest_status=0
"$vm" run --share "$scratch" -- env ROUNDS=$rounds bash -c "$(guest_half bpf-perf-sites)" bpf-perf-sites >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
