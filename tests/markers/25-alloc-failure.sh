#!/bin/bash
# Every slab allocation of marker_probe_register() and
# marker_probe_unregister() failed in turn (fault injection's fail-nth,
# armed by the GPL test module around the call): a registration that
# fails with -ENOMEM changes nothing (the listing stays as it was), the
# next one works, and an unregistration that cannot allocate still takes
# the probe away. How many allocations a registration makes is found, not
# assumed: on the debug kernel, debugobjects' pool refills are slab
# allocations of the same task and take some of the counted turns.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"

"$vm" run --rodir "/mnt/host=$mods" -- bash -c "$(guest_half alloc-failure)" alloc-failure >"$scratch/out" 2>&1 || true
cat "$scratch/out"
o=$scratch/out
check "before: the marker is listed off, no probe" grep -qx 'before: listed off 0' "$o"
# first_ok PARAM: the N at which the registration first went through
first_ok() { sed -n "s/^$1 nth=\([0-9]*\): ok; .*/\1/p" "$o" | head -n 1; }
n_ok=$(first_ok attach)
check "a first registration goes through once its allocations are left alone (at fail-nth ${n_ok:-never})" \
	test "${n_ok:-0}" -ge 2
for n in $(seq 1 $((${n_ok:-2} - 1))); do
	check "allocation $n of $((${n_ok:-2} - 1)) of a first registration fails: -ENOMEM, nothing changes" \
		grep -qx "attach nth=$n: Cannot allocate memory; listed off 0" "$o"
done
check "with enough memory it registers and connects" grep -qx "attach nth=${n_ok:-0}: ok; listed on 1" "$o"
check "... and counts every hit" grep -qx 'hits after attach: 2' "$o"
n_ok_b=$(first_ok attach_b)
check "a second probe whose array cannot be allocated: -ENOMEM, the first stays" \
	grep -qx 'attach_b nth=1: Cannot allocate memory; listed on 1' "$o"
check "... and then registers (at fail-nth ${n_ok_b:-never})" grep -qx "attach_b nth=${n_ok_b:-0}: ok; listed on 2" "$o"
check "both probes count" grep -qx 'hits: 5 3' "$o"
check "an unregistration that cannot allocate still succeeds" grep -qx 'detach_b nth=1: ok; listed on 1' "$o"
check "... its probe gets no more hits, the other one does" grep -qx 'hits after detach_b: 9 3' "$o"
check "the last probe goes without allocating: the marker is off" grep -qx 'detach nth=1: ok; listed off 0' "$o"
check "... and gets no hits" grep -qx 'hits after detach: 9 3' "$o"
check "a later registration works" grep -qx 'attach_b nth=0: ok; listed on 1' "$o"
check "... and counts" grep -qx 'hits at the end: 9 4' "$o"
check "the modules unload cleanly" grep -qx 'after unload: 0' "$o"
injected=$(grep -cE '^(attach|attach_b|detach|detach_b) nth=[1-9][0-9]*: ' "$o" || true)
refused=$(grep -cE '^(attach|attach_b) nth=[1-9][0-9]*: Cannot allocate memory; ' "$o" || true)
figure "failslab: $injected (un)registrations with fail-nth armed: $refused refused with -ENOMEM, listing unchanged; $((injected - refused)) went through (fewer allocations than N, or an unregistration that needs none)"
finish
