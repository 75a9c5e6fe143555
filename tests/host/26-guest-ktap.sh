#!/bin/bash
# guest_ktap (tests/lib.sh), which passes on the results of a guest half
# that checks itself: a plan met passes; no plan, or a plan not met (a
# guest that died half-way), fails; a guest's not ok and SKIP stay what
# they are; its other lines become comments.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# judge NAME TEXT: guest_ktap on TEXT, in a subshell; prints its lines
judge() {
	printf '%s\n' "$2" >"$scratch/$1"
	(ktap_failed=0; guest_ktap "$scratch/$1")
}

out=$(judge met $'1..3\nsome diagnostic\nok 1 - a\nok 2 - b # SKIP not here\nok - c')
check "a plan met: 3 results passed on and the plan's check passes" \
	[ "$(grep -c '^ok - ' <<<"$out")" = 4 ]
check "... a SKIP stays a SKIP" grep -qx 'ok - b # SKIP not here' <<<"$out"
check "... other lines are comments" grep -qx '# some diagnostic' <<<"$out"
out=$(judge unplanned $'ok 1 - a\nok 2 - b')
check "no plan: fails" grep -q '^not ok - the guest printed its plan before its results' <<<"$out"
out=$(judge late $'ok 1 - a\n1..1')
check "a plan after the first result: fails" grep -q '^not ok - the guest printed its plan' <<<"$out"
out=$(judge short $'1..3\nok 1 - a\nok 2 - b')
check "a plan not met (2 of 3): fails" grep -qx 'not ok - the guest'"'"'s 2 results are its plan of 3' <<<"$out"
out=$(judge failing $'1..2\nok 1 - a\nnot ok 2 - b went wrong')
check "a guest's not ok stays a not ok" grep -qx 'not ok - b went wrong' <<<"$out"
# check with a description and no command: a broken test, not a pass
out=$(bash -c '. "$1/tests/ktap.sh"; check "nothing to run"' - "$project_dir")
check "check without a command fails" grep -qx 'not ok - nothing to run (check was given no command)' <<<"$out"
finish
