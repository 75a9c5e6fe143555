#!/bin/bash
# The drop's bug report collector, acme-collect, in the guest as a customer
# runs it (tests/vendor/guest/collect.sh): with SystemTap's kernel.mark()
# (the bug report module Acme builds from the drop's own script and
# tapsets), without it (a SystemTap 5.6: perf on the trace events), with
# a SystemTap that cannot build the script (a stock 5.1: perf, and why),
# with bpftrace, stopping by itself after -t; and refusing bad arguments, a
# policy that blocks the markers and an unloaded driver, with no report.
# The bug report module is compiled on the host; the guest gets it, the
# kernel release and the driver's srcversion, checks itself and prints
# KTAP (guest/collect.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=stap-scripts/examples/stall-fault.sh
. stap-scripts/examples/stall-fault.sh

drop=$project_dir/vendor-module/drop
[ -x "$drop/acme-collect" ] || die "no acme-collect in the drop; run 'make vendor'"
share=$scratch/share
mkdir -p "$share"

# Acme's build of the bug report module for this kernel, from the drop
compile=$project_dir/build/collect-compile.$$
rm -rf "$compile" && mkdir -p "$compile"
if (cd "$compile" && "$project_dir/guest-image/vm" chroot -- \
	stap -r "$kbuild" -p4 -m acme_collect -I "$drop/tapset" "$drop/acme-bugreport.stp") >"$scratch/compile.log" 2>&1; then
	cp "$compile/acme_collect.ko" "$share/"
fi
rm -rf "$compile"
check "the drop's acme-bugreport.stp and tapsets compile for our kernel" test -s "$share/acme_collect.ko"
[ -s "$share/acme_collect.ko" ] || sed 's/^/# /' "$scratch/compile.log" | tail -n 20

# The drop's acme_xa.ko srcversion, which the reports must carry
srcversion=$(objcopy -O binary --only-section=.modinfo "$drop/acme_xa.ko" /dev/stdout | tr '\0' '\n' | sed -n 's/^srcversion=//p')

# The guest runs acme-collect, checks itself and prints KTAP
# (guest/collect.sh)
guest_status=0
"$vm" run --share "$share" --timeout 600 -- \
	bash -c "$(guest_half collect)" collect "$stall" "$release" "$srcversion" >"$scratch/out" 2>&1 ||
	guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
