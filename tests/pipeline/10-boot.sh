#!/bin/bash
# The guest boots our kernel, with our release and local version, and has
# the build tree where stap and modules expect it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# shellcheck disable=SC2016 # expanded by the guest's shell
out=$("$vm" run -- sh -c 'uname -r; readlink -f /lib/modules/$(uname -r)/build; test -r /lib/modules/$(uname -r)/build/Makefile && echo tree-readable; touch /lib/modules/$(uname -r)/build/x 2>/dev/null || echo tree-read-only')
printf '%s\n' "$out"
guest_release=$(printf '%s\n' "$out" | sed -n 1p)
check "guest runs our kernel release ($release)" [ "$guest_release" = "$release" ]
is_our_release() { [[ $1 == 6.1.*-markers ]]; }
check "release carries our local version -markers" is_our_release "$guest_release"
check "build tree at its host path and as the modules build link" [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$kbuild" ]
check "build tree readable in the guest" grep -qx tree-readable <<<"$out"
check "build tree read-only in the guest" grep -qx tree-read-only <<<"$out"
finish
