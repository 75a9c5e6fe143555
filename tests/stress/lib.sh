# Helpers of the stress tests, on top of tests/lib.sh. A stress test's
# guest prints its figures as lines "WHAT: key=value ...", into the files
# listed in stress_outputs, which the helpers below read.
# shellcheck shell=bash
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

stress_outputs=("$scratch/out")
# The guest's half (tests/stress/guest-lib.sh), to put in front of a
# guest script
# shellcheck disable=SC2034 # for the tests that source this
stress_guest_lib=$(cat tests/stress/guest-lib.sh)

# kv WHAT KEY: KEY's value on the last "WHAT: ..." line
kv() { sed -n "s/^$1: .*\<$2=\([0-9]*\).*/\1/p" "${stress_outputs[@]}" | tail -n 1; }
# has LINE: the guest printed exactly LINE
has() { grep -qxF -- "$1" "${stress_outputs[@]}"; }
# same_nonzero A B: A counted something, and B is the same
same_nonzero() { [ -n "$1" ] && [ "$1" != 0 ] && [ "$1" = "$2" ]; }
# at_least A MIN
at_least() { [ -n "$1" ] && [ "$1" -ge "$2" ]; }
