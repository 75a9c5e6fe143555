#!/bin/bash
# stap compiles and runs a module inside the guest, against the build tree
# the guest sees read-only at /lib/modules/$(uname -r)/build.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

out=$("$vm" run --timeout 900 -- stap -e 'probe begin { printf("native stap on %s\n", kernel_v()) } probe begin { exit() }' 2>&1) || true
printf '%s\n' "$out"
check "stap -e compiled and ran natively in the guest" grep -q "^native stap on" <<<"$out"
finish
