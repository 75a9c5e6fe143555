#!/bin/bash
# make bench keeps working: bench/run --quick does every step of the
# benchmark (module, SystemTap sessions, one guest boot with every method
# and tracer, boot and tracer timings) with a tiny loop, and its results
# parse: every method measured, every tracer counted every iteration,
# every target given a verdict, the chart drawn. The figures themselves
# are not judged here (a tiny loop on TCG says nothing); make bench does.
# shellcheck disable=SC2016 # the $ in awk and sh -c scripts are theirs
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

results=$scratch/results
status=0
bench/run --quick --out "$results" >"$scratch/run.log" 2>&1 || status=$?
check "bench/run --quick ends well (status $status)" [ "$status" = 0 ]
[ -s "$results/latest.txt" ] || { tail -n 40 "$scratch/run.log"; die "no table in $results/latest.txt"; }
sed 's/^/# /' "$results/latest.txt"
guest_log=build/bench-quick/guest.log

bench/tools/benchstat --tsv "$results/latest.raw" bench/targets >"$scratch/tsv" ||
	die "benchstat cannot read the results it was given"
methods="baseline nop5 marker-off tracepoint-off marker-probe tracepoint-probe
	stap-mark stap-trace stap-kprobe bpftrace-marker bpftrace-tracepoint bpftrace-kprobe
	perf-marker perf-tracepoint perf-kprobe ftrace-marker ftrace-tracepoint ftrace-kprobe"
for m in $methods; do
	check "$m: 5 or more runs, a median above 0" \
		awk -F'\t' -v m="$m" '$1 == "method" && $2 == m && $3 >= 5 && $4 > 0 { found = 1 } END { exit !found }' "$scratch/tsv"
done
tracers=$(awk -F'\t' '$1 == "count"' "$scratch/tsv" | wc -l)
check "all 12 tracer methods report a count ($tracers)" [ "$tracers" = 12 ]
check "every tracer counted every iteration (no MISMATCH)" \
	awk -F'\t' '$1 == "count" { n++; if ($3 != $4 || $5 != "ok" || $3 == 0) bad = 1 } END { exit bad || !n }' "$scratch/tsv"
check "every target has a verdict" \
	awk -F'\t' '$1 == "target" { n++; if ($9 == "not-measured") bad = 1 } END { exit bad || n < 5 }' "$scratch/tsv"
check "the table says only ratios are claimed" grep -q 'only ratios are claimed' "$results/latest.txt"
check "the chart is an SVG naming the methods" \
	sh -c 'head -c 200 "$1" | grep -q "<?xml\|<svg" && grep -q marker-probe "$1"' - "$results/latest.svg"
check "the results show the marker's call site: a NOP" \
	awk '/disassembly of bench_loop_marker/ { p = 1; next } /disassembly of/ { p = 0 } p && /xchg +%ax,%ax|nop/ { found = 1 } END { exit !found }' "$results/latest.txt"
for t in stap-compile-cold stap-compile-cached boot-wall boot-uptime bpftrace-startup stap-exit; do
	check "timing recorded: $t" grep -q "^time $t [0-9]" "$results/latest.raw"
done
for m in $methods; do
	check "where the time of $m goes (a profile)" grep -q "where the time of $m goes" "$results/latest.txt"
done
check "every run names its round (the ratios are paired)" \
	awk '$1 == "run" { n++; if (NF != 5) bad = 1 } END { exit bad || !n }' "$results/latest.raw"
iterations=$(awk '$1 == "run" && $2 == "baseline" { print $3; exit }' "$results/latest.raw")
check "an off marker evaluates none of its arguments" \
	grep -q "arguments of a marker that is off: evaluated 0 times in $iterations iterations" "$results/latest.txt"
check "... which it does with a probe connected" \
	grep -q "the same marker with an empty probe: evaluated $iterations times in $iterations iterations" "$results/latest.txt"
check "every timed run stayed on the one CPU the loops are pinned to" \
	sh -c 'grep -q "every timed run ran on CPU 1 alone" "$1" && ! grep -q "^bench: .* ran on CPU" "$2"' - "$results/latest.txt" "$guest_log"
check "the results show where the marker's argument is computed: behind the NOP" \
	awk '/disassembly of bench_loop_marker_args/ { p = 1; next } /disassembly of/ { p = 0 } p && /xchg +%ax,%ax|nop/ { found = 1 } END { exit !found }' "$results/latest.txt"
check "the bench module refuses every bad input" \
	sh -c '[ "$(grep -c "^bench: refused bad input" "$1")" = 8 ] && ! grep -q "^bench: accepted" "$1"' - "$guest_log"
status=0
BENCH_RUNS=3 bench/run --quick --out "$scratch/few" >"$scratch/few.log" 2>&1 || status=$?
check "fewer than 5 runs per method is refused, clearly" \
	sh -c '[ "$1" != 0 ] && grep -q "at least 5" "$2"' - "$status" "$scratch/few.log"
finish
