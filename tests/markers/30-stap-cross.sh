#!/bin/bash
# SystemTap on markers, cross-compiled: modules built on the host in the
# build root (stap -r build/linux -p4) run in the guest under staprun and
# receive exact argument values from core, GPL and proprietary markers;
# blocked markers deliver nothing; probes survive unload/reload and a policy
# flip; format mismatches fail cleanly at compile time and at registration.
# The guest checks itself and prints KTAP (guest/stap-cross.sh); the
# compiles and stap -L run on the host.
# shellcheck disable=SC2016 # $name, $format, $argN are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_prop_forced.ko" ] || die "no test modules; run tests/modules/build"
share=$scratch/share
mkdir -p "$share"
cp "$mods"/*.ko "$share/"

stap_compile() { # NAME SCRIPT
	local status=0
	(cd "$share" && "$vm" chroot -- stap -r "$kbuild" -p4 -m "$1" -e "$2") >"$scratch/$1.log" 2>&1 || status=$?
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

# The guest checks itself and prints KTAP (guest/stap-cross.sh)
guest_status=0
"$vm" run --share "$share" -- bash -c "$(guest_half stap-cross)" stap-cross >"$scratch/out" 2>&1 || guest_status=$?
guest_ktap "$scratch/out"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]

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
