#!/bin/bash
# The Acme vendor drop as a customer receives it: the files, checksums, a
# stripped Proprietary module and its force-load twin, a stripped acmectl;
# its markers read back from the binary alone and known to SystemTap on the
# host (stap -r); the build refusing a GPL-only symbol; acmectl and the
# bad-input kselftest lint-clean; no test suite in the drop.
# shellcheck disable=SC2016 # $name, $format are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

drop=$project_dir/vendor-module/drop
markers_elf=$project_dir/tools/markers-elf/markers-elf
[ -e "$drop/SHA256SUMS" ] || die "no vendor drop; run 'make vendor'"

for f in acme_xa.ko acme_xa_forced.ko acmectl README acme_xa_ioctl.h Module.markers \
	acme-collect acme-bugreport.stp tapset/acme.stp tapset/markers.stp tapset/markers.stpm; do
	check "the drop has $f" test -s "$drop/$f"
done
check "the drop's acme-collect is executable" test -x "$drop/acme-collect"
check "the drop's README tells a customer to run acme-collect and send the file" \
	grep -q 'run acme-collect as root' "$drop/README"
check "the drop's files match its SHA256SUMS" bash -c "cd '$drop' && sha256sum --quiet -c SHA256SUMS"

readelf -S -W "$drop/acme_xa.ko" >"$scratch/sections"
check "acme_xa.ko carries no debug information" lacks '\.debug_' "$scratch/sections"
modinfo_of() { objcopy -O binary --only-section=.modinfo "$1" /dev/stdout | tr '\0' '\n'; }
modinfo_of "$drop/acme_xa.ko" >"$scratch/modinfo"
modinfo_of "$drop/acme_xa_forced.ko" >"$scratch/modinfo.forced"
check "acme_xa.ko is licensed Proprietary" grep -qx 'license=Proprietary' "$scratch/modinfo"
check "acme_xa.ko has a MODULE_VERSION ($(sed -n 's/^version=//p' "$scratch/modinfo"))" grep -qx 'version=1\.4\.2' "$scratch/modinfo"
check "acme_xa.ko has a srcversion" grep -qE '^srcversion=[0-9A-F]{23}$' "$scratch/modinfo"
check "acme_xa.ko's vermagic is our kernel's ($release)" grep -q "^vermagic=$release " "$scratch/modinfo"
check "the forced twin differs in the vermagic only" \
	eval '[ "$(diff "$scratch/modinfo" "$scratch/modinfo.forced" | grep -c "^[<>]")" = 2 ] && grep -q "^vermagic=.*-nomatch " "$scratch/modinfo.forced"'
check "the forced twin is otherwise the same binary (same size)" \
	[ "$(stat -c %s "$drop/acme_xa.ko")" = "$(stat -c %s "$drop/acme_xa_forced.ko")" ]
# The drop ships no test suite: the bad-input checks are a kselftest of
# ours (tests/vendor/selftest), not a command of the customer's acmectl
check "the drop's acmectl has no bad-input command" lacks 'bad-input' "$drop/acmectl"
check "the drop's README does not mention bad-input" lacks 'bad-input' "$drop/README"
check "acmectl is stripped and static" \
	eval '! readelf -S -W "$drop/acmectl" | grep -q "\.symtab" && ! readelf -l -W "$drop/acmectl" | grep -q INTERP'

# The markers, from the stripped binary only
"$markers_elf" "$drop/acme_xa.ko" | sort >"$scratch/from-binary"
sort "$drop/Module.markers" >"$scratch/from-build"
check "markers-elf reads $(wc -l <"$scratch/from-binary") acme_* markers from the stripped binary" \
	eval '[ "$(grep -c "^acme_[a-z_]*	acme_xa	" "$scratch/from-binary")" -ge 10 ]'
check "... the same as the Module.markers the build wrote" cmp -s "$scratch/from-binary" "$scratch/from-build"
check "... and they are merged into the kernel tree's Module.markers" \
	eval 'grep "	acme_xa	" "$kbuild/Module.markers" | sort | cmp -s - "$scratch/from-binary"'

(cd "$scratch" && "$vm" chroot -- stap -r "$kbuild" -L 'kernel.mark("acme_*")') >"$scratch/stap-L" 2>&1 || true
sed 's/^/# /' "$scratch/stap-L"
while IFS="$(printf '\t')" read -r name _ format; do
	check "stap -r -L lists $name with its format" \
		grep -qF "kernel.mark(\"$name\").format(\"$format\") \$name:string \$format:string" "$scratch/stap-L"
done <"$scratch/from-binary"
check "stap -L types the arguments (acme_cmd_complete: long, long, long)" \
	grep -q 'kernel.mark("acme_cmd_complete").* $arg1:long $arg2:long $arg3:long$' "$scratch/stap-L"
check "stap -L types the arguments (acme_fw_state: string x3)" \
	grep -q 'kernel.mark("acme_fw_state").* $arg1:string $arg2:string $arg3:string$' "$scratch/stap-L"

# A proprietary module must not link a GPL-only symbol: the build fails.
# gpl-symbol-check prints its two TAP lines; that it ran to its end (exit
# 0, both ok) is one check more, since an early stop prints no "not ok".
status=0
"$project_dir/tests/vendor/gpl-symbol-check" >"$scratch/gpl-check" 2>&1 || status=$?
grep -E '^(not )?ok ' "$scratch/gpl-check" || true
grep -vE '^(not )?ok ' "$scratch/gpl-check" | tail -n 20 | sed 's/^/# /'
gpl_refused() { [ "$status" = 0 ] && [ "$(grep -c '^ok ' "$scratch/gpl-check")" = 2 ] && lacks '^not ok ' "$scratch/gpl-check"; }
check "the build refuses a GPL-only symbol: gpl-symbol-check ran to its end (exit $status, $(grep -c '^ok ' "$scratch/gpl-check" || true) of 2 ok)" \
	gpl_refused

if make -s -C "$project_dir/vendor-module" lint >"$scratch/lint" 2>&1; then ok "acmectl: cppcheck and -Wall -Wextra -Werror clean"; else
	not_ok "acmectl lint"; sed 's/^/# /' "$scratch/lint"
fi
if make -s -C tests/vendor/selftest KDIR="$kbuild" lint >"$scratch/lint-selftest" 2>&1; then
	ok "acme-bad-input (the bad-input kselftest): cppcheck and -Wall -Wextra -Werror clean"
else
	not_ok "acme-bad-input lint"; sed 's/^/# /' "$scratch/lint-selftest"
fi
finish
