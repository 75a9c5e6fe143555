# The guest's helpers of the stress tests: tests/stress/lib.sh puts this
# text in front of each guest script. The loads run until /tmp/km_stop
# exists, then report what they did as "WHAT: key=value ..." lines, which
# the checks read back with kv (and the host, for the test's figure).
# shellcheck shell=bash

: >/tmp/stress.kv
# report LINE: a "WHAT: key=value ..." line, printed and kept for kv
report() { echo "$1" | tee -a /tmp/stress.kv; }
# kv WHAT KEY: KEY's value on the last "WHAT: ..." line reported
kv() { sed -n "s/^$1: .*\<$2=\([0-9]*\).*/\1/p" /tmp/stress.kv | tail -n 1; }
# same_nonzero A B: A counted something, and B is the same
same_nonzero() { [ -n "$1" ] && [ "$1" != 0 ] && [ "$1" = "$2" ]; }
# at_least A MIN
at_least() { [ -n "$1" ] && [ "$1" -ge "$2" ]; }

# completed OUTPUT: how many commands an acmectl run reports done
completed() { printf '%s\n' "$1" | sed -n 's/^completed=//p'; }

# vendor_load WHAT ACMECTL-RUN-ARGS...: acmectl runs back to back, each
# with a seed of its own; "WHAT: runs=N ran=N failed_runs=N"
vendor_load() {
	local what=$1 runs=0 ran=0 failed_runs=0 out done_here
	shift
	while [ ! -e /tmp/km_stop ]; do
		if out=$(acmectl run "$@" --seed $((runs + 1))); then
			done_here=$(completed "$out")
			ran=$((ran + ${done_here:-0}))
		else
			failed_runs=$((failed_runs + 1))
		fi
		runs=$((runs + 1))
	done
	report "$what: runs=$runs ran=$ran failed_runs=$failed_runs"
}

# core_opens FILE: opens FILE over and over, each open a hit of the core
# marker fs_open; "core: opens=N"
core_opens() {
	local opens=0
	while [ ! -e /tmp/km_stop ]; do
		: <"$1"
		opens=$((opens + 1))
	done
	report "core: opens=$opens"
}

# held_counts: what the probes held by markers_churn counted, reported
# as "held: MARKER=N" each
held_counts() {
	local line
	while read -r line; do
		report "held: ${line% *}=${line##* }"
	done </sys/module/markers_churn/parameters/held
}

# listing_since FILE: the markers listing is still FILE's (how it
# differs is printed)
listing_since() {
	local status=0
	diff "$1" /sys/kernel/debug/markers/list >/tmp/listing.diff || status=$?
	sed 's/^/listing: /' /tmp/listing.diff
	[ "$status" = 0 ]
}
