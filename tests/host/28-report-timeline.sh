#!/bin/bash
# stap-scripts/report-timeline, the picture of a bug report: the example
# SVG is what it makes of the example report (so a change to either shows
# here); the picture is well-formed XML, with a red band for each stall
# of the report's firmware timeline and a red dot for each failed
# completion of its last events; another report of the file is drawn on
# request; a report number the file does not have, a file with no report
# and a missing file are refused, saying why, with nothing on stdout.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tool=$project_dir/stap-scripts/report-timeline
examples=$project_dir/stap-scripts/examples
report=$examples/bugreport-stall.txt

"$tool" "$report" >"$scratch/last.svg"
check "the example timeline is what report-timeline makes of the example report" \
	cmp -s "$scratch/last.svg" "$examples/bugreport-stall-timeline.svg"
well_formed() { python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
check "... well-formed XML" well_formed "$scratch/last.svg"

# the_report N: the Nth report of the example, its lines
the_report() { awk -v n="$1" '$0 == "=== acme bug report v2 ===" { r++ } r == n' "$report"; }
reports=$(grep -cx '=== acme bug report v2 ===' "$report")
the_report "$reports" >"$scratch/last.txt"
stalls=$(grep -cE '^ +[0-9.]+ [a-z]+ -> stalled ' "$scratch/last.txt" || true)
red_bands=$(grep -c '<rect [^>]*fill="#d62728"><title>stalled</title>' "$scratch/last.svg" || true)
check "a red band for each of the last report's $stalls stalls ($red_bands)" same_positive_count "$red_bands" "$stalls"
failed=$(sed -n '/^--- last events/,/^--- /p' "$scratch/last.txt" | grep -c ' cmd\.complete .* status=[^o]' || true)
red_dots=$(grep -c '<circle [^>]*fill="#d62728"' "$scratch/last.svg" || true)
check "a red dot for each of its $failed failed completions ($red_dots)" same_positive_count "$red_dots" "$failed"
completions=$(sed -n '/^--- last events/,/^--- /p' "$scratch/last.txt" | grep -c ' cmd\.complete ' || true)
check "a dot for each of its $completions completions" \
	same_positive_count "$(grep -c '<circle ' "$scratch/last.svg")" "$completions"

"$tool" --report 1 "$report" >"$scratch/first.svg"
check "--report 1 draws the first report (its trigger in the title)" \
	grep -q "Report 1 (trigger: $(the_report 1 | sed -n 's/^trigger: \([^ ]*\).*/\1/p')," "$scratch/first.svg"

# refused STATUS OUT ERR PATTERN: exit 1, nothing on stdout, PATTERN on stderr
refused() { [ "$1" = 1 ] && [ ! -s "$2" ] && grep -q -- "$4" "$3"; }
status=0
"$tool" --report $((reports + 1)) "$report" >"$scratch/out" 2>"$scratch/err" || status=$?
check "--report $((reports + 1)) of a file of $reports: refused (exit $status)" \
	refused "$status" "$scratch/out" "$scratch/err" "has $reports report(s), not $((reports + 1))"
printf 'not a report\n' >"$scratch/none.txt"
status=0
"$tool" "$scratch/none.txt" >"$scratch/out" 2>"$scratch/err" || status=$?
check "a file with no report: refused (exit $status)" refused "$status" "$scratch/out" "$scratch/err" "no acme bug report"
status=0
"$tool" "$scratch/missing.txt" >"$scratch/out" 2>"$scratch/err" || status=$?
check "a missing file: refused (exit $status)" refused "$status" "$scratch/out" "$scratch/err" "cannot read"
status=0
"$tool" --report x "$report" >"$scratch/out" 2>"$scratch/err" || status=$?
check "--report x: refused (exit $status)" refused "$status" "$scratch/out" "$scratch/err" "needs a report number"
finish
