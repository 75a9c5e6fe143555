#!/bin/bash
# SystemTap on markers, cross-compiled: modules built on the host in the
# build root (stap -r build/linux -p4) run in the guest under staprun and
# receive exact argument values from core, GPL and proprietary markers;
# blocked markers deliver nothing; probes survive unload/reload and a policy
# flip; format mismatches fail cleanly at compile time and at registration.
# shellcheck disable=SC2016 # $name, $format, $argN are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_prop_forced.ko" ] || die "no test modules; run tests/modules/build"
share=$scratch/share
mkdir -p "$share"
cp "$mods"/*.ko "$share/"

stap_compile() { # NAME SCRIPT
	(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m "$1" -e "$2") >"$scratch/$1.log" 2>&1
	local status=$?
	[ -s "$share/$1.ko" ] || status="$status, no module"
	check "stap -r -p4 compiles $1 (status $status)" [ "$status" = 0 ]
	[ "$status" = 0 ] || cat "$scratch/$1.log"
}

stap_compile stap_core 'probe kernel.mark("module_load") { printf("%s|%s\n", $name, $format); exit() }'
stap_compile stap_values '
probe kernel.mark("test_gpl_args"), kernel.mark("test_prop_args") {
	printf("%s u=%u d=%d llu=%d x=%x s=%s c=%c p=%p\n", $name,
	       $arg1 & 0xffffffff, $arg2, $arg3, $arg4 & 0xffffffff, $arg5, $arg6, $arg7)
}
probe kernel.mark("test_gpl_noargs"), kernel.mark("test_prop_noargs") {
	printf("%s fired, format [%s]\n", $name, $format)
}'
stap_compile stap_count 'global hits
probe kernel.mark("test_prop_args") { hits++ }
probe end { printf("hits=%d\n", hits) }'

"$vm" run --share "$share" -- bash -c "$(guest_half stap-cross)" stap-cross >"$scratch/out" 2>&1 || true
cat "$scratch/out"
section() { sed -n "/^== $1\$/,/^== /p" "$scratch/out"; }
o=$scratch/out
check "a core marker reaches a probe with its name and format" grep -qx 'module_load|name %s taints %#lx' "$o"
for who in gpl prop; do
	check "exact values from the $who module (%u %d %llu %x %s %c %p)" \
		grep -qx "test_${who}_args u=4000000000 d=-42 llu=12345678901234 x=deadbeef s=hello markers c=M p=0xffff888012345678" "$o"
	check "MARK_NOARGS marker of the $who module fires" grep -q "^test_${who}_noargs fired" "$o"
done
check "every firing of a connected proprietary marker is seen (5)" eval 'section "count allowed" | grep -qx hits=5'
check "a probe stays registered across unload and reload (2 + 3)" eval 'section "count unload-reload" | grep -qx hits=5'
check "a force-loaded module's marker is blocked (forced) with a probe waiting, named" \
	eval 'section "count forced" | grep -qP "\tblocked\t1\tforced\t\S+ \[stap_\w+\]$"'
check "nothing fires from a force-loaded module" eval 'section "count forced" | grep -qx hits=0'
check "under deny nothing fires; after the flip to allow everything does (4)" eval 'section "count deny then allow" | grep -qx hits=4'
check "a wrong format through the API gets -EBUSY" grep -q 'register module_load with format "wrong %d": -16' "$o"
check "the refusal is logged naming both formats" grep -q 'format mismatch for marker module_load: probe "wrong %d", marker "name %s taints %#lx"' "$o"
check "the guest run finished" grep -qx '== done' "$o"

# A .format() that does not match fails at stap's compile, with its error.
status=0
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p2 -e 'probe kernel.mark("module_load").format("wrong %d") { }') >"$scratch/fmt.log" 2>&1 || status=$?
cat "$scratch/fmt.log"
check "kernel.mark(...).format(\"wrong\") fails at compile time" [ "$status" != 0 ]
check "... with SystemTap's no-match error" grep -q 'no match' "$scratch/fmt.log"
status=0
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p2 -e 'probe kernel.mark("modul_load") { }') >"$scratch/typo.log" 2>&1 || status=$?
check "a misspelt marker fails at compile time with no match" eval '[ "$status" != 0 ] && grep -q "no match" "$scratch/typo.log"'

# stap -L lists every core marker of Module.markers with its format and
# an argument of the right type per conversion (the whole line).
(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -L 'kernel.mark("*")') >"$scratch/list" 2>&1 || true
cat "$scratch/list"
while IFS="$(printf '\t')" read -r name _ format; do
	check "stap -L lists core marker $name with typed arguments: $(stap_mark_line "$name" "$format" | sed 's/.*") //')" \
		grep -qxF "$(stap_mark_line "$name" "$format")" "$scratch/list"
done < <(grep "$(printf '\tvmlinux\t')" "$kbuild/Module.markers")
check "stap -L types module_load's arguments" grep -q 'kernel.mark("module_load").format("name %s taints %#lx") $name:string $format:string $arg1:string $arg2:long' "$scratch/list"
finish
