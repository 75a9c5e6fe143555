#!/bin/bash
# The kernel as Debian packages ('make debs'): linux-image and
# linux-headers installed into a copy of the root, the headers carrying
# Module.markers; the vendor drop's markers merged into the installed
# headers as a customer does; a kernel.mark() script cross-compiled there
# against /lib/modules/<release>/build (nothing from the build tree), and
# one on the acme.* aliases of the project's tapsets installed as
# docs/own-machine.md says, run in a guest booted from the packaged kernel
# with its packaged modules, and count what the workload did. The guest checks itself and prints
# KTAP (tests/kernel/guest/debs.sh).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

debs=$(kernel/debs) || die "make debs failed"
compiled=$(grep -c '^  CC ' "$debs/debs.log" || true)
check "make debs compiled nothing: the kernel was built ($compiled compiles in its log)" [ "$compiled" = 0 ]
kernel_entry=$(dirname "$(readlink -f build/kernel)")
# What is in the entry: the entry's own directory is touched each time a
# build finds it (lib/cache.sh's cache_used), so that prune_cache keeps
# an entry in use
find "$kernel_entry" -mindepth 1 -newer "$kernel_entry/.built" >"$scratch/changed"
check "make debs left the kernel's cache entry as kernel/build made it" \
	[ ! -s "$scratch/changed" ]
[ ! -s "$scratch/changed" ] || { echo "# changed after .built:"; head -n 5 "$scratch/changed" | sed 's/^/#   /'; }
image_deb=$(echo "$debs"/linux-image-"$release"_*.deb)
headers_deb=$(echo "$debs"/linux-headers-"$release"_*.deb)
check "make debs built linux-image-$release" [ -f "$image_deb" ]
check "make debs built linux-headers-$release" [ -f "$headers_deb" ]
dpkg-deb -c "$headers_deb" >"$scratch/headers.list"
check "the headers package carries Module.markers" \
	grep -q "\./usr/src/linux-headers-$release/Module.markers\$" "$scratch/headers.list"
dpkg-deb --fsys-tarfile "$headers_deb" | tar -xO "./usr/src/linux-headers-$release/Module.markers" >"$scratch/pkg.markers"
check "... with the kernel's markers" grep -q "^fs_open	vmlinux	" "$scratch/pkg.markers"
check "... and no vendor's or test module's" lacks '	acme_xa	\|	markers_gpl	' "$scratch/pkg.markers"
check "the kernel's own tree has none of them either (it never changes)" \
	lacks '	acme_xa	\|	markers_gpl	' "$(readlink -f build/kernel)/Module.markers"
check "the view SystemTap reads (build/linux) has the vendor's markers" grep -q '	acme_xa	' "$kbuild/Module.markers"

# A machine with the packages: a copy of the root
root=$scratch/root
echo "# copying the root and installing the packages"
cp -a "$(readlink -f build/root)" "$root"
mkdir -p "$root/root/debs"
cp "$image_deb" "$headers_deb" "$root/root/debs/"
in_copy() {
	# shellcheck disable=SC2016 # the inner script expands its own arguments
	unshare --mount --propagation private -- sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
	' in_copy "$root" "$@"
}
check "dpkg installs both packages" in_copy sh -c 'dpkg -i /root/debs/*.deb >/root/dpkg.log 2>&1'
check "the kernel image is installed" [ -f "$root/boot/vmlinuz-$release" ]
check "/lib/modules/$release/build is the packaged headers" \
	[ "$(readlink "$root/lib/modules/$release/build")" = "/usr/src/linux-headers-$release" ]

# The vendor drop, installed as its README says; its markers merged into
# the installed headers with markers-elf
drop=vendor-module/drop
install -D -m 0644 "$drop/acme_xa.ko" "$root/lib/modules/$release/extra/acme_xa.ko"
install -D -m 0755 "$drop/acmectl" "$root/usr/local/bin/acmectl"
in_copy depmod "$release"
check "markers-elf merges the drop's markers into the installed headers" \
	tools/markers-elf/markers-elf --merge "$root/usr/src/linux-headers-$release" "$drop/acme_xa.ko"
check "... 12 of them" [ "$(grep -c '	acme_xa	' "$root/usr/src/linux-headers-$release/Module.markers")" = 12 ]

# The project's tapsets, installed as docs/own-machine.md says: scripts
# then use the acme.* aliases with no -I
install -m 0644 -t "$root/usr/share/systemtap/tapset" stap-scripts/tapset/acme.stp \
	stap-scripts/tapset/markers.stp stap-scripts/tapset/markers.stpm stap-scripts/tapset/zfs.stp
check "stap compiles a script on the acme.* aliases with the tapsets installed (no -I)" \
	in_copy sh -c "cd /root && stap -p4 -r /lib/modules/$release/build -m stap_debs_alias \
		-e 'global n; probe acme.cmd.submit { n++ } probe end { printf(\"alias submits=%d\\n\", n) }' >stap-alias.log 2>&1"
grep -v 'symbol table missing' "$root/root/stap-alias.log" | tail -n 5 | sed 's/^/# stap: /'

# In /root: the guest mounts a tmpfs on /tmp
cat >"$root/root/count.stp" <<'STP'
global submits, completes
probe kernel.mark("acme_cmd_submit") { submits++ }
probe kernel.mark("acme_cmd_complete") { completes++ }
probe end { printf("submits=%d completes=%d\n", submits, completes) }
STP
check "stap compiles a kernel.mark() script against the packaged headers" \
	in_copy sh -c "cd /root && stap -p4 -r /lib/modules/$release/build -m stap_debs count.stp >stap.log 2>&1"
sed 's/^/# stap: /' "$root/root/stap.log" | grep -v 'symbol table missing' | tail -n 5

echo "# making an image of the packaged root"
install -m 0755 guest-image/vm-init "$root/sbin/vm-init"
size_mb=$(($(du -sm "$root" | cut -f1) * 5 / 4 + 512))
mkfs.ext4 -q -F -d "$root" "$scratch/debs.img" "${size_mb}M"
guest_status=0
VM_KERNEL=$root/boot/vmlinuz-$release VM_IMAGE=$scratch/debs.img VM_KBUILD=$root/usr/src/linux-headers-$release \
	"$vm" run -- bash -c "$(guest_half debs)" debs "$release" >"$scratch/guest" 2>&1 || guest_status=$?
guest_ktap "$scratch/guest"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
finish
