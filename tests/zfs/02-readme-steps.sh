#!/bin/bash
# zfs/README.md's steps for building OpenZFS with the markers backend on
# one's own machine, run as a reader would, as far as the host goes: the
# source is where the README says zfs-dkms puts it, its patch loop (the
# block's own lines, with this checkout as $project) applies every patch
# exactly, and the patched source has the markers backend. Its configure
# and build lines are the ones zfs/build runs in make check (the guest's
# zfs.ko comes from them), so those are compared, not run twice.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/build-root.sh
. "$project_dir/lib/build-root.sh"

readme=$project_dir/zfs/README.md
deb=$(find "$(root_dir)$zfs_source_dir" -name 'zfs-dkms_*_all.deb' | head -n 1)
[ -n "$deb" ] || die "no zfs-dkms package in the build root; run 'make root'"

# The first code block after the heading, its lines
sed -n '/^## Building it for your own kernel/,/^## /p' "$readme" |
	awk '/^```/ { n++; next } n == 1' >"$scratch/steps"
check "zfs/README.md has the build steps ($(grep -c . "$scratch/steps") lines)" [ -s "$scratch/steps" ]
sed 's/^/#   /' "$scratch/steps"

# The package puts the source where the README says
source_dir=$(sed -n 's/^cd \(\/usr\/src\/zfs-[0-9.]*\)$/\1/p' "$scratch/steps")
dpkg-deb -x "$deb" "$scratch/root"
# ships_source: the README names a directory, and the package fills it
ships_source() { [ -n "$source_dir" ] && [ -f "$scratch/root$source_dir/autogen.sh" ]; }
check "zfs-dkms ($(basename "$deb")) ships the source in ${source_dir:-(no cd line)}" ships_source

# The patch loop, as written, from that source directory
loop=$(grep '^for p in ' "$scratch/steps" || true)
status=0
(cd "$scratch/root$source_dir" && project=$project_dir bash -euc "$loop") >"$scratch/patch.out" 2>&1 || status=$?
# loop_ran: the README has a loop, and it exited 0
loop_ran() { [ -n "$loop" ] && [ "$status" = 0 ]; }
check "the README's patch loop applies every patch (exit $status)" loop_ran
patches=$(grep -vc '^#' "$project_dir/zfs/patches/series" || true)
applied=$(grep -c '^patching file ' "$scratch/patch.out" || true)
check "... every patch of the series patched files ($patches patches, $applied files)" [ "$applied" -ge "$patches" ]
check "... exactly: no fuzz, no offset, nothing rejected" \
	lacks 'fuzz\|offset\|FAILED\|Reversed\|rejects' "$scratch/patch.out"
[ "$status" = 0 ] || sed 's/^/#   /' "$scratch/patch.out" | tail -n 10
check "... and the source has the markers backend (configure's test of the kernel's markers)" \
	grep -rqs HAVE_KERNEL_MARKERS "$scratch/root$source_dir/config"

# configure and make: the lines zfs/build runs, the kernel's path aside
# in_both STEP: a line of the README's steps and of zfs/build has STEP
in_both() { grep -qF -- "$1" "$scratch/steps" && grep -qF -- "$1" "$project_dir/zfs/build"; }
for step in './autogen.sh' './configure --with-config=kernel --with-linux=' 'make -C module'; do
	check "'$step' is a step of the README and of zfs/build" in_both "$step"
done
finish
