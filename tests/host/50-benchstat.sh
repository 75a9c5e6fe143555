#!/bin/bash
# bench/tools/benchstat (the statistics and verdicts of make bench): builds
# warning-free, lint clean, passes its unit tests plain and under
# ASan/UBSan.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tool=bench/tools
check "benchstat builds with -Wall -Wextra -Werror" make -s -C "$tool" benchstat
check "benchstat is cppcheck and shellcheck clean" make -s -C "$tool" lint
# The unit tests print their own TAP lines, counted one by one.
(cd "$tool" && tests/run-tests.sh ./benchstat) | grep -E '^(not )?ok ' || true
if make -s -C "$tool" test-asan >"$scratch/asan.log" 2>&1; then
	ok "benchstat's unit tests pass under ASan/UBSan"
else
	not_ok "benchstat's unit tests pass under ASan/UBSan"
	tail -n 30 "$scratch/asan.log"
fi
finish
