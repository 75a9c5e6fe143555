#!/bin/bash
# The guest side of one tracers.md entry (tools/oneliners/oneliners copies
# it into the guest's /mnt/host as guest.sh): /mnt/host holds
# oneliner.sh, workload.sh and settings (params, ends, setup). Loads
# acme_xa (or runs setup instead: zfs.md's pool), runs the one-liner as
# at a terminal (Ctrl-C, or --ends) and prints its output, then "@@ "
# lines: the one-liner's exit status and what it left set in tracefs. Not set -e: a one-liner or workload that fails is
# reported, not the end of the run.
set -u
cd /tmp || exit 4
params="" ends=0 setup=""
# shellcheck source=/dev/null # written by the runner for each entry
. /mnt/host/settings
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
# What a one-liner left set in tracefs: it must leave it as it found it
leftovers() {
	local f
	for f in /sys/kernel/tracing/events/markers/*/enable; do
		case $(cat "$f") in 0) ;; *) echo "@@ left set: $f ($(cat "$f"))" ;; esac
	done
	for f in /sys/kernel/tracing/events/markers/*/filter; do
		[ "$(cat "$f")" = none ] || echo "@@ left set: $f"
	done
	for f in /sys/kernel/tracing/events/markers/*/trigger; do
		! grep -qv '^#' "$f" || echo "@@ left set: $f"
	done
	[ "$(cat /sys/kernel/tracing/tracing_on)" = 1 ] || echo "@@ left set: tracing_on is 0"
}
if [ -n "$setup" ]; then
	bash -c "$setup" >/tmp/setup.log 2>&1 || { echo "@@ setup failed, its output:"; cat /tmp/setup.log; exit 4; }
else
	# shellcheck disable=SC2086 # the parameters are words on purpose
	modprobe acme_xa $params || { echo "@@ modprobe acme_xa $params failed"; exit 4; }
fi
if [ "$ends" = 1 ]; then
	bash /mnt/host/workload.sh >/tmp/workload.log 2>&1
	# through a pipe, as in the background case: perf would start a pager on the console
	bash /mnt/host/oneliner.sh 2>&1 | cat
	echo "@@ one-liner exit ${PIPESTATUS[0]}"
	leftovers
	exit 0
fi
# With job control the one-liner gets a process group of its own for the
# Ctrl-C, and SIGINT is not ignored in it as in a plain background job
set -m
bash /mnt/host/oneliner.sh >/tmp/out 2>&1 &
oneliner=$!
set +m
# Attached: some marker has a probe (an enabled event registers one)
attached=0
for _ in $(seq 600); do
	if awk -F'\t' '$4 == "on" { found = 1 } END { exit !found }' /sys/kernel/debug/markers/list; then
		attached=1
		break
	fi
	kill -0 "$oneliner" 2>/dev/null || break
	sleep 0.1
done
[ "$attached" = 1 ] || echo "@@ the one-liner did not attach"
bash /mnt/host/workload.sh >/tmp/workload.log 2>&1
# A second for the last records to reach a reader (trace_pipe, perf's
# buffers), as at a terminal before Ctrl-C; then Ctrl-C to the one-liner's
# process group, and 60 s for it to print its report
sleep 1
kill -INT -- "-$oneliner" 2>/dev/null
for _ in $(seq 600); do kill -0 "$oneliner" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$oneliner" 2>/dev/null; then
	echo "@@ the one-liner did not end on SIGINT"
	kill -KILL -- "-$oneliner"
fi
wait "$oneliner"
status=$?
cat /tmp/out
# 130: ended by the SIGINT it was sent (cat, bash -c)
echo "@@ one-liner exit $([ "$status" = 130 ] && echo 0 || echo "$status")"
leftovers
