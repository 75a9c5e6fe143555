#!/bin/bash
# Two SystemTap sessions on the same markers at once: both connect to the
# same marker sites (the markers list shows 2 probes) and each sees every
# one of N events; after both end, the markers are off again.
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

"$vm" run --share "$share" --timeout 600 -- bash -c "$(guest_half concurrent)" concurrent "$commands" >"$scratch/out" 2>&1 || true
sed 's/^/# /' "$scratch/out"
section() { sed -n "/^== $1\$/,/^== /p" "$scratch/out"; }
check "while both run, acme_cmd_submit is on with 2 probes" eval 'section "list during" | grep -qP "\ton\t2\$"'
check "session one saw all $commands submits and completions" eval 'section one | grep -qx "submits=$commands completes=$commands"'
check "session two saw all $commands submits and completions" eval 'section two | grep -qx "submits=$commands completes=$commands"'
check "after both ended the marker is off with no probe" eval 'section "list after" | grep -qP "\toff\t0\$"'
check "the guest run finished" grep -qx '== done' "$scratch/out"
finish
