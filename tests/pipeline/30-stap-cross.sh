#!/bin/bash
# A SystemTap module compiled on the host (in the build root, against our
# tree) runs in the guest under staprun and prints what it should.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$scratch"
"$vm" chroot -- stap -r "$kbuild" -p4 -m stap_pipeline_cross \
	-e 'probe begin { printf("cross-compiled stap in %s\n", execname()); exit() }' >/dev/null
check "stap -r build/linux -p4 made a module" [ -s stap_pipeline_cross.ko ]
out=$("$vm" run --share "$scratch" -- staprun /mnt/host/stap_pipeline_cross.ko)
printf '%s\n' "$out"
check "staprun in the guest prints the probe's output" grep -qx 'cross-compiled stap in stapio' <<<"$out"
finish
