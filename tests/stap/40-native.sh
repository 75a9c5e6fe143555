#!/bin/bash
# One script compiled natively, by stap inside the guest (against the
# tree it sees at /lib/modules/$(uname -r)/build), through
# stap-scripts/run --native: markers-all, core and vendor markers with
# their modules, the vendor module reloaded under it. One compile proves
# the native path; every script runs cross-compiled in
# tests/stap/10-scripts.sh, and tests/markers/40 has the guest's stap
# resolve the Acme tapset installed in the image. The guest starts with
# stap's kernel feature probes (its stapconf header) run on the host in
# its own root, as a machine has them after its first compile (see
# stap-scripts/run): 3 minutes under TCG instead of 13, of which the
# probes were 10. Should the header stop matching the guest's, the
# guest's stap runs the probes itself: the script still compiles, slowly,
# and the check that the guest used the host's header fails.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

run=$project_dir/stap-scripts/run
status=0
"$run" --native "$project_dir/stap-scripts/markers-all.stp" -- \
	'acmectl run --count 40 >/dev/null; rmmod acme_xa; modprobe acme_xa' >"$scratch/all.out" 2>"$scratch/all.err" || status=$?
sed 's/^/# /' "$scratch/all.out"
check "markers-all compiled and ran natively (exit $status)" [ "$status" = 0 ]
[ "$status" = 0 ] || tail -n 30 "$scratch/all.err" | sed 's/^/# /'
check "native markers-all: acme_cmd_submit under acme_xa, 40 hits" \
	grep -Eq '^acme_xa +40  acme_cmd_submit +id %u opcode %u len %u depth %u$' "$scratch/all.out"
check "native markers-all: the core module_load marker under vmlinux" \
	grep -Eq '^vmlinux +1  module_load +name %s taints %#lx$' "$scratch/all.out"
check "the guest's stap used the stapconf header made on the host for its tree (no probes in the guest)" \
	grep -qx "run: the guest's stap took its stapconf header from the host's probes" "$scratch/all.out"

finish
