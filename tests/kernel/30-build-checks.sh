#!/bin/bash
# What the build refuses: a marker name of MARKER_NAME_MAX (64) characters
# or more fails to compile (static_assert in trace_mark()), while one of 63
# compiles; a __markers_strings record with such a name, made by hand
# where trace_mark() cannot check it, is a modpost error and never reaches
# a Module.markers (the module gets none, the tree's stays without it). External module builds in the build root against our
# kernel tree.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

[ -r "$kbuild/Module.symvers" ] || die "no built kernel tree; run 'make kernel'"
name63=n$(printf '%62s' '' | tr ' ' x)
name64=${name63}y

# mkmod DIR NAME SOURCE-BODY: a module in DIR with that body
mkmod() {
	mkdir -p "$1"
	printf 'obj-m := %s.o\n' "$2" >"$1/Kbuild"
	{
		printf '#include <linux/marker.h>\n#include <linux/module.h>\n'
		printf '%s\n' "$3"
		printf 'MODULE_LICENSE("GPL");\n'
	} >"$1/$2.c"
}
# build DIR: make the module in DIR, its output in DIR.log
build() { in_build_root "$(dirname "$kbuild")" "$scratch" -- make -C "$kbuild" M="$1" modules >"$1.log" 2>&1; }

mkmod "$scratch/ok63" name_ok "static int __init f(void) { trace_mark($name63, \"v %d\", 1); return 0; }
module_init(f);"
check "a marker name of 63 characters compiles" build "$scratch/ok63"
check "... and is in the module's Module.markers" grep -q "^$name63	name_ok	v %d\$" "$scratch/ok63/Module.markers"

mkmod "$scratch/long64" name_long "static int __init f(void) { trace_mark($name64, \"v %d\", 1); return 0; }
module_init(f);"
if build "$scratch/long64"; then status=0; else status=$?; fi
sed 's/^/# /' "$scratch/long64.log" | grep -i -e error -e assert | head -n 5
check "a marker name of 64 characters does not compile" [ "$status" != 0 ]
check "... and the compiler says why" grep -q "marker name $name64 is longer than 64 - 1 characters" "$scratch/long64.log"

# A record trace_mark() could not have made: straight into the section
mkmod "$scratch/asm64" name_asm "asm(\".pushsection __markers_strings,\\\"a\\\"\\n\\t.asciz \\\"$name64\\\"\\n\\t.asciz \\\"v %d\\\"\\n\\t.popsection\");"
if build "$scratch/asm64"; then status=0; else status=$?; fi
sed 's/^/# /' "$scratch/asm64.log" | grep -i error | head -n 5
check "a hand-made record with a 64-character name fails modpost" [ "$status" != 0 ]
check "... which says why" grep -q "ERROR: modpost: $scratch/asm64/name_asm: marker name \"$name64\" is not an identifier < 64 chars" "$scratch/asm64.log"
# modpost writes no file after an error (write_buf), so the module gets no
# Module.markers at all; and an external build leaves the kernel tree's
# alone. (Before, lacks passed on the missing file, whatever was in it.)
check "... and it reaches no Module.markers: the module gets none" test ! -e "$scratch/asm64/Module.markers"
check "... and the kernel tree's does not have it" lacks "$name64" "$kbuild/Module.markers"
finish
