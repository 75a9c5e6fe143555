#!/bin/bash
# The KUnit suite "markers", run at boot in the guest; its KTAP result is
# parsed and every case reported.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

"$vm" run --append kunit.filter_glob=markers -- dmesg >"$scratch/dmesg" || true
# KTAP lines, without dmesg's time stamps.
sed -n 's/^\[ *[0-9.]*\] //p' "$scratch/dmesg" | sed -n '/# Subtest: markers$/,/^ok [0-9]* markers$\|^not ok [0-9]* markers$/p' >"$scratch/ktap"
sed "s/^/# /" "$scratch/ktap"
cases=0
# A skipped case ("ok N name # SKIP why") did not test anything here: it
# counts as a failure.
while read -r result _ name; do
	cases=$((cases + 1))
	case $result/$name in
	ok/*'# SKIP'*) not_ok "KUnit markers.$name" ;;
	ok/*) ok "KUnit markers.$name" ;;
	*) not_ok "KUnit markers.$name" ;;
	esac
done < <(sed -n 's/^    \(ok\|not ok\) \([0-9]*\) \(.*\)$/\1 \2 \3/p' "$scratch/ktap" | sed 's/^not ok/not_ok/')
check "the suite ran its cases ($cases, at least 20)" [ "$cases" -ge 20 ]
check "the suite as a whole passed" grep -qx 'ok [0-9]* markers' "$scratch/ktap"
finish
