#!/bin/bash
# SystemTap natively in the guest, against the build tree the guest sees
# read-only at /lib/modules/$(uname -r)/build: stap -L lists every core
# marker with typed arguments, the test module's markers merged from its
# binary, and the Acme tapset installed in the image resolves. (The native
# compile, minutes under TCG, is in tests/stap/40-native.sh.)
# shellcheck disable=SC2016 # $name, $format are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"
"$vm" run --timeout 600 --rodir "/mnt/host=$mods" -- bash -c "$(guest_half stap-native)" stap-native >"$scratch/out" 2>&1 || true
cat "$scratch/out"
check "the guest run finished" grep -qx '== done' "$scratch/out"
while IFS="$(printf '\t')" read -r name _ format; do
	check "native stap -L lists core marker $name with typed arguments: $(stap_mark_line "$name" "$format" | sed 's/.*") //')" \
		grep -qxF "$(stap_mark_line "$name" "$format")" "$scratch/out"
done < <(grep "$(printf '\tvmlinux\t')" "$kbuild/Module.markers")
check "native stap -L knows the test module's markers (merged from the binary)" \
	grep -q 'kernel.mark("test_gpl_args").format("u %u d %d llu %llu x %x s %s c %c p %p") $name:string $format:string $arg1:long $arg2:long $arg3:long $arg4:long $arg5:string $arg6:long $arg7:long' "$scratch/out"
sed -n '/^== tapset$/,/^== done$/p' "$scratch/out" >"$scratch/tapset"
check "native stap resolves the Acme tapset installed in the image: acme.cmd.submit with its named variables" \
	grep -Eq '^acme\.cmd\.submit .*\bopcode:' "$scratch/tapset"
check "... and acme.cmd.complete" grep -q '^acme\.cmd\.complete ' "$scratch/tapset"
finish
