#!/bin/bash
# The kernel's own ftrace selftests (tools/testing/selftests/ftrace of the
# tree we boot: ftracetest, every case of test.d) in the guest, with the
# markers' own cases in the same form (tests/ftrace/markers/*.tc: the hist
# variable of a marker event read from another event, triggers under deny,
# an enable that fails, every printk conversion) and the Acme driver
# installed. The guest checks the results itself and prints KTAP
# (tests/events/guest/ftracetest.sh); a case that does not pass is skipped
# only where tests/ftrace/expected says what it reports and why. Any kernel
# report fails it.
# timeout: 2400
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_conv.ko" ] || die "no test modules; run tests/modules/build"
share=$scratch/share
mkdir -p "$share/modules"
cp -r tests/ftrace/markers "$share/markers"
cp tests/ftrace/expected "$share/expected"
cp "$mods"/*.ko "$share/modules/"

guest_status=0
"$vm" run --share "$share" --timeout 2100 -- bash -c "$(guest_half ftracetest)" ftracetest "$kbuild" \
	>"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran ftracetest to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
