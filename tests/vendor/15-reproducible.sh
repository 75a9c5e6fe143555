#!/bin/bash
# The vendor drop is reproducible: two copies of the checkout at different
# paths (different lengths too), built with the same sources and
# toolchain, give the same SHA256SUMS, as Debian's reproducible builds
# expect of a package.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$kbuild/include/config/kernel.release" ] || die "no kernel tree; run 'make kernel'"
# The files git tracks, as they are in the working tree
copy_checkout() {
	mkdir -p "$1"
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$1"
}
first=$scratch/a
second=$scratch/a-much-longer/path/to/another/checkout
for dir in "$first" "$second"; do
	copy_checkout "$dir"
	(cd "$dir" && VM_KBUILD=$kbuild make -s -C vendor-module drop KDIR="$kbuild") >"$scratch/build.log" 2>&1 ||
		{ tail -n 20 "$scratch/build.log"; die "the vendor drop does not build in $dir"; }
done
sed 's/^/# /' "$first/vendor-module/drop/SHA256SUMS"
check "two checkouts at different paths give the same SHA256SUMS" \
	cmp -s "$first/vendor-module/drop/SHA256SUMS" "$second/vendor-module/drop/SHA256SUMS"
diff "$first/vendor-module/drop/SHA256SUMS" "$second/vendor-module/drop/SHA256SUMS" | sed 's/^/# /' || true
check "the module names no path of the checkout" lacks "$scratch" "$second/vendor-module/drop/acme_xa.ko"
finish
