#!/bin/bash
# make bench keeps working: bench/run --quick does every step of the
# benchmark (module, SystemTap sessions, one guest boot with every method
# and tracer, boot and tracer timings) with a tiny loop, and its results
# parse: every method measured, every tracer counted every iteration,
# every target given a verdict, the chart drawn. The figures themselves
# are not judged here (make bench does), but that they are instruction
# counts is: two runs of one loop agree within 1 % under -icount, where
# under plain TCG they differ by up to half.
# shellcheck disable=SC2016 # the $ in awk and sh -c scripts are theirs
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

results=$scratch/results
status=0
markers_before=$(sha256sum <"$kbuild/Module.markers")
bench/run --quick --out "$results" >"$scratch/run.log" 2>&1 || status=$?
check "bench/run --quick ends well (status $status)" [ "$status" = 0 ]
check "... and leaves the kernel tree's Module.markers as it was (other tests compile against it)" \
	[ "$(sha256sum <"$kbuild/Module.markers")" = "$markers_before" ]
check "... which never lists the bench module's markers" lacks '^bench_' "$kbuild/Module.markers"
[ -s "$results/latest.txt" ] || { tail -n 40 "$scratch/run.log"; die "no table in $results/latest.txt"; }
sed 's/^/# /' "$results/latest.txt"
guest_log=build/bench-quick/guest.log

bench/tools/benchstat --tsv "$results/latest.raw" bench/targets >"$scratch/tsv" ||
	die "benchstat cannot read the results it was given"
methods="baseline nop5 marker-off tracepoint-off marker-probe tracepoint-probe
	callee callee-marker-off callee-tracepoint-off stap-mark stap-trace stap-kprobe bpftrace-marker bpftrace-tracepoint bpftrace-kprobe
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
check "the figures are instructions (QEMU -icount), the first table says so" \
	sh -c 'grep -qx "unit instructions" "$1" && head -n 1 "$2" | grep -q "instructions per loop iteration (QEMU -icount"' \
	- "$results/latest.raw" "$results/latest.txt"
check "the second table, from a TCG boot, says only ratios are claimed" \
	sh -c 'grep -qx "unit tcg-ns" "$1" && grep -q "only ratios are claimed" "$2"' - "$results/latest-tcg.raw" "$results/latest.txt"
# "two runs of LOOP, 100000 iterations each, the least of 3: A and B, X % apart"
for loop in baseline marker marker-probe tracepoint-probe; do
	check "instruction counts are deterministic: two runs of $loop agree within 1 %" \
		awk -v l="$loop" '$1 == "note" && $2 == "two" && $5 == l "," { n++; if ($(NF - 2) + 0 > 1) bad = 1 }
			END { exit bad || n != 1 }' "$results/latest.raw"
done
check "the off-site targets are judged as differences in instructions" \
	awk -F'\t' '$1 == "target" && $7 == "~" { n++ } END { exit n != 2 }' "$scratch/tsv"
check "the chart is an SVG naming the methods" \
	sh -c 'head -c 200 "$1" | grep -q "<?xml\|<svg" && grep -q marker-probe "$1"' - "$results/latest.svg"
# disassembly FN: the instructions of FN in the results' notes, one
# mnemonic and its operands per line (continuation lines of long
# encodings dropped)
disassembly() {
	awk -v head="disassembly of $1 (" '
		index($0, head) == 1 { p = 1; next }
		/^disassembly of |^where the time|^arguments of/ { p = 0 }
		p && index($0, "\t") { sub(/^[^\t]*\t/, ""); print }' "$results/latest.txt"
}
# A site's NOP is one with an instruction after it: the padding NOPs at
# the end of a function are followed by nothing but NOPs.
site_nop() {
	disassembly "$1" | awk '/^(xchg +%ax,%ax|nop|data16 cs nopw)/ { nop = 1; next } nop { found = 1 } END { exit !found }'
}
check "the results show the marker's call site: a NOP inside the loop, not the padding" site_nop bench_loop_marker
check "... and the off tracepoint's, the same" site_nop bench_loop_tracepoint
no_site_nop() { ! site_nop "$1"; }
check "... which the baseline loop has not" no_site_nop bench_loop_baseline
for t in stap-compile-cold stap-compile-cached boot-wall boot-uptime; do
	check "timing recorded: $t" grep -q "^time $t [0-9]" "$results/latest.raw"
done
# Taken in the TCG boot: under -icount the guest's seconds are instructions
for t in bpftrace-startup stap-exit; do
	check "timing recorded in the TCG boot: $t" \
		sh -c '! grep -q "^time $2 " "$1" && grep -q "^time $2 [0-9]" "$3"' - \
		"$results/latest.raw" "$t" "$results/latest-tcg.raw"
done
# A profile is its heading and at least one "N% [k|.] symbol" line
for m in $methods; do
	check "where the time of $m goes (a profile with samples)" \
		awk -v head="where the time of $m goes" '
			index($0, head) == 1 { p = 1; next }
			p && /^ *[0-9.]+% \[[k.]\] / { found = 1 }
			p && !/^ *[0-9.]+% / { p = 0 }
			END { exit !found }' "$results/latest.txt"
done
# perf names the functions of the bench module and of the SystemTap
# sessions (they load from /lib/modules); a bare address is a module
# perf could not find. (Some rows' few samples miss the modules: the
# check is over all profiles.)
check "profiles name module functions (bench_loop_tracepoint seen), no bare kernel addresses" \
	sh -c 'grep -q "^note .*% \[k\] bench_loop_" "$1" && ! grep -q "^note .*% \[k\] 0x" "$1"' - "$results/latest.raw"

check "every run names its round (the ratios are paired)" \
	awk '$1 == "run" { n++; if (NF != 5) bad = 1 } END { exit bad || !n }' "$results/latest.raw"
iterations=$(awk '$1 == "run" && $2 == "baseline" { print $3; exit }' "$results/latest.raw")
check "an off marker evaluates none of its arguments" \
	grep -q "arguments of a marker that is off: evaluated 0 times in $iterations iterations" "$results/latest.txt"
check "... which it does with a probe connected" \
	grep -q "the same marker with an empty probe: evaluated $iterations times in $iterations iterations" "$results/latest.txt"
check "every timed run stayed on the one CPU the loops are pinned to" \
	sh -c 'grep -q "every timed run ran on CPU 1 alone" "$1" && ! grep -q "^bench: .* ran on CPU" "$2"' - "$results/latest.txt" "$guest_log"
# The argument's call comes after the loop's back edge (jne): out of
# line, on the branch the site's NOP becomes when the marker is on
argument_behind_nop() {
	site_nop bench_loop_marker_args &&
		disassembly bench_loop_marker_args |
		awk '/^jne / { back = 1 } /call +<bench_argument>/ { found = back } END { exit !found }'
}
check "the results show where the marker's argument is computed: behind the NOP, out of the loop" \
	argument_behind_nop
check "the bench module refuses every bad input" \
	sh -c '[ "$(grep -c "^bench: refused bad input" "$1")" = 8 ] && ! grep -q "^bench: accepted" "$1"' - "$guest_log"
status=0
BENCH_RUNS=3 bench/run --quick --out "$scratch/few" >"$scratch/few.log" 2>&1 || status=$?
check "fewer than 5 runs per method is refused, clearly" \
	sh -c '[ "$1" != 0 ] && grep -q "at least 5" "$2"' - "$status" "$scratch/few.log"
finish
