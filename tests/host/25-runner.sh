#!/bin/bash
# tests/run itself, on a tree of made-up tests in the scratch directory: it
# counts ok and not ok lines and skips apart, counts a test that fails
# without saying so, kills a test that hangs (with what it started) after
# TEST_TIMEOUT or its own "# timeout:", counting it failed, instead of
# holding the whole run; and
# what it prints is KTAP, a subtest with its plan per test file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tree=$scratch/tree
mkdir -p "$tree/tests/demo"
cp "$project_dir/tests/run" "$tree/tests/run"
cat >"$tree/tests/demo/10-passes.sh" <<'T'
#!/bin/bash
echo "ok - one"
echo "ok - two"
T
cat >"$tree/tests/demo/15-skips.sh" <<'T'
#!/bin/bash
echo "ok - runs here"
echo "ok - needs a device # SKIP no device here"
T
cat >"$tree/tests/demo/20-fails.sh" <<'T'
#!/bin/bash
echo "ok - fine"
echo "not ok - broken"
exit 1
T
cat >"$tree/tests/demo/30-silent-failure.sh" <<'T'
#!/bin/bash
exit 3
T
# A hang, with a child that would outlive a kill of the test alone
cat >"$tree/tests/demo/40-hangs.sh" <<'T'
#!/bin/bash
echo "ok - started"
sleep 600 &
echo $! >"$(dirname "$0")/hang-child.pid"
wait
T
chmod +x "$tree"/tests/demo/*.sh

status=0
TEST_TIMEOUT=5 TEST_LANES=1 timeout 300 "$tree/tests/run" >"$scratch/out" 2>&1 || status=$?
sed 's/^/# /' "$scratch/out"
check "the runner ends on its own, failing (exit $status)" [ "$status" = 1 ]
check "it counts 5 passed, 3 failed (the hung test's own ok counts)" grep -qx '5 passed, 3 failed' "$scratch/out"
check "... and the skip apart, not as passed" grep -qx '# 1 skipped' "$scratch/out"
check "the skip keeps its reason, numbered in its test" \
	grep -qx '    ok 2 needs a device # SKIP no device here' "$scratch/out"
check "the failing check is reported, numbered in its test" grep -qx '    not ok 2 broken' "$scratch/out"
check "a test that fails without a not ok line counts as failed" \
	grep -Eq '^    not ok 1 demo/30-silent-failure \(exit 3, ' "$scratch/out"
check "the hung test is killed and counted failed, saying why" \
	grep -Eq '^    not ok 2 killed after [0-9]+ s: longer than its timeout \(5 s\)$' "$scratch/out"
# ktap_valid FILE: the KTAP lines of FILE (without the summary) parse: a
# version line, a plan of 5 test files, each with a subtest header and a
# plan that matches its numbered results, and the top-level results
# numbered 1 to 5
ktap_valid() {
	awk '
		NR == 1 && $0 != "KTAP version 1" { bad = "no version line" }
		NR == 2 && $0 != "1..5" { bad = "plan " $0 }
		/^    1\.\.[0-9]+$/ { sub(/^ +1\.\./, ""); plan = $0; seen = 0; next }
		/^    (not )?ok [0-9]+/ { seen++; if ($0 !~ ("ok " seen "( |$)")) bad = "subtest numbering at " NR }
		/^(not )?ok [0-9]+ / { top++; if (seen != plan) bad = "plan " plan " for " seen " results at " NR
			if ($0 !~ ("ok " top " ")) bad = "top-level numbering at " NR }
		END { if (top != 5) bad = bad " " top " top-level results"; if (bad != "") { print bad; exit 1 } }' "$1"
}
check "the output is KTAP: version, plan, a subtest with its plan per test" ktap_valid "$scratch/out"
# killed PID: PID is gone or a zombie (killed, its new parent not reaping yet)
killed() {
	local state
	state=$(ps -o stat= -p "$1") || return 0
	case $state in Z*) return 0 ;; *) return 1 ;; esac
}
child=$(cat "$tree/tests/demo/hang-child.pid" 2>/dev/null) || child=""
check "the hung test started its child (pid ${child:-none})" [ -n "$child" ]
check "what the hung test started is killed too" killed "${child:-0}"
[ -z "$child" ] || kill "$child" 2>/dev/null || true
# A test's own "# timeout:" line, when TEST_TIMEOUT is not set
mkdir -p "$tree/tests/own"
cat >"$tree/tests/own/10-own-timeout.sh" <<'T'
#!/bin/bash
# timeout: 2
sleep 30
T
chmod +x "$tree/tests/own/10-own-timeout.sh"
status=0
(unset TEST_TIMEOUT; TEST_LANES=1 timeout 120 "$tree/tests/run" own/ >"$scratch/own" 2>&1) || status=$?
sed 's/^/# /' "$scratch/own"
check "a test's own '# timeout: 2' line kills it after 2 s" \
	grep -Eq '^    not ok [0-9]+ killed after [0-9]+ s: longer than its timeout \(2 s\)$' "$scratch/own"
status=0
TEST_TIMEOUT=soon "$tree/tests/run" >"$scratch/bad" 2>&1 || status=$?
check "TEST_TIMEOUT=soon is refused (exit $status)" [ "$status" = 2 ]
check "... saying why" grep -q "TEST_TIMEOUT is a number of seconds" "$scratch/bad"
finish
