#!/bin/bash
# tools/markers-elf: builds warning-free and lint clean, passes its unit
# tests (plain and under ASan/UBSan). host/35 fuzzes it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tool=tools/markers-elf
check "markers-elf builds with -Wall -Wextra -Werror" make -s -C "$tool" markers-elf
check "markers-elf is cppcheck and shellcheck clean" make -s -C "$tool" lint
# The unit tests print their own TAP lines, counted one by one; that they
# ran to their summary line and exited 0 is one check more (a harness that
# stops half-way prints no "not ok").
set -o pipefail
status=0
"$tool/tests/run-tests.sh" "$tool/markers-elf" 2>&1 | tee "$scratch/unit.log" | grep -E '^(not )?ok ' || status=$?
# passed: run-tests.sh exited 0 after its summary line, with no failure
passed() { [ "$status" = 0 ] && grep -qE '^# [1-9][0-9]* passed, 0 failed$' "$scratch/unit.log"; }
summary=$(grep -E '^# [0-9]+ passed, [0-9]+ failed$' "$scratch/unit.log" || true)
check "the unit tests ran to the end and pass (exit $status, ${summary:-no summary line})" passed
[ "$status" = 0 ] || tail -n 10 "$scratch/unit.log" | sed 's/^/# /'
if make -s -C "$tool" test-asan >"$scratch/asan.log" 2>&1; then
	ok "unit tests pass under ASan/UBSan with leak checks"
else
	not_ok "unit tests pass under ASan/UBSan with leak checks"
	tail -n 30 "$scratch/asan.log"
fi
finish
