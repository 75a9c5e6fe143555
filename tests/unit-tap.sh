# TAP helpers of the C tools' own unit tests (tools/markers-elf/tests,
# bench/tools/tests), which also run alone ('make test' in the tool's
# directory). Source it with the tool's name and the binary under test:
#   . tests/unit-tap.sh NAME BINARY
# It sets bin (BINARY, absolute), T (a scratch directory removed at exit)
# and W=$T/work, and defines notok, run, check and tap_end on top of the
# result lines of tests/ktap.sh (ok, not_ok).
# shellcheck shell=bash

bin=$2
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac
if [ ! -x "$bin" ]; then
	echo "Bail out! $bin is not executable (run make first)"
	exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/$1-tests.XXXXXX")
# shellcheck disable=SC2064 # T is fixed from here on
trap "rm -rf '$T'" EXIT
W=$T/work
mkdir "$W"

rc=0
# shellcheck source=tests/ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

# notok NAME [DETAIL...]: a failure, with the details and the last run's
# exit status and output
notok() {
	not_ok "$1"
	shift
	local l
	for l in "$@"; do
		echo "#   $l"
	done
	echo "#   exit status: $rc"
	sed 's/^/#   stdout: /' "$T/out" | head -20
	sed 's/^/#   stderr: /' "$T/err" | head -20
}

# run CMD...: sets rc, stdout in $T/out, stderr in $T/err. A sanitizer
# report (the -asan builds) turns any exit status into 99, so that no
# expectation can match it.
run() {
	set +e
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	if grep -qE 'Sanitizer|runtime error:' "$T/err"; then
		rc=99
	fi
}

# check NAME COMMAND...: ok if the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		notok "$name" "check failed: $*"
	fi
}

# tap_end: the summary line; fails if a test failed
tap_end() {
	echo "1..$((ktap_passed + ktap_failed + ktap_skipped))"
	echo "# $ktap_passed passed, $ktap_failed failed"
	[ "$ktap_failed" -eq 0 ]
}
