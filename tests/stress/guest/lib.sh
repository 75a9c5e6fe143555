# The guest's helpers of the stress tests: tests/stress/lib.sh puts this
# text in front of each guest script. The loads run until /tmp/km_stop
# exists, then print what they did as "WHAT: key=value ..." lines.
# shellcheck shell=bash

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
	echo "$what: runs=$runs ran=$ran failed_runs=$failed_runs"
}

# core_opens FILE: opens FILE over and over, each open a hit of the core
# marker fs_open; "core: opens=N"
core_opens() {
	local opens=0
	while [ ! -e /tmp/km_stop ]; do
		: <"$1"
		opens=$((opens + 1))
	done
	echo "core: opens=$opens"
}

# held_counts: what the probes held by markers_churn counted,
# "held: MARKER=N" each
held_counts() {
	sed 's/^\([a-z_]*\) \([0-9]*\)$/held: \1=\2/' /sys/module/markers_churn/parameters/held
}

# listing_since FILE: "listing: unchanged" when the markers listing is
# still FILE's, else how it differs
listing_since() {
	if diff "$1" /sys/kernel/debug/markers/list; then echo "listing: unchanged"; fi
}
