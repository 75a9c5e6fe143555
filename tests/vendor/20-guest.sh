#!/bin/bash
# The vendor driver in the guest, from the drop only: modprobe of the
# installed module, taint P+O, markers listed connectable, workloads,
# the bad-input kselftest acme-bad-input (tests/vendor/selftest, 64- and
# 32-bit, a check per case), resets under load, unloading while
# busy, 20 load/unload cycles, module parameter checks, the deterministic
# stall/timeout/retry/reset sequence twice, the failed state, the markers
# policy and the force-loaded twin: one fresh guest (guest-image/vm run)
# running the guest half, tests/vendor/guest/acme-tests.sh. Builds the
# test helper acme_probe.ko (tests/vendor/probe: GPL, never part of the
# drop) against the same tree. Never touches the host's kernel. The
# guest checks itself and prints KTAP, plan first.
#
#   tests/vendor/20-guest.sh [--quick]    (--quick: skip the fault determinism runs)
#
# On the debug kernel (KM_FLAVOUR=debug): that kernel's bzImage, and the
# driver built against its tree from the same source under the GPL
# (ACME_GPL_BUILD, see vendor-module/driver/acme_xa.c): such a kernel's
# mutex entry points are GPL-only exports. That build is make
# vendor-debug's (vendor-module/.build-gpl, which the debug image
# installs), read here, not made again. The drop is never changed; the
# taint expected is O only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=stap-scripts/examples/stall-fault.sh
. stap-scripts/examples/stall-fault.sh

quick=0
case ${1:-} in
'') ;;
--quick) quick=1 ;;
*) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
top=$project_dir/vendor-module
[ -r "$top/drop/acme_xa.ko" ] || die "no vendor drop; run 'make vendor'"

# Built in the project, where the build root (vm chroot) sees them
work=$project_dir/build/vendor-tests$flavour_suffix
share=$scratch/share
rm -rf "$work/probe" "$work/driver"
mkdir -p "$share" "$work/probe"
cp -p tests/vendor/probe/{acme_probe.c,Kbuild} "$work/probe/"
build_mod() { # build_mod DIR [VAR=VALUE...]: make modules in DIR against the tree, in the build root
	local dir=$1
	shift
	"$vm" chroot -- make -s -C "$kbuild" M="$dir" "$@" modules
}

if [ -n "$flavour_suffix" ]; then
	[ -r "$kbuild/arch/x86/boot/bzImage" ] || die "no bzImage in $kbuild"
	export VM_KERNEL=$kbuild/arch/x86/boot/bzImage
	# The GPL build the debug image installs (make vendor-debug), read here
	gpl=$top/.build-gpl
	[ -r "$gpl/acme_xa.ko" ] || die "no GPL build of the driver in $gpl; run 'make vendor-debug'"
	grep -qa 'license=GPL' "$gpl/acme_xa.ko" || die "the debug build is not GPL"
	grep -qa "vermagic=$(cat "$kbuild/include/config/kernel.release") " "$gpl/acme_xa.ko" ||
		die "$gpl/acme_xa.ko is not built for $kbuild; run 'make vendor-debug'"
	build_mod "$work/probe" || die "acme_probe.ko does not build"
	cp "$gpl/acme_xa.ko" "$gpl/driver/Module.markers" "$share/"
	cp "$top/drop/acmectl" "$share/"
	env_args=(EXPECT_TAINT=4096 FORCED=0)
else
	build_mod "$work/probe" || die "acme_probe.ko does not build"
	cp "$top"/drop/{acme_xa.ko,acme_xa_forced.ko,acmectl,Module.markers} "$share/"
	env_args=(EXPECT_TAINT=4097 FORCED=1 INSTALLED=1)
fi
cp "$work/probe/acme_probe.ko" "$share/"
make -s -C "$top" acmectl32 || die "the 32-bit acmectl does not build (gcc-multilib?)"
cp "$top/.build/acmectl32" "$share/"
# The bad-input kselftest, on the harness of the tree under test
make -s -C tests/vendor/selftest KDIR="$kbuild" O="$work" ||
	die "acme-bad-input does not build (tests/vendor/selftest; the 32-bit one needs gcc-multilib)"
cp "$work/acme-bad-input" "$work/acme-bad-input32" "$share/"
# The guest's plan counts acme-bad-input's cases, which 6.1's harness
# cannot list: its TEST(), TEST_F(), TEST_F_TIMEOUT()... (no fixture
# variants)
bad_cases=$(grep -cE '^TEST(_F)?(_SIGNAL|_TIMEOUT)?\(' tests/vendor/selftest/acme-bad-input.c)
! grep -q 'FIXTURE_VARIANT' tests/vendor/selftest/acme-bad-input.c ||
	die "acme-bad-input has fixture variants: count its cases another way"
# slub_debug=U: SLUB tracks the live kmalloc objects, for the leak check
status=0
"$vm" run --share "$share" --timeout 900 --append "slub_debug=U,kmalloc-*" -- \
	env "${env_args[@]}" QUICK=$quick DIR=/mnt/host STALL="$stall" BAD_INPUT_CASES="$bad_cases" \
	bash -c "$(guest_half acme-tests)" acme-tests >"$scratch/out" 2>&1 || status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $status)" [ "$status" = 0 ]
finish
