#!/bin/bash
# OpenZFS on markers: zfs.ko (CDDL, so the kernel is tainted P) with the
# markers backend of zfs/patches, on a pool in a file. Every marker of
# spl.ko and zfs.ko is a trace event; SystemTap, ftrace (with a filter),
# perf and bpftrace each see exactly the txgs the pool's kstat says it
# synced; a zfs rename onto a dataset that exists fires zfs_set__error
# with EEXIST from the SET_ERROR that refused it (a zfs create of one does
# not: libzfs refuses it before asking the kernel); under markers.proprietary=deny the events
# are silent (enabled, they wait for allow); a force-loaded zfs.ko gets none.
# The guest checks itself and prints KTAP (tests/zfs/guest/zfs-markers.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ "${KM_FLAVOUR:-main}" != main ]; then
	skip "OpenZFS on the $KM_FLAVOUR kernel" "OpenZFS's configure refuses a kernel with lockdep (CONFIG_DEBUG_LOCK_ALLOC)"
	finish
fi
zfs_entry=$(readlink -f build/zfs)
[ -e "$zfs_entry/modules/zfs.ko" ] || die "OpenZFS is not built; run 'make zfs'"
tools/markers-elf/markers-elf "$zfs_entry"/modules/{spl,zfs}.ko >"$scratch/markers" ||
	die "markers-elf cannot read the OpenZFS modules"
cut -f1 "$scratch/markers" | sort -u >"$scratch/names"
figure "$(wc -l <"$scratch/names") markers in spl.ko and zfs.ko"

share=$scratch/share
mkdir -p "$share"
cp zfs/example-pool.sh "$share/"
cat >"$share/txg.stp" <<'STP'
global events
probe kernel.mark("zfs_txg__synced") { events++; printf("synced %d\n", $arg1) }
probe end { printf("stap events %d\n", events) }
STP
cat >"$share/seterr.stp" <<'STP'
probe kernel.mark("zfs_set__error") {
	if ($arg4 == 17 && execname() == "zfs")
		printf("set_error %s %s %d %d\n", $arg1, $arg2, $arg3, $arg4)
}
STP
for script in txg seterr; do
	(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m "$script" "$script.stp") >"$scratch/$script.log" 2>&1 || true
	check "stap -r -p4 compiles $script.stp (kernel.mark on zfs.ko's markers)" test -s "$share/$script.ko"
done

cp "$scratch/names" "$share/names"
guest_status=0
"$vm" run --share "$share" --rodir "/mnt/zfs-src=$zfs_entry/zfs-2.3.9/module" --timeout 900 -- \
	bash -c "$(guest_half zfs-markers)" zfs-markers >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
