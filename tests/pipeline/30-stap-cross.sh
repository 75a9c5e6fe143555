#!/bin/bash
# A SystemTap module compiled on the host (in the build root, against our
# tree) runs in the guest under staprun and prints what it should.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$scratch"
"$vm" chroot -- stap -r "$kbuild" -p4 -m stap_pipeline_cross \
	-e 'probe begin { printf("cross-compiled stap on %s\n", kernel_string(@cast(&@var("init_uts_ns", "kernel"), "uts_namespace", "kernel")->name->release)); exit() }' \
	>/dev/null 2>"$scratch/stap.err" || {
	# Without debug info there is no @cast; fall back to what needs none.
	"$vm" chroot -- stap -r "$kbuild" -p4 -m stap_pipeline_cross \
		-e 'probe begin { printf("cross-compiled stap, pid %d\n", pid()); exit() }' >/dev/null
}
check "stap -r build/linux -p4 made a module" [ -s stap_pipeline_cross.ko ]
out=$("$vm" run --share "$scratch" -- staprun /mnt/host/stap_pipeline_cross.ko)
printf '%s\n' "$out"
check "staprun in the guest prints the probe's output" grep -q '^cross-compiled stap' <<<"$out"
finish
