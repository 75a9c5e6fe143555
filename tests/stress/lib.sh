# Helpers of the stress tests, on top of tests/lib.sh. A stress test's
# guest prints what it counted as lines "WHAT: key=value ...", into the
# files listed in stress_outputs, which kv reads for the test's figure
# (and vendor-reload's checks, whose guest side is a SystemTap session).
# shellcheck shell=bash
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

stress_outputs=("$scratch/out")
# stress_guest_half NAME: the text of the guest half guest/NAME.sh with
# the guest's helpers (tests/stress/guest/lib.sh) in front. Run it as:
#   "$vm" run ... -- bash -c "$(stress_guest_half NAME)" NAME ARGS...
stress_guest_half() {
	local lib=tests/stress/guest/lib.sh
	[ -r "$lib" ] || die "the guest helpers $lib are missing"
	cat "$lib"
	guest_half "$1"
}

# kv WHAT KEY: KEY's value on the last "WHAT: ..." line
kv() { sed -n "s/^$1: .*\<$2=\([0-9]*\).*/\1/p" "${stress_outputs[@]}" | tail -n 1; }
# has LINE: the guest printed exactly LINE
has() { grep -qxF -- "$1" "${stress_outputs[@]}"; }
