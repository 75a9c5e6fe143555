#!/bin/bash
# Two SystemTap sessions on the same markers at once: both connect to the
# same marker sites (the markers list shows 2 probes) and each sees every
# one of N events; after both end, the markers are off again. The guest
# checks itself and prints KTAP (guest/concurrent.sh); the sessions are
# compiled on the host.
# shellcheck disable=SC2016 # $name, $format are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

commands=700
share=$scratch/share
mkdir -p "$share"
for s in one two; do
	cat >"$share/count_$s.stp" <<'STP'
global submits, completes
probe acme.cmd.submit { submits++ }
probe acme.cmd.complete { completes++ }
probe end { printf("submits=%d completes=%d\n", submits, completes) }
STP
	(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -I "$project_dir/stap-scripts/tapset" -m "count_$s" "count_$s.stp") \
		>"$scratch/compile_$s.log" 2>&1 || true
	check "session $s compiles" test -s "$share/count_$s.ko"
done

guest_status=0
"$vm" run --share "$share" --timeout 600 -- bash -c "$(guest_half concurrent)" concurrent "$commands" >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
