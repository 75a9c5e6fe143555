#!/bin/bash
# tools/markers-elf under a coverage-guided fuzzer: libFuzzer (clang-14,
# ASan/UBSan, leak checks) for FUZZ_SECONDS (default 60) from the seed
# corpus and the regression inputs; it must run inputs and find nothing.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tool=tools/markers-elf
seconds=${FUZZ_SECONDS:-60}
log=$scratch/fuzz-cov.log
command -v clang-14 >/dev/null || die "clang-14 is missing (make deps installs it)"
status=0
make -s -C "$tool" fuzz-cov FUZZ_SECONDS="$seconds" >"$log" 2>&1 || status=$?
summary=$(grep '^fuzz-cov: [0-9]' "$log" | tail -n 1)
read -r execs edges crashes <<<"$(sed -nE \
	's/^fuzz-cov: ([0-9]+) execs, ([0-9]+) edges, .* ([0-9]+) crashes in .*/\1 \2 \3/p' \
	<<<"$summary")"
check "libFuzzer ran for $seconds s and printed its counts" test -n "${execs:-}"
check "libFuzzer executed inputs (${execs:-0})" test "${execs:-0}" -gt 0
check "libFuzzer covered edges (${edges:-0})" test "${edges:-0}" -gt 0
check "libFuzzer found no crash, hang or leak in $seconds s" \
	test "$status" -eq 0 -a "${crashes:-1}" -eq 0
figure "fuzz: ${execs:-0} execs, ${edges:-0} edges, ${crashes:-?} crashes in $seconds s"
if [ "$status" -ne 0 ]; then
	tail -n 40 "$log"
fi
finish
