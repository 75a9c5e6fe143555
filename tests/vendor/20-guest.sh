#!/bin/bash
# The vendor driver in the guest, from the drop only: modprobe of the
# installed module, taint P+O, markers listed connectable, workloads,
# acmectl bad-input (64- and 32-bit), resets under load, unloading while
# busy, 20 load/unload cycles, module parameter checks, the deterministic
# stall/timeout/retry/reset sequence twice, the failed state, the markers
# policy and the force-loaded twin. See vendor-module/tests/guest/.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# On the debug kernel: the GPL build of the same source (lockdep)
if [ "${KM_FLAVOUR:-main}" = debug ]; then
	"$project_dir/vendor-module/tests/guest-tests" --debug-kernel "$kbuild"
else
	"$project_dir/vendor-module/tests/guest-tests"
fi
