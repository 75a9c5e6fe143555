#!/bin/bash
# The kernel's own ftrace selftests (tools/testing/selftests/ftrace of the
# tree we boot: ftracetest, every case of test.d, with the one the series
# adds) in the guest, with the Acme driver installed. The guest checks the
# results itself and prints KTAP (tests/events/guest/ftracetest.sh); a
# case that does not pass is skipped only where tests/ftrace/expected says
# what it reports and why. Any kernel report fails it. The markers' own
# cases run in tests/events/61-markers-ftracetest.sh.
# timeout: 2400
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

share=$scratch/share
mkdir -p "$share"
cp tests/ftrace/expected "$share/expected"

guest_status=0
"$vm" run --share "$share" --timeout 2100 -- bash -c "$(guest_half ftracetest)" ftracetest "$kbuild" stock \
	>"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran ftracetest to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
