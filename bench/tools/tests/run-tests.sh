#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for benchstat.  Usage: tests/run-tests.sh [PATH/TO/benchstat]
# Prints TAP lines "ok N - ..." / "not ok N - ..." and a final
# "# N passed, N failed" line; exits non-zero if any test failed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/unit-tap.sh
. "$here/../../../tests/unit-tap.sh" benchstat "${1:-$here/../benchstat}"
NO_TARGETS=$W/none.targets
: >"$NO_TARGETS"

# has_line LINE: the last run exited 0 and printed LINE exactly.
has_line() {
	[ "$rc" -eq 0 ] && grep -qxF -- "$1" "$T/out"
}

# has_text REGEX: the last run exited 0 and stdout matches REGEX.
has_text() {
	[ "$rc" -eq 0 ] && grep -qE -- "$1" "$T/out"
}

# expect_bad NAME WHERE REGEX CMD...: exit 2, no stdout, and stderr is
# "benchstat: WHERE: ..." (WHERE is FILE:LINE) matching the extended REGEX.
expect_bad() {
	local name=$1 where=$2 re=$3 first
	shift 3
	run "$@"
	first=$(head -n 1 "$T/err")
	if [ "$rc" -ne 2 ]; then
		notok "$name" "expected exit status 2"
	elif [ -s "$T/out" ]; then
		notok "$name" "unexpected stdout"
	elif [ "${first#"benchstat: $where: "}" = "$first" ]; then
		notok "$name" "stderr does not start with 'benchstat: $where: '"
	elif ! grep -qE -- "$re" "$T/err"; then
		notok "$name" "stderr does not match /$re/"
	else
		ok "$name"
	fi
}

# bad_raw NAME LINE REGEX CONTENT: RAW_FILE with CONTENT is rejected at LINE.
bad_raw() {
	printf '%s' "$4" >"$W/bad.raw"
	expect_bad "$1" "$W/bad.raw:$2" "$3" "$bin" "$W/bad.raw" "$NO_TARGETS"
}

# bad_target NAME LINE REGEX CONTENT: TARGETS_FILE with CONTENT is rejected.
bad_target() {
	printf '%s' "$4" >"$W/bad.targets"
	expect_bad "$1" "$W/bad.targets:$2" "$3" \
		"$bin" "$here/verdicts.raw" "$W/bad.targets"
}

# verdict_of PAIR WANT: the verdict of the Targets row of PAIR (num/den)
# against WANT ("<= 1.10") in the last report, its wrapped lines joined by
# one blank.
verdict_of() {
	awk -v pair="$1" -v want="$2" '
		/^target +ratio / { col = index($0, "verdict"); next }
		row && length($0) >= col && substr($0, 1, col - 1) ~ /^ *$/ {
			v = v " " substr($0, col); next
		}
		row { exit }
		col && index($0, pair " ") == 1 && index($0, "  " want "  ") {
			row = 1; v = substr($0, col)
		}
		END { print v }' "$T/out"
}

# has_verdict PAIR WANT TEXT: the last run exited 0 and its report gives
# PAIR against WANT the verdict TEXT.
has_verdict() {
	[ "$rc" -eq 0 ] && [ "$(verdict_of "$1" "$2")" = "$3" ]
}

TAB=$'\t'
echo "# binary: $bin"

# ---- statistics -------------------------------------------------------
run "$bin" --tsv "$here/stats.raw" "$NO_TARGETS"
check "odd run count: median, min, max of ns/iter (10 10.5 11 12 13)" \
	has_line "method${TAB}baseline${TAB}5${TAB}11.000000${TAB}10.000000${TAB}13.000000${TAB}1.000000"
check "even run count: median is the mean of the middle two; ratio to baseline" \
	has_line "method${TAB}even${TAB}4${TAB}23.000000${TAB}20.000000${TAB}26.000000${TAB}2.090909"
check "single run: median = min = max, ratio below 1" \
	has_line "method${TAB}single${TAB}1${TAB}7.500000${TAB}7.500000${TAB}7.500000${TAB}0.681818"
check "labelled method without runs is listed with 0 runs" \
	has_line "method${TAB}skipped${TAB}0${TAB}-${TAB}-${TAB}-${TAB}-"
check "methods in order of first appearance" \
	test "$(cut -f2 "$T/out" | tr '\n' ' ')" = "baseline even single skipped "

run "$bin" "$here/stats.raw" "$NO_TARGETS"
baseline_row_then_label() {
	has_text '^baseline +5 +1000 +11\.00 +10\.00 +13\.00 +27\.3% +1\.000 +-$' &&
		grep -A1 '^baseline ' "$T/out" | grep -qx '    empty loop'
}
check "text report: baseline row with spread 27.3%, its label below" \
	baseline_row_then_label
check "text report: ratio with range in 'Ratios between methods'" \
	has_text '^even/baseline +2\.091 +- +1\.538-2\.600 +unpaired$'

sed 's/^baseline/base/; s/ baseline / base /' "$here/stats.raw" >"$W/nobase.raw"
run "$bin" --tsv "$W/nobase.raw" "$NO_TARGETS"
check "no baseline method: ratio to baseline is '-'" \
	has_line "method${TAB}even${TAB}4${TAB}23.000000${TAB}20.000000${TAB}26.000000${TAB}-"

# ---- verdicts ---------------------------------------------------------
run "$bin" --tsv "$here/verdicts.raw" "$here/verdicts.targets"
check "met, with the ratio exactly at the limit" \
	has_line "target${TAB}same${TAB}baseline${TAB}1.000000${TAB}1.000000${TAB}1.000000${TAB}<=${TAB}1${TAB}met${TAB}-${TAB}-${TAB}0"
check "met for >=" \
	has_line "target${TAB}slow${TAB}baseline${TAB}1.210000${TAB}1.210000${TAB}1.210000${TAB}>=${TAB}1.2${TAB}met${TAB}-${TAB}-${TAB}0"
check "too wide: range 0.90-1.15 straddles 1.10" \
	has_line "target${TAB}wide${TAB}baseline${TAB}1.000000${TAB}0.900000${TAB}1.150000${TAB}<=${TAB}1.10${TAB}too-wide${TAB}-${TAB}-${TAB}0"
check "not measured, numerator or denominator without runs" \
	test "$(grep -c "${TAB}not-measured${TAB}-${TAB}-${TAB}-\$" "$T/out")" -eq 2

run "$bin" "$here/verdicts.raw" "$here/verdicts.targets"
check "missed by 10.0% (1.21 against <= 1.10)" \
	has_text '^slow/baseline +1\.210 +- +1\.210-1\.210 +unpaired +<= 1\.10 +missed by 10\.0%$'
check "missed by 72.5% (0.826 against >= 3)" \
	has_text '^baseline/slow +0\.826 +- +0\.826-0\.826 +unpaired +>= 3 +missed by 72\.5%$'
too_wide_both_ways() {
	has_verdict wide/baseline "<= 1.10" "spread too wide to support (median meets it)" &&
		has_verdict wide-slow/baseline "<= 1.10" "spread too wide to support (median misses it)"
}
check "too wide, median meets it / median misses it" too_wide_both_ways
only_wide_mismatches() {
	has_text '^wide .* 2/3 MISMATCH$' && has_text '^slow .* 3/3$' &&
		[ "$(grep -c MISMATCH "$T/out")" -eq 1 ]
}
check "count mismatch flagged MISMATCH on that method only, exit 0" \
	only_wide_mismatches

# ---- pairing by round -------------------------------------------------
# rounds.raw explains every expected value.
run "$bin" --tsv "$here/rounds.raw" "$here/rounds.targets"
check "paired: every round meets <= 1.05 though the runs' extremes straddle it: met" \
	has_line "target${TAB}close${TAB}baseline${TAB}1.030000${TAB}1.030000${TAB}1.030000${TAB}<=${TAB}1.05${TAB}met${TAB}1.030000${TAB}1.030000${TAB}5"
check "paired: median, Q1, Q3 all above the target: missed" \
	has_line "target${TAB}far${TAB}baseline${TAB}1.200000${TAB}1.180000${TAB}1.220000${TAB}<=${TAB}1.10${TAB}missed${TAB}1.190000${TAB}1.210000${TAB}5"
check "paired, 6 rounds: median 1.15, min 0.9, max 1.4, Q1 1.025, Q3 1.275 (interpolated), too wide for <= 1.2" \
	has_line "target${TAB}num${TAB}den${TAB}1.150000${TAB}0.900000${TAB}1.400000${TAB}<=${TAB}1.2${TAB}too-wide${TAB}1.025000${TAB}1.275000${TAB}6"
check "paired: too wide for >= 1.2 as well (median misses, Q3 meets)" \
	has_line "target${TAB}num${TAB}den${TAB}1.150000${TAB}0.900000${TAB}1.400000${TAB}>=${TAB}1.2${TAB}too-wide${TAB}1.025000${TAB}1.275000${TAB}6"
check "paired: met when the middle half meets it, though the max does not" \
	has_line "target${TAB}num${TAB}den${TAB}1.150000${TAB}0.900000${TAB}1.400000${TAB}<=${TAB}1.3${TAB}met${TAB}1.025000${TAB}1.275000${TAB}6"
check "2 common rounds: unpaired, median/median and the runs' extremes, 0 pairs" \
	has_line "target${TAB}few${TAB}baseline${TAB}0.977273${TAB}0.769231${TAB}1.277778${TAB}<=${TAB}1.5${TAB}met${TAB}-${TAB}-${TAB}0"
check "x baseline is the paired median (1.20, not 130.9/110 = 1.19)" \
	has_line "method${TAB}far${TAB}5${TAB}130.900000${TAB}109.800000${TAB}157.300000${TAB}1.200000"
cp "$T/out" "$W/rounds.tsv"

# Exactly 3 common rounds: paired.  Ratios 1.3 1.0 1.1 (r3 r1 r2), sorted
# 1.0 1.1 1.3: Q1 = 1.0 + 0.5 * 0.1 = 1.05, median 1.1, Q3 = 1.1 + 0.5 * 0.2
# = 1.2.  2 of x's runs (rounds r5, r4) pair with nothing.
printf '%s\n' "unit tcg-ns" "run baseline 1 100 r1" "run x 1 100 r1" "run x 1 55 r2" \
	"run baseline 1 50 r2" "run baseline 1 10 r3" "run x 1 13 r3" \
	"run x 1 500 r5" "run x 1 7 r4" >"$W/three.raw"
echo "target x baseline <= 1.25 Q3 1.2 meets it, the max 1.3 does not" >"$W/three.targets"
run "$bin" --tsv "$W/three.raw" "$W/three.targets"
check "exactly 3 common rounds: paired; Q1 1.05, median 1.1, Q3 1.2 (met, max 1.3 aside)" \
	has_line "target${TAB}x${TAB}baseline${TAB}1.100000${TAB}1.000000${TAB}1.300000${TAB}<=${TAB}1.25${TAB}met${TAB}1.050000${TAB}1.200000${TAB}3"

run "$bin" "$here/rounds.raw" "$here/rounds.targets"
check "text report: a paired target row shows ratio, middle half, range, pairs, want, verdict" \
	has_text '^close/baseline +1\.030 +1\.030-1\.030 +1\.030-1\.030 +5 +<= 1\.05 +met$'
check "text report: an unpaired target row says so, with '-' as its middle half" \
	has_text '^few/baseline +0\.977 +- +0\.769-1\.278 +unpaired +<= 1\.5 +met$'
check "text report: paired and missed by 9.1% (median 1.20 against <= 1.10)" \
	has_verdict far/baseline "<= 1.10" "missed by 9.1%"
paired_too_wide_both_ways() {
	has_text '^num/den +1\.150 +1\.025-1\.275 +0\.900-1\.400 +6 +<= 1\.2 ' &&
		has_verdict num/den "<= 1.2" "spread too wide to support (median meets it)" &&
		has_verdict num/den ">= 1.2" "spread too wide to support (median misses it)" &&
		has_verdict num/den "<= 1.3" "met"
}
check "text report: paired too wide, median meets it / misses it; met by the middle half" \
	paired_too_wide_both_ways
ratios_section_paired() {
	has_text '^  paired .*ratio = median of the per-round ratios' &&
		has_text 'range = their min-max' &&
		has_text '^  unpaired: .*range = fastest/slowest run to slowest/fastest run$' &&
		has_text '^num/den +1\.150 +1\.025-1\.275 +0\.900-1\.400 +6$' &&
		has_text '^few/baseline +0\.977 +- +0\.769-1\.278 +unpaired$'
}
check "text report: the ratios section says what the range is, paired or not" \
	ratios_section_paired

# The same runs with baseline in a session of its own, as guest.sh runs
# the baseline apart from each tracer's methods: no round in common.
awk '$1 == "run" && $2 != "baseline" { $5 = "other-" $5 } 1' "$here/rounds.raw" >"$W/apart.raw"
run "$bin" --tsv "$W/apart.raw" "$here/rounds.targets"
check "the same runs in other sessions: unpaired, spread too wide (0.713-1.488 straddles 1.05)" \
	has_line "target${TAB}close${TAB}baseline${TAB}1.030000${TAB}0.713077${TAB}1.487778${TAB}<=${TAB}1.05${TAB}too-wide${TAB}-${TAB}-${TAB}0"
check "the same runs in other sessions: x baseline is median/median" \
	has_line "method${TAB}far${TAB}5${TAB}130.900000${TAB}109.800000${TAB}157.300000${TAB}1.190000"
same_method_figures() {
	[ "$rc" -eq 0 ] &&
		[ "$(grep '^method' "$T/out" | cut -f1-6)" = "$(grep '^method' "$W/rounds.tsv" | cut -f1-6)" ]
}
check "pairing changes no per-method figure (runs, median, min, max)" \
	same_method_figures
run "$bin" "$W/apart.raw" "$here/rounds.targets"
check "text report, the same runs in other sessions: unpaired, spread too wide (median meets it)" \
	has_verdict close/baseline "<= 1.05" "spread too wide to support (median meets it)"

# ---- malformed input: exit 2 and FILE:LINE ----------------------------
bad_raw "unknown keyword" 2 "unknown keyword 'bogus'" \
	$'run baseline 10 100 r1\nbogus baseline 10 100\n'
bad_raw "missing field" 1 "missing nanoseconds" $'run baseline 10\n'
bad_raw "non-numeric field" 1 "'12x' is not a whole number" \
	$'run baseline 10 12x\n'
bad_raw "negative number" 1 "not a whole number" $'run baseline 10 -5\n'
bad_raw "zero iterations" 1 "iterations must be at least 1" \
	$'run baseline 0 100\n'
bad_raw "overflowing nanoseconds (99999999999999999999999)" 1 "larger than" \
	$'run baseline 10 99999999999999999999999\n'
bad_raw "iterations above 10^12" 1 "iterations .* is larger than" \
	$'run baseline 1000000000001 5\n'
bad_raw "line of 5000 characters" 2 "line longer than 4096" \
	"$(printf 'run baseline 1 5 r1\nnote %05000d' 0)"
bad_raw "runs of one method with differing iteration counts" 3 \
	"baseline: 20 iterations, but its run on line 1 had 10" \
	$'run baseline 10 100 r1\nrun other 20 100 r1\nrun baseline 20 100 r2\n'
bad_raw "empty file" 1 "no 'run' line" ""
bad_raw "file without a run line" 2 "no 'run' line" \
	$'# nothing measured\nlabel baseline empty loop\n'
bad_raw "method name with capitals" 1 "'Baseline' is not 1-40 characters" \
	$'run Baseline 10 100\n'
bad_raw "run without its round" 2 "missing round" \
	$'unit ns\nrun baseline 10 100\n'
bad_raw "extra field after the round" 1 "unexpected field '7'" \
	$'run baseline 10 100 r1 7\n'
bad_raw "second run of a method in one round, named with the first's line" 4 \
	"second run of nop5 in round r-2 \\(first on line 2\\)" \
	$'run baseline 10 100 r-2\nrun nop5 10 100 r-2\nrun baseline 10 100 r-3\nrun nop5 10 100 r-2\n'
for i in $(seq 300); do
	echo "run baseline 10 100 r-$i"
	echo "run nop5 10 100 r-$i"
done >"$W/many-rounds.raw"
echo "run nop5 10 100 r-77" >>"$W/many-rounds.raw"
expect_bad "300 rounds, then a second run in round r-77: found by name" \
	"$W/many-rounds.raw:601" "second run of nop5 in round r-77 \\(first on line 154\\)" \
	"$bin" "$W/many-rounds.raw" "$NO_TARGETS"
bad_raw "round name with capitals" 2 "round 'Round1' is not 1-40 characters" \
	$'run baseline 10 100 r1\nrun baseline 10 100 Round1\n'
bad_raw "round name of 41 characters" 1 "round '.*' is not 1-40 characters" \
	"run baseline 10 100 $(printf 'r%040d' 0)"
bad_raw "round name with a dot" 1 "round 'r\\.1' is not 1-40 characters" \
	$'run baseline 10 100 r.1\n'
bad_raw "second count line for a method" 3 "second count for baseline" \
	$'run baseline 10 100 r1\ncount baseline 10 10\ncount baseline 10 9\n'
printf 'run baseline 10 100 r1\nrun baseline 10 1\0000 r2\n' >"$W/nul.raw"
expect_bad "NUL byte inside a line" "$W/nul.raw:2" "control character 0x00" \
	"$bin" "$W/nul.raw" "$NO_TARGETS"

garbage_ok=yes
for i in 1 2 3 4 5 6 7 8 9 10; do
	head -c 2000 /dev/urandom >"$W/garbage.raw"
	run "$bin" "$W/garbage.raw" "$NO_TARGETS"
	if [ "$rc" -ne 2 ] ||
		! grep -qE "^benchstat: $W/garbage.raw:[0-9]+: " "$T/err"; then
		garbage_ok=no
		cp "$W/garbage.raw" "$T/garbage-$i.raw"
		break
	fi
done
check "10 files of random bytes: exit 2 with FILE:LINE, no crash" \
	test "$garbage_ok" = yes

bad_target "target with an unknown operator" 2 "operator '<' is not <=, >= or ~" \
	$'# c\ntarget same baseline < 1 x\n'
bad_target "target value that is not a plain decimal" 1 "'1e3' is not a decimal" \
	$'target same baseline <= 1e3 x\n'
bad_target "target without its description" 1 "missing target description" \
	$'target same baseline <= 1.5\n'
expect_bad "missing input file" "$W/absent.raw" "No such file" \
	"$bin" "$W/absent.raw" "$NO_TARGETS"

bad_raw "a CR before the newline: a control character" 1 "control character 0x0d" \
	$'unit ns\r\nrun baseline 10 100 r1\n'

# ---- accepted edge cases ----------------------------------------------
{
	printf 'unit ns\nrun baseline 10 100 r1\n'
	printf 'note %04091d\n' 0
} >"$W/edge.raw"
run "$bin" "$W/edge.raw" "$NO_TARGETS"
check "a line of exactly 4096 bytes is accepted" \
	has_text '^0{4091}$'

# ---- the sample and the chart -----------------------------------------
run "$bin" "$here/sample.raw" "$here/sample.targets"
sample_report() {
	[ "$rc" -eq 0 ] && [ "$(grep -cE '^[a-z0-9-]+ +5 +1000000 ' "$T/out")" -eq 14 ] &&
		[ "$(awk 'length > 110' "$T/out" | wc -l)" -eq 0 ] &&
		! grep -q ' $' "$T/out" &&
		has_text '^marker-probe/tracepoint-probe +[0-9.]+ +[0-9.]+-[0-9.]+ +[0-9.]+-[0-9.]+ +5 +<= 1\.10 ' &&
		has_text '^stap-mark/baseline +[0-9.]+ +- +[0-9.]+-[0-9.]+ +unpaired$' &&
		has_text '^lttng-marker/baseline +- +- +- +- +<= 2 +not measured'
}
check "sample report: 14 methods, paired rows within a session, unpaired across; no line wider than 110 or ending in a blank" \
	sample_report

mkdir "$W/tmp"
run env TMPDIR="$W/tmp" "$bin" --svg "$W/chart.svg" \
	"$here/sample.raw" "$here/sample.targets"
check "--svg writes an SVG naming every method" \
	test "$rc" -eq 0 -a -s "$W/chart.svg" -a \
	"$(head -c 5 "$W/chart.svg")" = "<?xml" -a \
	"$(grep -coE '>(baseline|nop5|marker-off|tracepoint-off|marker-probe|tracepoint-probe|stap-mark|stap-trace|stap-kprobe|bpftrace-marker|bpftrace-tracepoint|bpftrace-kprobe|perf-marker|perf-tracepoint)<' "$W/chart.svg")" -eq 14
unit_title_and_no_leftovers() {
	grep -q 'Markers benchmark (QEMU TCG): ns per iteration' "$W/chart.svg" &&
		[ -z "$(ls -A "$W/tmp")" ]
}
check "--svg titles the chart by the unit and leaves no temporary files" \
	unit_title_and_no_leftovers

mkdir "$W/bin"
printf '#!/bin/sh\necho "gnuplot: broken" >&2\nexit 3\n' >"$W/bin/gnuplot"
chmod +x "$W/bin/gnuplot"
run env PATH="$W/bin:$PATH" TMPDIR="$W/tmp" "$bin" --svg "$W/broken.svg" \
	"$here/sample.raw" "$here/sample.targets"
failed_cleanly() {
	[ "$rc" -eq 1 ] && [ ! -e "$W/broken.svg" ] && [ -z "$(ls -A "$W/tmp")" ] &&
		grep -q 'gnuplot failed' "$T/err"
}
check "failing gnuplot: exit 1, says so, removes the partial chart" \
	failed_cleanly


# ---- difference targets (~) ------------------------------------------
run "$bin" --tsv "$here/rounds.raw" "$here/rounds.targets"
check "~: the paired differences' median, quartiles and range, within 4: met" \
	has_line "target${TAB}close${TAB}baseline${TAB}3.300000${TAB}2.700000${TAB}3.900000${TAB}~${TAB}4${TAB}met${TAB}3.000000${TAB}3.600000${TAB}5"
check "~: a difference of 3.3 against 1: missed" \
	has_line "target${TAB}close${TAB}baseline${TAB}3.300000${TAB}2.700000${TAB}3.900000${TAB}~${TAB}1${TAB}missed${TAB}3.000000${TAB}3.600000${TAB}5"
run "$bin" "$here/rounds.raw" "$here/rounds.targets"
difference_row() {
	has_text '^close/baseline +\+3\.300 +\+3\.000\.\.\+3\.600 .* ~ 1 ' &&
		has_verdict close/baseline "~ 1" "missed: +3.30 instructions per iteration"
}
check "~ in the report: signed differences, the miss in the unit" difference_row

# ---- the unit ---------------------------------------------------------
run "$bin" "$here/rounds.raw" "$NO_TARGETS"
check "unit instructions: the report says what was counted" \
	has_text '^Markers benchmark: instructions per loop iteration \(QEMU -icount'
run "$bin" "$here/stats.raw" "$NO_TARGETS"
check "unit tcg-ns: TCG's emulated ns, ratios only" \
	has_text '^Markers benchmark: ns per loop iteration \(QEMU TCG: only ratios'
printf 'unit ns\nrun baseline 10 100 r1\n' >"$W/unit.raw"
run "$bin" "$W/unit.raw" "$NO_TARGETS"
check "unit ns: hardware, absolute times" \
	has_text '^Markers benchmark: ns per loop iteration \(hardware virtualization'
bad_raw "no unit line" 2 "no 'unit' line" $'# a comment\nrun baseline 10 100 r1\n'
bad_raw "an unknown unit" 1 "unit 'cycles' is not instructions, tcg-ns or ns" $'unit cycles\nrun baseline 10 100\n'
bad_raw "a second unit line" 2 "second unit line \\(the first is line 1\\)" $'unit ns\nunit ns\nrun baseline 10 100\n'

tap_end
