#!/bin/bash
# Every script under load: STRESS_SECONDS (default 15; the issue's figure
# is 60) of 'acmectl run --threads 4' back to back, the periodic scripts
# reporting every second, the fault scripts with the stall fault. Each
# must end without an error or a skipped probe (staprun's warning:
# SystemTap skips a probe that waits over 1 ms for a lock, and stops the
# script after 100) and print its report, which counts exactly the load
# it ran under: the runs x 2000 commands, or for acme-errors the stalls
# the stall fault makes in that many commands.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

run=$project_dir/stap-scripts/run
scripts=$project_dir/stap-scripts
seconds=${STRESS_SECONDS:-15}
# shellcheck source=stap-scripts/examples/stall-fault.sh
. "$project_dir/stap-scripts/examples/stall-fault.sh"
# shellcheck disable=SC2016 # expanded by the guest's shell
load='end=$((SECONDS + '$seconds')); n=0
while [ $SECONDS -lt $end ]; do acmectl run --count 2000 --threads 4 >/dev/null; n=$((n + 1)); done
echo "stress: $n runs of 2000 commands in '$seconds' s"'

# stress NAME FIGURE-REGEX [run args...]: the script ran, no error, no
# skipped probe; FIGURE-REGEX picks the lines that show the load. Sets
# runs, the load's number of acmectl runs (of 2000 commands each).
stress() {
	local name=$1 figure=$2 status=0 start took
	shift 2
	start=$(date +%s)
	"$run" --timeout $((seconds + 300)) "$@" -- "$load" >"$scratch/$name.out" 2>"$scratch/$name.err" || status=$?
	took=$(($(date +%s) - start))
	grep -h -E "^stress: |$figure|WARNING|ERROR" "$scratch/$name.err" "$scratch/$name.out" | sed "s/^/# $name: /"
	runs=$(sed -n 's/^stress: \([0-9]*\) runs of 2000 commands.*/\1/p' "$scratch/$name.err")
	skipped=$(sed -n 's/.*skipped probes: \([0-9]*\).*/\1/p' "$scratch/$name.out" | tail -n 1)
	check "$name under ${seconds} s of 4 threads (${runs:-?} runs of 2000 commands): exit $status, in $took s" \
		[ "$status" = 0 ]
	check "$name: no error, no skipped probe (skipped: ${skipped:-0})" \
		lacks 'ERROR\|WARNING.*skipped\|WARNING: Skipped' "$scratch/$name.out"
}
# counted NAME WHAT GOT WANT: the script's report counts what the load did
# (the load ran at least once)
counted() {
	check "$1: its report counts the load: $2 $3 (want $4 for ${runs:-?} runs of 2000 commands)" \
		load_counted "$3" "$4"
}
load_counted() { [ "${runs:-0}" -gt 0 ] && same_count "$1" "$2"; }
commands() { echo $((${runs:-0} * 2000)); }
# last NAME SED-EXPRESSION: the last value the expression prints from the output
last() { sed -n -E "$2" "$scratch/$1.out" | tail -n 1; }

stress acme-latency '^(read|write|crypt) +[0-9]{4,} ' "$scripts/acme-latency.stp" -G interval=1
counted acme-latency "read+write+crypt in the report at exit" \
	"$(awk '/^acme command latency \(ns\), at exit/ { e = 1 } e && /^(read|write|crypt) +[0-9]/ { n += $2 } END { print n + 0 }' "$scratch/acme-latency.out")" \
	"$(commands)"
stress acme-top '^all processes +[0-9]{4,} ' "$scripts/acme-top.stp" -G interval=1
counted acme-top "all processes since the start" "$(last acme-top 's/^all processes +([0-9]+) .*/\1/p')" "$(commands)"
# The stall fault: the firmware stalls on ring position 128 after each
# reset, the stalled command and the next one fail (3 attempts each) and
# make the reset, whose ring starts after them: a stall every 130
# commands, the first on command 129
stress acme-errors '^fw_stalls [1-9]' --params "$stall" "$scripts/acme-errors.stp"
counted acme-errors "fw_stalls" "$(last acme-errors 's/^fw_stalls ([0-9]+)$/\1/p')" \
	"$(($(commands) >= 129 ? ($(commands) - 129) / 130 + 1 : 0))"
stress acme-bugreport '^events [0-9]{4,}$' --params "$stall" "$scripts/acme-bugreport.stp"
counted acme-bugreport "submitted, in the report at exit" "$(last acme-bugreport 's/^submitted ([0-9]+)$/\1/p')" "$(commands)"
stress markers-all '^acme_xa +[0-9]{4,}  acme_cmd_submit ' "$scripts/markers-all.stp"
counted markers-all "acme_cmd_submit hits" "$(last markers-all 's/^acme_xa +([0-9]+)  acme_cmd_submit .*/\1/p')" "$(commands)"
finish
