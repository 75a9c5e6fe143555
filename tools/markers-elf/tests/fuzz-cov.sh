#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run a libFuzzer binary for a fixed time and summarize.
#   tests/fuzz-cov.sh FUZZER DIR SECONDS [LIBFUZZER-OPTION...]
# DIR holds seeds/ (read), corpus/ (grown) and artifacts/ (findings); the
# fuzzer's output goes to DIR/fuzz.log.  Prints one line
#   fuzz-cov: N execs, E edges, F features, U corpus units, C crashes in S s
# and exits 1 if the fuzzer found anything (crash, sanitizer report, leak,
# timeout, out-of-memory) or ran no input at all.
set -eu

if [ $# -lt 3 ]; then
	echo "usage: $0 FUZZER DIR SECONDS [LIBFUZZER-OPTION...]" >&2
	exit 2
fi
fuzzer=$1 dir=$2 seconds=$3
shift 3
log=$dir/fuzz.log
mkdir -p "$dir/corpus" "$dir/artifacts"

start=$(date +%s)
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
	"$fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
	-max_len=65536 -artifact_prefix="$dir/artifacts/" "$@" \
	"$dir/corpus" "$dir/seeds" >"$log" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))

# Executions: the final stats, or the last status line after a crash.
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [ -z "$execs" ]; then
	execs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
fi
execs=${execs:-0}
# Edges covered (libFuzzer's "cov:", PC guards hit) and features ("ft:").
edges=$(grep -oE ' cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
features=$(grep -oE ' ft: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
units=$(find "$dir/corpus" -type f | wc -l)
findings=$(find "$dir/artifacts" -type f | wc -l)
# A non-zero exit without an artifact is a finding too (the fuzzer died).
crashes=$findings
if [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ]; then
	crashes=1
fi

echo "fuzz-cov: ${execs} execs, ${edges:-0} edges, ${features:-0} features," \
	"${units} corpus units, ${crashes} crashes in ${took} s"
if [ "$crashes" -ne 0 ]; then
	echo "fuzz-cov: FOUND (exit status $rc), from $log:"
	grep -E -A 40 '^==[0-9]+==ERROR|runtime error:|^SUMMARY|ALARM|out-of-memory|deadly signal' "$log" | head -n 60
	find "$dir/artifacts" -type f | sed 's/^/fuzz-cov: input: /'
	exit 1
fi
if [ "$execs" -le 0 ]; then
	echo "fuzz-cov: no input was executed; see $log"
	tail -n 20 "$log"
	exit 1
fi
