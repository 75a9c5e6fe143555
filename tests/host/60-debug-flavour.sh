#!/bin/bash
# make check-debug's plumbing, which make check does not build (the debug
# kernel is 17 minutes from scratch): the debug flavour has its own cache
# key and directory, its fragments come after the main ones, every option
# they ask for exists in the kernel's Kconfig, and the Acme driver's GPL
# build (the one the debug image carries) builds from the same source and
# is declared GPL, while the drop stays proprietary.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

main_dir=$(kernel_dir main)
debug_dir=$(kernel_dir debug)
check "the debug kernel has a cache directory of its own ($(basename "$debug_dir"))" \
	test "$main_dir" != "$debug_dir" -a "$(dirname "$debug_dir")" = "$cache_dir"
check "... keyed apart from the main one" [ "$(kernel_key main)" != "$(kernel_key debug)" ]
mapfile -t fragments < <(config_fragments debug)
mapfile -t main_fragments < <(config_fragments main)
# after_main: the debug list is the main list, then debug.config
after_main() {
	[ "${#fragments[@]}" = $((${#main_fragments[@]} + 1)) ] &&
		[ "${fragments[*]}" = "${main_fragments[*]} $project_dir/kernel/config/debug/debug.config" ]
}
check "the debug fragments come after the main ones (${#fragments[@]} fragments)" after_main
if (KM_FLAVOUR=bogus kernel_flavour) >/dev/null 2>&1; then
	not_ok "KM_FLAVOUR=bogus is refused"
else
	ok "KM_FLAVOUR=bogus is refused"
fi

missing=()
while read -r opt; do
	grep -rqxE --include='Kconfig*' "(menu)?config ${opt#CONFIG_}" "$kbuild" || missing+=("$opt")
done < <(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1/p' kernel/config/debug/*.config)
check "every option of kernel/config/debug exists in the kernel's Kconfig${missing[*]:+ (missing: ${missing[*]})}" \
	[ "${#missing[@]}" = 0 ]

# Into a directory of this test's own: vendor-module/.build-gpl is the debug
# image's driver, built for the debug kernel, not this one. (Below the
# checkout: the build root sees the checkout, not /tmp.)
gpl=$project_dir/build/tests/debug-flavour-gpl
if make -s -C vendor-module gpl KDIR="$kbuild" GPL_OBJ="$gpl" >"$scratch/gpl.log" 2>&1; then
	ok "the Acme driver's GPL build builds from the same source"
else
	not_ok "the Acme driver's GPL build builds from the same source"
	tail -n 20 "$scratch/gpl.log"
fi
check "... and is declared GPL" grep -qa 'license=GPL' "$gpl/acme_xa.ko"
check "... with the drop's 12 markers" \
	[ "$(tools/markers-elf/markers-elf "$gpl/acme_xa.ko" | wc -l)" = 12 ]
check "the drop stays proprietary" grep -qa 'license=Proprietary' vendor-module/drop/acme_xa.ko
finish
