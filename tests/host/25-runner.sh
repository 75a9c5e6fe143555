#!/bin/bash
# tests/run itself, on a tree of made-up tests in the scratch directory: it
# counts ok and not ok lines, counts a test that fails without saying so,
# and kills a test that hangs (with what it started) after TEST_TIMEOUT,
# counting it failed, instead of holding the whole run.
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
check "it counts 4 passed, 3 failed (the hung test's own ok counts)" grep -qx '4 passed, 3 failed' "$scratch/out"
check "the failing check is reported" grep -q '^not ok - demo/20-fails: broken$' "$scratch/out"
check "a test that fails without a not ok line counts as failed" \
	grep -q '^not ok - demo/30-silent-failure (exit 3, ' "$scratch/out"
check "the hung test is killed and counted failed, saying why" \
	grep -Eq '^not ok - demo/40-hangs: killed after [0-9]+ s: longer than the per-test timeout \(TEST_TIMEOUT=5\)$' "$scratch/out"
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
status=0
TEST_TIMEOUT=soon "$tree/tests/run" >"$scratch/bad" 2>&1 || status=$?
check "TEST_TIMEOUT=soon is refused (exit $status)" [ "$status" = 2 ]
check "... saying why" grep -q "TEST_TIMEOUT is a number of seconds" "$scratch/bad"
finish
