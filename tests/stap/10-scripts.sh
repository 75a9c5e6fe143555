#!/bin/bash
# The SystemTap scripts of stap-scripts/, cross-compiled (stap-scripts/run:
# host build root, staprun in the guest), each against a workload that
# fixes what it must print: exact counts, the injected stall at command
# 129, the bug report's layout, counters and versions; a misspelt marker
# and a wrong .format() fail at compile time, before any guest boots, with
# SystemTap's error.
# shellcheck disable=SC2016 # eval and awk take their text in single quotes
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

run=$project_dir/stap-scripts/run
scripts=$project_dir/stap-scripts
# shellcheck source=stap-scripts/examples/stall-fault.sh
. "$project_dir/stap-scripts/examples/stall-fault.sh"
drop=$project_dir/vendor-module/drop

# run_script NAME [run args...]: stdout to $scratch/NAME.out, stderr to NAME.err
run_script() {
	local name=$1
	shift
	local status=0
	"$run" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err" || status=$?
	check "$name: ran (exit $status)" [ "$status" = 0 ]
	if [ "$status" != 0 ]; then
		tail -n 30 "$scratch/$name.err" | sed 's/^/# /'
		# SystemTap's own complaints come with the script's output
		grep -E 'ERROR|WARNING|error|skipped' "$scratch/$name.out" | tail -n 10 | sed 's/^/# stap: /'
	fi
	sed 's/^/# /' "$scratch/$name.out" | head -n 60
}
# kv FILE KEY: the value of "KEY VALUE" / "KEY=VALUE" lines
kv() { sed -n -E "s/^$2[ =]+//p" "$1" | head -n 1; }

# The example outputs (stap-scripts/examples) are held to the same checks
# as the fresh output of the same workload (examples/scenarios.sh): an
# example that no longer reads like what the script prints fails here
# (stap-scripts/examples/regenerate writes them anew).
examples=$project_dir/stap-scripts/examples
# shellcheck source=stap-scripts/examples/scenarios.sh
. "$examples/scenarios.sh"

# --- acme-latency: per-opcode counts add up to the workload -----------
latency_checks() { # FILE WHO
	local o=$1 who=$2 sum
	sum=$(awk '/^(read|write|crypt) / { n += $2 } END { print n + 0 }' "$o")
	check "$who: read+write+crypt counts add up to 900 ($sum)" [ "$sum" = 900 ]
	check "$who: percentile header" grep -Eq '^opcode +count +min +avg +p50 +p90 +p99 +max$' "$o"
	check "$who: p50 <= p90 <= p99 <= max for every opcode" \
		awk '/^(read|write|crypt) +[0-9]/ { if (!($5 <= $6 && $6 <= $7 && $7 <= $8 && $3 <= $5)) bad = 1; n++ } END { exit bad || n != 3 }' "$o"
	check "$who: a log2 histogram per opcode" eval '[ "$(grep -c "^ *value |-* count$" "$o")" = 3 ]'
}
run_script latency "$scripts/acme-latency.stp" -- "$latency_workload"
latency_checks "$scratch/latency.out" acme-latency
latency_checks "$examples/acme-latency.txt" "the example acme-latency.txt"
run_script latency-periodic "$scripts/acme-latency.stp" -G interval=1 -- 'acmectl run --count 200 >/dev/null; sleep 2.5'
check "acme-latency -G interval=1: periodic reports, then the one at exit" \
	eval 'grep -q "^acme command latency (ns), periodic" "$scratch/latency-periodic.out" && grep -q "^acme command latency (ns), at exit" "$scratch/latency-periodic.out"'

# --- acme-errors: the stall at the configured point --------------------
errors_checks() { # FILE WHO
	local o=$1 who=$2
	check "$who: failed ids 129,130,259,260" grep -qx 'failed_ids 129,130,259,260' "$o"
	check "$who: 12 timeouts, 8 retries, 2 resets, 2 stalls" \
		eval '[ "$(kv "$o" timeouts) $(kv "$o" retries) $(kv "$o" resets) $(kv "$o" fw_stalls)" = "12 8 2 2" ]'
	check "$who: the stall line names command 129" grep -Eq ' fw\.stall +id=129 .*ring_pos=128 wraps=2$' "$o"
	check "$who: timeouts of 129 happen in state stalled" grep -Eq ' cmd\.timeout +id=129 +fw=stalled ' "$o"
	check "$who: the failure of 129 is ETIMEDOUT" grep -Eq ' cmd\.complete +id=129 .*status=ETIMEDOUT' "$o"
}
run_script errors --params "$stall" "$scripts/acme-errors.stp" -- "$errors_workload"
errors_checks "$scratch/errors.out" acme-errors
errors_checks "$examples/acme-errors.txt" "the example acme-errors.txt"

# --- acme-top: who drives the device ------------------------------------
top_checks() { # FILE WHO
	local o=$1 who=$2
	check "$who: refreshed at least once with its header" grep -q '^PROCESS\[PID\] .*AVG_LAT_US$' "$o"
	check "$who: totals since the start: one acmectl with 300 commands, 1200 KiB" \
		grep -Eq '^acmectl\[[0-9]+\] +300 +1200 +0$' "$o"
	check "$who: and one with 200 commands, 1600 KiB" grep -Eq '^acmectl\[[0-9]+\] +200 +1600 +0$' "$o"
}
run_script top "$scripts/acme-top.stp" -G interval=1 -- "$top_workload"
top_checks "$scratch/top.out" acme-top
top_checks "$examples/acme-top.txt" "the example acme-top.txt"

# --- markers-all: every marker of every module --------------------------
markers_all_checks() { # FILE WHO
	local o=$1 who=$2
	check "$who: acme_cmd_submit under acme_xa, 40 hits, with its format" \
		grep -Eq '^acme_xa +40  acme_cmd_submit +id %u opcode %u len %u depth %u$' "$o"
	check "$who: module_load under vmlinux (the reload), with its format" \
		grep -Eq '^vmlinux +1  module_load +name %s taints %#lx$' "$o"
	check "$who: no marker without a module" lacks '^? ' "$o"
}
run_script markers-all "$scripts/markers-all.stp" -- "$markers_all_workload"
markers_all_checks "$scratch/markers-all.out" markers-all
markers_all_checks "$examples/markers-all.txt" "the example markers-all.txt"

# --- acme-bugreport: the report a vendor gets ---------------------------
srcversion=$(objcopy -O binary --only-section=.modinfo "$drop/acme_xa.ko" /dev/stdout | tr '\0' '\n' | sed -n 's/^srcversion=//p')
run_script bugreport --params "$stall" "$scripts/acme-bugreport.stp" -- 'acmectl run --count 300 --threads 2 >/dev/null; acmectl stats'
o=$scratch/bugreport.out
first=$scratch/bugreport.first
sed -n '1,/^=== end of report ===$/p' "$o" >"$first"
check "bugreport: two reports, the stall's and the one at exit" \
	eval '[ "$(grep -c "^=== acme bug report v2 ===$" "$o")" = 2 ] && [ "$(grep -c "^=== end of report ===$" "$o")" = 2 ]'
check "bugreport: triggered by the stall of command 129, with its CPU" grep -Eq '^trigger: fw\.stall id=129 cpu=[01] at [0-9]+\.[0-9]{6} s$' "$first"
check "bugreport: kernel release and taint (P+O)" grep -qx "kernel: release $release taint 4097" "$first"
check "bugreport: module version and srcversion of the drop ($srcversion)" \
	grep -Eqx "module: acme_xa version 1.4.2 srcversion $srcversion text 0xffffffff[0-9a-f]{8}" "$first"
check "bugreport: the stall's backtrace, with acme_xa frames and their .text offsets" \
	eval 'sed -n "/^--- backtraces/,/^---/p" "$first" | grep -A1 -E "^fw\.stall id=129 cpu=[01] at [0-9.]+ s$" |
		grep -Eq "^  acme_[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[acme_xa\] acme_xa\+0x[0-9a-f]+$"'
check "bugreport: the driver's parameters" grep -Eq '^parameters: .*stall_after_wraps=2' "$first"
check "bugreport: the 12 markers with their states" \
	eval '[ "$(sed -n "s/^markers: //p" "$first" | tr " " "\n" | grep -c "^acme_[a-z_]*=[a-z]*$")" = 12 ]'
check "bugreport: the last events end with the stall and busy -> stalled" \
	eval 'sed -n "/^--- last events/,/^---/p" "$first" | grep -q "fw\.stall .*id=129 ring_pos=128 wraps=2" &&
		sed -n "/^--- last events/,/^---/p" "$first" | grep -q "old=busy new=stalled reason=ring_wrap"'
check "bugreport: the timeline has busy -> stalled (ring_wrap)" grep -Eq '^ +[0-9.]+ busy -> stalled \(ring_wrap\)$' "$first"
last=$scratch/bugreport.last
sed -n '/^trigger: exit/,/^=== end of report ===$/p' "$o" >"$last"
stats=$scratch/bugreport.err
for c in submitted completed errors timeouts retries resets; do
	check "bugreport at exit: counter $c = acmectl stats' ($(kv "$stats" "$c"))" same_count "$(kv "$last" "$c")" "$(kv "$stats" "$c")"
done
check "bugreport at exit: the timeline has stalled -> resetting -> ready" \
	eval 'grep -Eq "stalled -> resetting \(failures\)$" "$last" && grep -Eq "resetting -> ready \(reset_done\)$" "$last"'
check "bugreport at exit: the last timeout's backtrace, from the driver's watchdog timer" \
	eval 'sed -n "/^cmd\.timeout id=/,/^---/p" "$last" | grep -Eq "^  acme_wd_timer_fn\+0x[0-9a-f]+/0x[0-9a-f]+ \[acme_xa\] acme_xa\+0x"'
check "bugreport at exit: a latency histogram" grep -q '^--- latency histogram (ns, successful commands) ---$' "$last"

run_script bugreport-json --params "$stall" "$scripts/acme-bugreport.stp" -G json=1 -- 'acmectl run --count 300 --threads 2 >/dev/null'
grep '^{"acme_bug_report":2' "$scratch/bugreport-json.out" >"$scratch/reports.jsonl" || true
check "bugreport -G json=1: two JSON reports" eval '[ "$(wc -l <"$scratch/reports.jsonl")" = 2 ]'
check "bugreport -G json=1: each parses" \
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$scratch/reports.jsonl"
check "bugreport -G json=1: the first names command 129" grep -q '"id":129' "$scratch/reports.jsonl"
# --- the sample report of stap-scripts/examples is what the script writes ---
# The same scenario and workload as stap-scripts/examples/regenerate: the
# fresh reports must have the sample's sections and lines in the same order,
# its triggers, failed commands and stall stack (values such as times aside).
facts=$project_dir/tests/stap/bugreport-facts
# facts_to FORMAT REPORT OUT: the report's facts into OUT
facts_to() { "$facts" "$1" "$2" >"$3"; }
# same_facts KIND A B: both have KIND lines, and the same ones
same_facts() {
	grep -q "^$1 " "$2" && grep -q "^$1 " "$3" &&
		diff <(grep "^$1 " "$2") <(grep "^$1 " "$3") >"$scratch/facts.diff"
}
for format in text json; do
	case $format in
	text) sample=$examples/bugreport-stall.txt fresh=$scratch/bugreport.out ;;
	json) sample=$examples/bugreport-stall.json fresh=$scratch/bugreport-json.out ;;
	esac
	check "sample $format report: the committed one has reports" facts_to "$format" "$sample" "$scratch/sample.facts"
	check "sample $format report: the fresh run has reports" facts_to "$format" "$fresh" "$scratch/fresh.facts"
	for kind in shape trigger failed stall; do
		check "sample $format report: a fresh run has the same $kind" same_facts "$kind" "$scratch/sample.facts" "$scratch/fresh.facts"
		[ ! -s "$scratch/facts.diff" ] || {
			echo "# sample (<) and fresh (>) differ; if the layout changed on purpose, run stap-scripts/examples/regenerate:"
			sed 's/^/# /' "$scratch/facts.diff" | head -n 20
			: >"$scratch/facts.diff"
		}
	done
done
run_script bugreport-ring8 --params "$stall" "$scripts/acme-bugreport.stp" -G ring_size=8 -- 'acmectl run --count 300 >/dev/null'
check "bugreport -G ring_size=8 keeps 8 events" grep -Eq '^recorded [0-9]+ shown 8 ring_size 8$' "$scratch/bugreport-ring8.out"
status=0
"$run" "$scripts/acme-bugreport.stp" -G ring_size=0 -- true >"$scratch/ring0.out" 2>&1 || status=$?
check "bugreport -G ring_size=0: refused with a clear error (exit $status)" \
	eval '[ "$status" != 0 ] && grep -q "ring_size=0: must be 1..256" "$scratch/ring0.out"'

# --- mistakes fail at compile time, with SystemTap's own error ---------
# Exit 3 is stap-scripts/run's compile failure; that no guest was booted
# for it is in VM_REPORT_LOG, where guest-image/vm logs every run.
guest_runs() {
	local n
	n=$(grep -c '^run ' "$VM_REPORT_LOG" 2>/dev/null) || true
	echo "${n:-0}"
}
for wrong in 'kernel.mark("acme_cmd_sumbit")' 'kernel.mark("acme_cmd_submit").format("id %d")' 'acme.cmd.sumbit'; do
	runs_before=$(guest_runs)
	status=0
	"$run" -e "probe $wrong { }" -- true >"$scratch/wrong.out" 2>&1 || status=$?
	runs_after=$(guest_runs)
	check "probe $wrong: fails at compile time (exit $status), without a guest (guest runs: $runs_before before, $runs_after after)" \
		test "$status" = 3 -a "$runs_before" = "$runs_after"
	check "... with SystemTap's error: $(grep -m1 -E 'semantic error|no match' "$scratch/wrong.out" | cut -c1-90)" \
		grep -Eq 'no match|semantic error' "$scratch/wrong.out"
done
finish
