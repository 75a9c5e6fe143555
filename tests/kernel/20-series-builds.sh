#!/bin/bash
# The series is bisectable: after each patch, the kernel (vmlinux and
# modules) builds. kernel/build-states builds the tree patch by patch with
# the small config of kernel/config/states (out of tree) and stamps each
# state, in a cache entry of its own (made here when it is missing: make
# demo never builds it); this reports those stamps, that the states
# compiled every C file the series touches, and that the kernel we boot
# (kernel/build: the whole series, the guest's config) was built. Then,
# with CONFIG_MARKERS=n, the files the series touches and a module using
# trace_mark() still compile, and trace_mark() leaves nothing behind in
# the object: in a tree of its own (the kernel's must stay as it was
# built), kept in the cache under the kernel's key.
#
# From scratch the states take ~25 min alone, and tests/run runs this
# beside the guests of the other lane: niced, so that those keep their
# speed, and with a timeout of its own. Under make check they have been
# building in the background since the root was made (Makefile:
# states-background), and this waits for that build.
# timeout: 7200
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

final_config=$kbuild/.config
[ -r "$final_config" ] || die "no configured kernel tree; run 'make kernel'"
kdir=$(kernel_dir main)
[ "$kdir/linux" = "$(readlink -f build/kernel)" ] || die "build/kernel is not the kernel of this checkout ($kdir); run 'make kernel'"
check "the kernel we boot built (the whole series, the guest's config, $(cat "$kdir/.build-seconds" 2>/dev/null || echo '?') s)" \
	test -e "$kdir/.built"
echo "# building the per-patch states (kernel/build-states; a few minutes per state from scratch, cached after)"
sdir=$(nice -n 10 kernel/build-states) || die "kernel/build-states failed (see above)"
mapfile -t patches < <(series_patches)
n=${#patches[@]}
built=0
for i in $(seq 1 "$n"); do
	patch=${patches[$((i - 1))]}
	if [ -e "$sdir/.built-$i" ] && head -n 1 "$sdir/build-$i.log" | grep -q '^nothing built: '; then
		built=$((built + 1))
		ok "after patch $i ($patch) the kernel builds as after patch $((i - 1)) ($(head -n 1 "$sdir/build-$i.log"))"
	elif [ -e "$sdir/.built-$i" ]; then
		built=$((built + 1))
		ok "after patch $i ($patch) the kernel builds (states config, $(cat "$sdir/.built-$i") s)"
	elif [ -e "$sdir/.failed-$i" ]; then
		grep -E 'error|Error' "$sdir/build-$i.log" | head -n 20 | sed 's/^/# /'
		not_ok "after patch $i ($patch) the kernel builds (log: $sdir/build-$i.log)"
	else
		not_ok "after patch $i ($patch) the kernel builds (no record of that state in $sdir)"
	fi
done
figure "series: $built of $n per-patch states built"

# What the states' config compiles: every C file the patches change or add
# has its object in the states' tree (scripts/mod/modpost.c too, a host
# program).
mapfile -t state_files < <(for patch in "${patches[@]}"; do
	sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "kernel/patches/$patch"
done | sort -u)
[ "${#state_files[@]}" -gt 0 ] || not_ok "the series touches C files (none found in its patches)"
for f in "${state_files[@]}"; do
	check "the per-patch states compile $f" test -s "$sdir/states/${f%.c}.o"
done

tree=$cache_dir/nomarkers-$(kernel_key main)/linux
if [ ! -e "$tree/.series-applied" ]; then
	rm -rf "$(dirname "$tree")"
	mkdir -p "$(dirname "$tree")"
	unpack_kernel_source "$tree"
	apply_series "$tree"
	touch "$tree/.series-applied"
fi
prune_cache 'nomarkers-*' 2

# CONFIG_MARKERS=n: compile what the series touches, and a module with markers.
if [ -e "$tree/.series-applied" ]; then
	cp "$final_config" "$tree/.config"
	kernel_make "$tree" --cmd scripts/config --disable MARKERS --disable MARKERS_KUNIT_TEST
	kernel_make "$tree" -s olddefconfig
	check "CONFIG_MARKERS=n took" grep -qx '# CONFIG_MARKERS is not set' "$tree/.config"
	# The C files the series changes, not those it adds: these exist only
	# with CONFIG_MARKERS (kernel/marker.c, kernel/trace/trace_markers.c)
	mapfile -t objects < <(cat kernel/patches/*.patch | awk '
		/^--- / { old = $2 }
		/^\+\+\+ b\/.*\.c$/ { f = substr($2, 3); if (old == "/dev/null") added[f] = 1; else changed[f] = 1 }
		END { for (f in changed) if (!(f in added)) { sub(/\.c$/, ".o", f); print f } }' |
		sort | grep -v -e '^scripts/')
	check "with CONFIG_MARKERS=n, ${objects[*]} compile" kernel_make "$tree" -s "${objects[@]}"
	mod=$scratch/module
	mkdir -p "$mod"
	cp tests/modules/*.c tests/modules/*.h tests/modules/Kbuild "$mod/"
	kernel_make "$tree" -s modules_prepare >/dev/null 2>&1 || true
	check "with CONFIG_MARKERS=n, modules with trace_mark() compile" \
		in_build_root "$(dirname "$tree")" "$scratch" -- make -s -C "$tree" M="$mod" KBUILD_MODPOST_WARN=1 modules
	# What is looked at must be there: objdump's section table of the
	# object (it has a .text), and the object itself (it has the module's
	# parameter names, which do not depend on CONFIG_MARKERS)
	no_markers_section() {
		objdump -h "$mod/markers_gpl.o" >"$scratch/sections" 2>&1 &&
			grep -q ' \.text ' "$scratch/sections" && lacks __markers "$scratch/sections"
	}
	no_marker_strings() { grep -aq register_format "$mod/markers_gpl.o" && lacks test_gpl_args "$mod/markers_gpl.o"; }
	check "with CONFIG_MARKERS=n, trace_mark() leaves no __markers section" no_markers_section
	check "with CONFIG_MARKERS=n, trace_mark() leaves no marker strings" no_marker_strings
fi
finish
