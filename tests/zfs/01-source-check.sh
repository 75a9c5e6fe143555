#!/bin/bash
# zfs/build builds only the OpenZFS source the patches were made for: the
# zfs-dkms package in the build root passes its sha256 check, and a
# package with other content under the same name (rebuilt, damaged, cut
# short) is refused with the reason, before anything is unpacked.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/build-root.sh
. "$project_dir/lib/build-root.sh"

deb=$(find "$(root_dir)$zfs_source_dir" -name 'zfs-dkms_*_all.deb' | head -n 1)
[ -n "$deb" ] || die "no zfs-dkms package in the build root; run 'make root'"
name=${deb##*/}

refused() {
	local status=0
	zfs/build --check-source "$1" >"$scratch/out" 2>&1 || status=$?
	sed 's/^/# /' "$scratch/out"
	[ "$status" = 1 ] && grep -q "has sha256 [0-9a-f]\{64\}, not the [0-9a-f]\{64\} of zfs-dkms" "$scratch/out"
}

refused_missing() {
	local status=0
	zfs/build --check-source "$1" >"$scratch/out" 2>&1 || status=$?
	sed 's/^/# /' "$scratch/out"
	[ "$status" = 1 ] && grep -q "no such file" "$scratch/out"
}

check "the build root's $name passes the check" zfs/build --check-source "$deb"
mkdir -p "$scratch/damaged" "$scratch/short" "$scratch/rebuilt"
cp "$deb" "$scratch/damaged/$name"
printf '\xff' | dd of="$scratch/damaged/$name" bs=1 seek=4096 conv=notrunc status=none
check "a copy with one byte changed is refused, with both sha256s" refused "$scratch/damaged/$name"
head -c 65536 "$deb" >"$scratch/short/$name"
check "a copy cut short is refused" refused "$scratch/short/$name"
echo "not a package" >"$scratch/rebuilt/$name"
check "another file of the same name is refused" refused "$scratch/rebuilt/$name"
check "a path that is not there is refused" refused_missing "$scratch/none/$name"
finish
