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
# frames of their callchains.
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
sed 's/^/# /' "$scratch/out"
o=$scratch/out

for round in $(seq "$rounds"); do
	check "round $round: bpftrace on a marker without fields attaches and counts $((round + 6))" \
		grep -qx "round $round: @n: $((round + 6))" "$o"
done
check "bpf-ctx-read builds with -Wall -Wextra -Werror in the guest" grep -qx 'built bpf-ctx-read' "$o"
check "test_gpl_noargs's record is its 8 bytes of common fields" grep -qx 'test_gpl_noargs record ends at: 8' "$o"
check "test_gpl_args's record ends after its last field, p (48)" grep -qx 'test_gpl_args record ends at: 48' "$o"
check "a BPF program reading past a marker event without fields is refused" \
	grep -qx 'test_gpl_noargs read past the end: refused: EACCES' "$o"
check "one reading the last field of an event with fields attaches" grep -qx 'test_gpl_args read at the end: attached' "$o"
check "... and one reading past its record is refused" grep -qx 'test_gpl_args read past the end: refused: EACCES' "$o"
check "perf record took 3 samples of markers:test_gpl_args" [ "$(grep -c '^site: markers:test_gpl_args: ' "$o")" = 3 ]
check "... each at the marker's site, fire_set of markers_gpl" \
	[ "$(grep -cE '^site: markers:test_gpl_args: +[0-9a-f]+ fire_set \(/lib/modules/.*/markers_gpl\.ko\)$' "$o")" = 3 ]
chains_start_at_site() {
	[ "$(grep -c '^chain: ' "$o")" = 2 ] && [ "$(grep -cx 'chain: fire_set' "$o")" = 2 ]
}
check "perf record -g took 2 samples, their callchains starting at the site, fire_set (issue 38)" \
	chains_start_at_site
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
