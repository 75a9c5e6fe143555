#!/bin/bash
# tests/run itself, on a tree of made-up tests in the scratch directory,
# in one lane and in two (make check's): it counts ok and not ok lines and
# skips apart, counts a test that fails without saying so, and one that
# exits non-zero after passing checks; kills a test that hangs (with what
# it started) after TEST_TIMEOUT or its own "# timeout:", counting it
# failed and marked # TIMEOUT, instead of holding the whole run; counts a
# test whose results it cannot read as failed; refuses a pattern that
# matches no test, and a tree without tests; records what each test took
# and, in two lanes, queues the longest first by that record (else by
# the committed one), a test without a record before them; and what it
# prints is KTAP, a subtest with its plan per test file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# The made-up tests' durations go here, not into the machine's record
export TEST_DURATIONS=$scratch/durations

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
cat >"$tree/tests/demo/25-ok-then-exits.sh" <<'T'
#!/bin/bash
echo "ok - looked fine"
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
# Its results are lost: it removes the log the runner gave it as stdout
cat >"$tree/tests/demo/50-loses-its-log.sh" <<'T'
#!/bin/bash
rm -f "$(readlink /proc/$$/fd/1)"
echo "ok - nobody will read this"
T
chmod +x "$tree"/tests/demo/*.sh

# ktap_valid FILE: the KTAP lines of FILE (without the summary) parse: a
# version line, a plan of 7 test files, each with a subtest header and a
# plan that matches its numbered results, and the top-level results
# numbered 1 to 7
ktap_valid() {
	awk '
		NR == 1 && $0 != "KTAP version 1" { bad = "no version line" }
		NR == 2 && $0 != "1..7" { bad = "plan " $0 }
		/^    1\.\.[0-9]+$/ { sub(/^ +1\.\./, ""); plan = $0; seen = 0; next }
		/^    (not )?ok [0-9]+/ { seen++; if ($0 !~ ("ok " seen "( |$)")) bad = "subtest numbering at " NR }
		/^(not )?ok [0-9]+ / { top++; if (seen != plan) bad = "plan " plan " for " seen " results at " NR
			if ($0 !~ ("ok " top " ")) bad = "top-level numbering at " NR }
		END { if (top != 7) bad = bad " " top " top-level results"; if (bad != "") { print bad; exit 1 } }' "$1"
}
# has_both FILE RE1 RE2: FILE has a line matching each (extended) RE
has_both() {
	grep -Eq "$2" "$1" && grep -Eq "$3" "$1"
}
# refused STATUS FILE RE: exit 2, a message matching RE, no summary line
refused() {
	[ "$1" = 2 ] && grep -Eq "$3" "$2" && ! grep -q "passed," "$2"
}
# killed PID: PID is gone or a zombie (killed, its new parent not reaping yet)
killed() {
	local state
	state=$(ps -o stat= -p "$1") || return 0
	case $state in Z*) return 0 ;; *) return 1 ;; esac
}

for lanes in 1 2; do
	out=$scratch/out-$lanes
	rm -f "$tree/tests/demo/hang-child.pid"
	status=0
	TEST_TIMEOUT=5 TEST_LANES=$lanes timeout 300 "$tree/tests/run" >"$out" 2>&1 || status=$?
	sed "s/^/# [$lanes lane(s)] /" "$out"
	in=" ($lanes lane(s))"
	check "the runner ends on its own, failing (exit $status)$in" [ "$status" = 1 ]
	check "it counts 6 passed, 5 failed (the hung test's own ok counts)$in" grep -qx '6 passed, 5 failed' "$out"
	check "... and the skip apart, not as passed$in" grep -qx '# 1 skipped' "$out"
	check "the skip keeps its reason, numbered in its test$in" \
		grep -qx '    ok 2 needs a device # SKIP no device here' "$out"
	check "the failing check is reported, numbered in its test$in" grep -qx '    not ok 2 broken' "$out"
	check "a test that fails without a not ok line counts as failed$in" \
		grep -Eq '^    not ok 1 demo/30-silent-failure \(exit 3, ' "$out"
	check "a test that exits 1 after an ok fails$in" \
		has_both "$out" '^    not ok 2 exited 1 after its checks \(' '^not ok [0-9]+ demo/25-ok-then-exits$'
	check "the hung test is killed and counted failed, saying why, marked # TIMEOUT$in" \
		has_both "$out" '^    not ok 2 killed after [0-9]+ s: longer than its timeout \(5 s\) # TIMEOUT$' \
		'^not ok [0-9]+ demo/40-hangs # TIMEOUT 5 s$'
	check "a test whose results the runner cannot read counts as failed$in" \
		has_both "$out" '^    not ok 1 the runner could not read the results of demo/50-loses-its-log ' \
		'^not ok [0-9]+ demo/50-loses-its-log$'
	check "the output is KTAP: version, plan, a subtest with its plan per test$in" ktap_valid "$out"
	child=$(cat "$tree/tests/demo/hang-child.pid" 2>/dev/null) || child=""
	check "the hung test started its child (pid ${child:-none})$in" [ -n "$child" ]
	check "what the hung test started is killed too$in" killed "${child:-0}"
	[ -z "$child" ] || kill "$child" 2>/dev/null || true
done

# Durations: the runs above recorded each test; the queue follows the
# record, a test without one first; with no record, the committed one
recorded() { [ "$(awk '$1 ~ /^demo\// && $2 ~ /^[0-9]+$/' "$TEST_DURATIONS" 2>/dev/null | wc -l)" = 7 ]; }
check "the runner recorded what each of the 7 tests took ($TEST_DURATIONS)" recorded
printf '%s\n' 'demo/10-passes 1' 'demo/15-skips 300' 'demo/20-fails 20' >"$TEST_DURATIONS"
TEST_LANES=2 "$tree/tests/run" demo/10 demo/15 demo/20 demo/25 >"$scratch/order" 2>&1 || true
check "two lanes queue the longest first, a test without a record before them" \
	grep -qx '# queue, the longest first: demo/25-ok-then-exits demo/15-skips demo/20-fails demo/10-passes ' "$scratch/order"
check "... and record the tests of a partial run beside the others'" \
	grep -qx 'demo/25-ok-then-exits [0-9]*' "$TEST_DURATIONS"
# The committed record (tests/durations-main) for the tests the
# machine's has not seen: here demo/10 and demo/25
printf '%s\n' 'demo/15-skips 300' 'demo/20-fails 20' >"$TEST_DURATIONS"
printf '%s\n' 'demo/10-passes 50' 'demo/15-skips 10' 'demo/25-ok-then-exits 40' >"$tree/tests/durations-main"
TEST_LANES=2 "$tree/tests/run" demo/10 demo/15 demo/20 demo/25 >"$scratch/seeded" 2>&1 || true
check "the committed record (tests/durations-main) for the tests the machine's lacks" \
	grep -qx '# queue, the longest first: demo/15-skips demo/10-passes demo/25-ok-then-exits demo/20-fails ' "$scratch/seeded"
rm -f "$tree/tests/durations-main"

# Patterns that match nothing, and a tree without tests: refused before
# anything runs, never "0 passed, 0 failed"
for patterns in "no-such-test" "demo/10-passes no-such-test"; do
	status=0
	# shellcheck disable=SC2086 # the patterns, a word each
	TEST_LANES=1 "$tree/tests/run" $patterns >"$scratch/nomatch" 2>&1 || status=$?
	check "tests/run $patterns: refused (exit $status), naming the pattern, nothing run" \
		refused "$status" "$scratch/nomatch" "no test matches 'no-such-test'"
done
mkdir -p "$scratch/empty/tests"
cp "$project_dir/tests/run" "$scratch/empty/tests/run"
status=0
"$scratch/empty/tests/run" >"$scratch/empty.out" 2>&1 || status=$?
check "a tree without tests: refused (exit $status)" \
	refused "$status" "$scratch/empty.out" "no test found"
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
	grep -Eq '^    not ok [0-9]+ killed after [0-9]+ s: longer than its timeout \(2 s\) # TIMEOUT$' "$scratch/own"
status=0
TEST_TIMEOUT=soon "$tree/tests/run" >"$scratch/bad" 2>&1 || status=$?
check "TEST_TIMEOUT=soon is refused (exit $status)" [ "$status" = 2 ]
check "... saying why" grep -q "TEST_TIMEOUT is a number of seconds" "$scratch/bad"
finish
