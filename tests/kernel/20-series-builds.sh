#!/bin/bash
# The series is bisectable: after each patch, the kernel (vmlinux and
# modules, our guest config) builds. Then, with CONFIG_MARKERS=n, the files
# the series touches and a module using trace_mark() still compile, and
# trace_mark() leaves nothing behind in the object.
#
# The tree lives in the cache next to the kernel's, under the same key; a
# patch whose build succeeded there is stamped, so a rerun for the very
# same series, config and toolchain reports those stamps instead of
# building every state again.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=guest-image/lib.sh
. guest-image/lib.sh

final_config=$kbuild/.config
[ -r "$final_config" ] || die "no configured kernel tree; run 'make kernel'"
bdir=$cache_dir/bisect-$(kernel_key)
tree=$bdir/linux
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' kernel/patches/series)
n=${#patches[@]}

# A run that was interrupted goes on where it stopped: .applied-N says
# patch N is in the tree, .built-N that the tree built after it.
if [ ! -e "$bdir/.applied-1" ]; then
	rm -rf "$bdir"
	mkdir -p "$bdir"
	tar -xf "$kernel_source_tarball" -C "$bdir"
	mv "$bdir/linux-source-6.1" "$tree"
fi
for i in $(seq 1 "$n"); do
	patch=${patches[$((i - 1))]}
	if [ -e "$bdir/.built-$i" ]; then
		ok "after patch $i ($patch) the kernel builds (stamped $(date -r "$bdir/.built-$i" '+%F %T'))"
		continue
	fi
	if [ ! -e "$bdir/.applied-$i" ]; then
		if ! patch -d "$tree" -p1 -s -N --batch <"kernel/patches/$patch"; then
			not_ok "patch $i ($patch) applies"
			break
		fi
		touch "$bdir/.applied-$i"
	fi
	# The final config, less the options this state does not know yet.
	cp "$final_config" "$tree/.config"
	start=$(date +%s)
	if kernel_make "$tree" -s olddefconfig &&
		kernel_make "$tree" -j"$(nproc)" vmlinux modules >"$bdir/build-$i.log" 2>&1; then
		touch "$bdir/.built-$i"
		ok "after patch $i ($patch) the kernel builds ($(($(date +%s) - start)) s)"
	else
		grep -E 'error|Error' "$bdir/build-$i.log" | head -n 20
		not_ok "after patch $i ($patch) the kernel builds (log: $bdir/build-$i.log)"
		break
	fi
done

# CONFIG_MARKERS=n: compile what the series touches, and a module with markers.
if [ -e "$bdir/.built-$n" ]; then
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
	objdump -h "$mod/markers_gpl.o" >"$scratch/sections" 2>&1 || true
	check "with CONFIG_MARKERS=n, trace_mark() leaves no __markers section" lacks __markers "$scratch/sections"
	check "with CONFIG_MARKERS=n, trace_mark() leaves no marker strings" lacks test_gpl_args "$mod/markers_gpl.o"
	# Leave the tree as the stamps say it is.
	cp "$final_config" "$tree/.config"
	kernel_make "$tree" -s olddefconfig
fi
finish
