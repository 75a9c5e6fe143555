#!/bin/bash
# Two of the scripts compiled natively, by stap inside the guest (against
# the tree it sees at /lib/modules/$(uname -r)/build and the tapset
# installed in the image), through stap-scripts/run --native: markers-all
# (core and vendor markers with their modules) and acme-errors (the stall
# at its configured point). Minutes each under TCG.
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

status=0
"$run" --native --params 'stall_after_wraps=2 cmd_timeout_ms=50 max_retries=2 reset_after_failures=2' \
	"$project_dir/stap-scripts/acme-errors.stp" -- acmectl run --count 300 >"$scratch/errors.out" 2>"$scratch/errors.err" || status=$?
sed 's/^/# /' "$scratch/errors.out" | tail -n 20
check "acme-errors compiled and ran natively (exit $status)" [ "$status" = 0 ]
[ "$status" = 0 ] || tail -n 30 "$scratch/errors.err" | sed 's/^/# /'
check "native acme-errors: failed ids 129,130,259,260" grep -qx 'failed_ids 129,130,259,260' "$scratch/errors.out"
check "native acme-errors: the stall of command 129" grep -Eq ' fw\.stall +id=129 ' "$scratch/errors.out"
finish
