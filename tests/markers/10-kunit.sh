#!/bin/bash
# The KUnit suites "markers" (the marker core) and "markers_events" (the
# fields of marker trace events), run at boot in the guest; their KTAP
# results are parsed and every case reported.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

"$vm" run --append 'kunit.filter_glob=markers*' -- dmesg >"$scratch/dmesg" || true
# KTAP lines, without dmesg's time stamps.
sed -n 's/^\[ *[0-9.]*\] //p' "$scratch/dmesg" >"$scratch/ktap-all"

# suite NAME MIN: report the cases of suite NAME, at least MIN of them
suite() {
	local name=$1 min=$2 cases=0 plan result name_case
	sed -n "/# Subtest: $name\$/,/^ok [0-9]* $name\$\|^not ok [0-9]* $name\$/p" "$scratch/ktap-all" >"$scratch/ktap"
	sed "s/^/# /" "$scratch/ktap"
	# A skipped case ("ok N name # SKIP why") did not test anything
	# here: it counts as a failure.
	while read -r result _ name_case; do
		cases=$((cases + 1))
		case $result/$name_case in
		ok/*'# SKIP'*) not_ok "KUnit $name.$name_case" ;;
		ok/*) ok "KUnit $name.$name_case" ;;
		*) not_ok "KUnit $name.$name_case" ;;
		esac
	done < <(sed -n 's/^    \(ok\|not ok\) \([0-9]*\) \(.*\)$/\1 \2 \3/p' "$scratch/ktap" | sed 's/^not ok/not_ok/')
	check "the suite $name ran its cases ($cases, at least $min)" [ "$cases" -ge "$min" ]
	# Its own plan ("    1..N", first in the suite) says how many it has
	plan=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$scratch/ktap" | head -n 1)
	check "the suite $name reported every case of its plan ($cases of ${plan:-no plan})" [ "$cases" = "${plan:-none}" ]
	check "the suite $name as a whole passed" grep -qx "ok [0-9]* $name" "$scratch/ktap"
}
suite markers 21
suite markers_events 13
finish
