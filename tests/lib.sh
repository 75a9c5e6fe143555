# Helpers for test scripts. Source it; it sets -eu and cds to the checkout.
# shellcheck shell=bash
set -eu
cd "$(dirname "$0")/../.."
project_dir=$PWD
# shellcheck disable=SC2034 # for the tests that source this
vm=$project_dir/guest-image/vm
kbuild=$(readlink -f build/linux)
# shellcheck disable=SC2034
release=$(cat "$kbuild/include/config/kernel.release" 2>/dev/null || echo unknown)

# die MESSAGE: stop the test script, reporting why.
die() {
	echo "not ok - $*"
	exit 1
}

tap_failures=0
# ok DESCRIPTION / not_ok DESCRIPTION: one TAP line each.
ok() { echo "ok - $*"; }
not_ok() {
	echo "not ok - $*"
	tap_failures=$((tap_failures + 1))
}
# check DESCRIPTION CMD...: run CMD, report it as one TAP line.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
# Exit with the number of failures reported (capped), for the runner.
finish() { exit $((tap_failures > 100 ? 100 : tap_failures)); }

# The scratch directory of a test, removed at exit.
scratch=$(mktemp -d /tmp/markers-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# lacks PATTERN FILE: FILE has no line matching PATTERN (binary files too).
lacks() { ! grep -a -q -e "$1" "$2"; }
