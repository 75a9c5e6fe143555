# The result lines of every test, and the small predicates checks use, on the host and in the guest alike (the
# host's tests/lib.sh sources this; guest_half puts it in front of every
# guest half; tests/unit-tap.sh builds on it): one KTAP result per check,
#   ok - WHAT        not ok - WHAT        ok - WHAT # SKIP WHY
# which tests/run numbers under a plan per test file. Counted in
# ktap_passed, ktap_failed and ktap_skipped.
# shellcheck shell=bash

ktap_passed=0 ktap_failed=0 ktap_skipped=0

# ok WHAT / not_ok WHAT: one result each
ok() {
	ktap_passed=$((ktap_passed + 1))
	echo "ok - $*"
}
not_ok() {
	ktap_failed=$((ktap_failed + 1))
	echo "not ok - $*"
}
# skip WHAT WHY: a check that cannot run here, and why; counted as
# skipped, never as passed
skip() {
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok - $1 # SKIP $2"
}
# check WHAT CMD...: run CMD, its status one result (no CMD: a mistake in
# the test, which fails rather than passing on an empty command)
check() {
	local what=$1
	shift
	if [ $# = 0 ]; then
		not_ok "$what (check was given no command)"
	elif "$@"; then
		ok "$what"
	else
		not_ok "$what"
	fi
}

# lacks PATTERN FILE: FILE has no line matching PATTERN (binary files too).
# A FILE that is missing or unreadable fails: it lacks nothing.
lacks() {
	local found=0
	grep -a -q -e "$1" "$2" || found=$?
	[ "$found" = 1 ]
}
# reads FILE VALUE: FILE (a sysfs knob, a counter) reads VALUE
reads() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }
# fails CMD...: CMD fails (a check that something is refused)
fails() { ! "$@"; }
# set_to FILE VALUE: write VALUE to FILE (a knob); fails as the write does
set_to() { echo "$2" >"$1"; }
