#!/bin/bash
# The markers' own ftracetest cases (tests/ftrace/markers/*.tc) in the
# guest, under slab poisoning and red zones (slub_debug=FZP), so that
# memory used after it was freed shows on the console of a plain kernel
# too: the hist variable of a marker event read from another event while
# its module unloads, triggers under deny, an enable that fails, every
# printk conversion, a twin whose exit() fires the shared event as its
# owner unloads, a twin that loads as its owner goes, a kprobe event that
# has a marker's event name first, a field variable of a marker event whose
# hidden trigger goes before the trigger that reads it. The guest checks the
# results itself and prints KTAP (tests/events/guest/ftracetest.sh, the
# runner of the kernel's own cases); checkbashisms checks the cases and
# the selftest the series adds. Any kernel report fails it.
# timeout: 1200
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_stall.ko" ] || die "no test modules; run tests/modules/build"
share=$scratch/share
mkdir -p "$share/modules"
cp -r tests/ftrace/markers "$share/markers"
cp tests/ftrace/expected "$share/expected"
cp "$mods"/*.ko "$share/modules/"

guest_status=0
"$vm" run --share "$share" --timeout 1000 --append "slub_debug=FZP" -- \
	bash -c "$(guest_half ftracetest)" ftracetest "$kbuild" markers \
	>"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran the markers' cases to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
