#!/bin/bash
# SystemTap natively in the guest, against the build tree the guest sees
# read-only at /lib/modules/$(uname -r)/build: stap -e compiles a probe on a
# core marker and prints it; stap -L lists every core marker with typed
# arguments. (Compiling under TCG takes minutes: this is the one native
# compile of the pipeline and marker tests.)
# shellcheck disable=SC2016 # $name, $format are SystemTap's
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

mods=$project_dir/build/test-modules
[ -e "$mods/markers_gpl.ko" ] || die "no test modules; run tests/modules/build"
"$vm" run --timeout 1500 --share "$mods" -- bash -c '
	stap -L "kernel.mark(\"*\")"
	echo "== native"
	stap -e "probe kernel.mark(\"module_load\") { printf(\"%s|%s|%s\n\", \$name, \$format, \$arg1); exit() }" \
		-c "insmod /mnt/host/markers_gpl.ko"
	echo "== done"' >"$scratch/out" 2>&1 || true
cat "$scratch/out"
check "stap -e compiled natively in the guest and its probe printed the core marker" \
	grep -qx 'module_load|name %s taints %#lx|markers_gpl' "$scratch/out"
while IFS="$(printf '\t')" read -r name _ _; do
	check "native stap -L lists core marker $name with typed arguments" \
		grep -q "^kernel.mark(\"$name\").format(\".*\") \$name:string \$format:string" "$scratch/out"
done < <(grep "$(printf '\tvmlinux\t')" "$kbuild/Module.markers")
check "native stap -L knows the test module's markers (merged from the binary)" \
	grep -q 'kernel.mark("test_gpl_args").format("u %u d %d llu %llu x %x s %s c %c p %p") $name:string $format:string $arg1:long $arg2:long $arg3:long $arg4:long $arg5:string $arg6:long $arg7:long' "$scratch/out"
finish
