#!/bin/bash
# A %s argument is read once (issue 23, bug 10): markers_events fires
# test_ev_race ("s %s") while a timer interrupt on the same CPU keeps
# rewriting the string, a short text and a long one in turn. A record
# holds one reading of the string: its __data_loc length is that of the
# text it holds, and no byte of the other text follows the NUL. (Read
# once for its length and again for its bytes, a string that changed in
# between left the long text's length around the short text.) perf's raw
# samples show each record byte by byte. The guest checks itself and
# prints KTAP (tests/events/guest/strings-once.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_events.ko" ] || die "no test modules; run tests/modules/build"
firings=20000

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- env FIRINGS=$firings RAW_SAMPLES_AWK="$project_dir/tests/events/perf-raw-samples.awk" bash -c "$(guest_half strings-once)" strings-once >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
# The guest's tally of the records, as this run's figure
tally=$(sed -n 's/^tally: //p' "$scratch/out" | head -n 1)
[ -z "$tally" ] || figure "strings: $tally"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
