#!/bin/bash
# Every integer conversion printk takes, in a proprietary module's markers
# (tests/modules/markers_conv.c), read exactly by every tracer: SystemTap
# (which reads Module.markers, where formats are written as their
# arguments travel: %hd as %d, %zu as %lu), perf (by the format file's
# print format) and bpftrace (by the typed fields); ftrace is the
# ftracetest case markers/conversions.tc. The guest checks itself and
# prints KTAP (tests/events/guest/conversions.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_conv.ko" ] || die "no test modules; run tests/modules/build"
share=$scratch/share
mkdir -p "$share"
cp "$mods/markers_conv.ko" "$share/"

# What SystemTap knows of the markers: their formats as they travel
"$vm" chroot -- stap -r "$kbuild" -L 'kernel.mark("test_conv_*")' >"$scratch/stap-L" 2>&1 || true
sed 's/^/# /' "$scratch/stap-L"
check "stap -L: test_conv_narrow, %hd %hu %hhd %hhx read as %d %u %d %x, 6 arguments" \
	grep -qxF "$(stap_mark_line test_conv_narrow 's %d us %u sc %d uc %x c %c after %u')" "$scratch/stap-L"
check "stap -L: test_conv_named, %zu %zd %td %jd %ju %Ld read as l and ll, 7 arguments" \
	grep -qxF "$(stap_mark_line test_conv_named 'sz %lu ssz %ld pd %ld j %lld ju %llu L %lld after %u')" "$scratch/stap-L"

cat >"$share/conv.stp" <<'STP'
probe kernel.mark("test_conv_narrow") {
	printf("stap narrow %d %d %d %x %d %d\n", $arg1, $arg2, $arg3, $arg4, $arg5, $arg6)
}
probe kernel.mark("test_conv_named") {
	printf("stap named %d %d %d %d %u %d %d\n", $arg1, $arg2, $arg3, $arg4, $arg5, $arg6, $arg7)
}
probe kernel.mark("test_conv_pct") { printf("stap pct %d\n", $arg1) }
STP
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m conv conv.stp) >"$scratch/compile.log" 2>&1 || true
sed 's/^/# /' "$scratch/compile.log"
check "stap -r -p4 compiles probes on %hd, %hhx, %zu and %jd markers" test -s "$share/conv.ko"

guest_status=0
"$vm" run --share "$share" --timeout 900 -- bash -c "$(guest_half conversions)" conversions >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
