# Our kernel: Debian's source, the series, the config fragments; the keys
# of the kernel trees and of the per-patch states, and how a tree is
# patched, configured and built (kernel/build, kernel/build-states).
# shellcheck shell=bash
# shellcheck source=lib/build-root.sh
. "$(dirname "${BASH_SOURCE[0]}")/build-root.sh"

# The kernel source comes from this Debian package.
# shellcheck disable=SC2034 # used by the scripts that source this file
kernel_source_package=linux-source-6.1

# shellcheck disable=SC2034
kernel_source_tarball=/usr/src/linux-source-6.1.tar.xz

# The kernel's flavour: "main" (the guest's kernel, config fragments
# kernel/config/*.config) or "debug" (the same plus
# kernel/config/debug/*.config: lockdep, KASAN, kmemleak), for make
# check-debug. Set KM_FLAVOUR, or give it to the functions below.
kernel_flavour() {
	case ${1:-${KM_FLAVOUR:-main}} in
	main | debug) echo "${1:-${KM_FLAVOUR:-main}}" ;;
	*) die "the kernel flavour is main or debug, not '${1:-$KM_FLAVOUR}'" ;;
	esac
}

# The config fragments of flavour $1, in the order they are merged.
config_fragments() {
	printf '%s\n' "$project_dir"/kernel/config/*.config
	[ "$(kernel_flavour "${1:-}")" = main ] || printf '%s\n' "$project_dir"/kernel/config/debug/*.config
}

kernel_key() {
	local flavour
	flavour=$(kernel_flavour "${1:-}") || exit 1
	key_of "the $flavour kernel" kernel_key_inputs "$flavour"
}

kernel_key_inputs() {
	local flavour=$1
	series_key_inputs || return
	cat "$project_dir/kernel/build" || return
	# How the tree is made and built
	declare -f apply_series configure_kernel configure_from \
		kernel_make kernel_build_timestamp config_fragments || return
	config_fragments "$flavour" | xargs cat || return
}

# What every tree of the series is made from: Debian's source, the
# toolchain of the build root and the patches.
series_key_inputs() {
	local root patch patches
	root=$(root_dir) || return
	dpkg-query -W -f='${Package} ${Version}\n' "$kernel_source_package" || return
	# The toolchain in the build root, not the whole root: adding a
	# tool to the root must not rebuild the kernel.
	dpkg-query --admindir="$root/var/lib/dpkg" -W \
		-f='${Package} ${Version}\n' gcc-14 binutils libelf-dev libssl-dev || return
	cat "$project_dir/kernel/patches/series" || return
	declare -f series_patches || return
	patches=$(series_patches) || return
	for patch in $patches; do
		cat "$project_dir/kernel/patches/$patch" || return
	done
}

# The per-patch build states (kernel/build-states): the series, their
# config and how they are built; a cache entry of their own, so that
# building the kernel we boot (make demo) never builds them.
states_key_inputs() {
	series_key_inputs || return
	cat "$project_dir/kernel/build-states" "$project_dir"/kernel/config/states/*.config || return
	declare -f configure_from kernel_make kernel_build_timestamp || return
}

states_dir() {
	local key
	key=$(key_of "the per-patch build states" states_key_inputs) || exit 1
	[ ! -e "$cache_dir/states-$key/.built" ] || cache_used "$cache_dir/states-$key"
	printf '%s/states-%s\n' "$cache_dir" "$key"
}

# The cache directory of the kernel of flavour $1 (default: KM_FLAVOUR, main).
kernel_dir() {
	local flavour key dir
	flavour=$(kernel_flavour "${1:-}") || exit 1
	key=$(kernel_key "$flavour") || exit 1
	dir=$cache_dir/kernel-$key
	[ "$flavour" = main ] || dir=$cache_dir/kernel-$flavour-$key
	[ ! -e "$dir/.built" ] || cache_used "$dir"
	printf '%s\n' "$dir"
}

# unpack_kernel_source TREE: Debian's linux-source-6.1 unpacked as TREE,
# whose parent directory exists and holds no linux-source-6.1
unpack_kernel_source() {
	local tree=$1
	[ -r "$kernel_source_tarball" ] || die "$kernel_source_tarball is missing; run 'make deps'"
	tar -xf "$kernel_source_tarball" -C "$(dirname "$tree")"
	mv "$(dirname "$tree")/linux-source-6.1" "$tree"
}

# The patches kernel/patches/series lists, one per line, in order (the
# series' comment lines and blank lines are its sections).
series_patches() {
	local series=$project_dir/kernel/patches/series
	[ -f "$series" ] || die "missing $series"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series"
}

# Apply kernel/patches/series to the tree in $1, stopping at the first patch
# that does not apply, named.
apply_series() {
	local tree=$1 series=$project_dir/kernel/patches/series patch n=0
	[ -f "$series" ] || die "missing $series"
	while read -r patch; do
		n=$((n + 1))
		[ -f "$project_dir/kernel/patches/$patch" ] || die "series lists $patch, which does not exist"
		if ! patch -d "$tree" -p1 -s -N --batch --no-backup-if-mismatch \
			<"$project_dir/kernel/patches/$patch" >"$tree/.patch.log" 2>&1; then
			cat "$tree/.patch.log" >&2
			die "patch $n ($patch) does not apply"
		fi
	done < <(series_patches)
	rm -f "$tree/.patch.log"
	say "applied $n patch(es) from kernel/patches/series"
}

# The date the kernel says it was built (uname -v): the date of the source
# package, not of the build. With the build number fixed (#1; kbuild
# counts up at every relink otherwise), the same inputs give the same
# kernel, and a later make in the tree (bindeb-pkg) relinks nothing.
kernel_build_timestamp() {
	LC_ALL=C date -u -d "@$(stat -c %Y "$kernel_source_tarball")"
}

# Run make (or another command, with "--cmd") in kernel tree $1 in the build
# root, with ccache. ccache keys on paths relative to the tree's parent, so
# trees under other keys share its entries. With --parent-from DIR, DIR is
# mounted as the tree's parent: a copy of a tree is built at the path it
# was built at, as kbuild and objtool record absolute paths, and a copy
# at another path would be built again from scratch.
#   kernel_make [--parent-from DIR] TREE [MAKE-ARGS...]
#   kernel_make [--parent-from DIR] TREE --cmd CMD...
kernel_make() {
	local tree kdir parent
	if [ "$1" = --parent-from ]; then
		parent=$2
		shift 2
	fi
	tree=$1
	shift
	kdir=$(dirname "$tree")
	mkdir -p "$cache_dir/ccache"
	if [ "${1:-}" = --cmd ]; then shift; else set -- make "$@"; fi
	in_build_root "${parent:-$kdir}=$kdir" "$cache_dir/ccache" "$project_dir" -- \
		env -C "$tree" PATH=/usr/lib/ccache:/usr/sbin:/usr/bin:/sbin:/bin \
		CCACHE_DIR="$cache_dir/ccache" CCACHE_BASEDIR="$kdir" CCACHE_NOHASHDIR=true \
		CCACHE_MAXSIZE=5G KBUILD_BUILD_USER=markers KBUILD_BUILD_HOST=markers-build \
		KBUILD_BUILD_TIMESTAMP="$(kernel_build_timestamp)" KBUILD_BUILD_VERSION=1 \
		"$@"
}

# Configure kernel tree $1 for flavour $2: x86_64_defconfig +
# kvm_guest.config + the flavour's fragments (config_fragments).
configure_kernel() {
	local tree=$1 fragments
	mapfile -t fragments < <(config_fragments "${2:-}")
	configure_from "$tree" "$tree" x86_64_defconfig \
		"$tree/kernel/configs/kvm_guest.config" "${fragments[@]}"
}

# configure_from TREE OUTDIR BASE FRAGMENT...: configure kernel TREE, its
# output in OUTDIR (TREE itself, or a directory for make O=), from the
# make target BASE (x86_64_defconfig, tinyconfig) and the fragments, then
# check that every option our fragments ask for stuck, as the last
# fragment to name it asked (merge_config.sh only warns when one does not:
# a missing dependency or a typo; for us that is an error). The kernel's
# own fragments (in TREE, e.g. kvm_guest.config) are merged as they are:
# they name options of other architectures.
configure_from() {
	local tree=$1 out=$2 base=$3 line opt missing=0 fragment
	shift 3
	local fragments=("$@") ours=() config=$out/.config output=()
	for fragment in "${fragments[@]}"; do
		case $fragment in "$tree"/*) ;; *) ours+=("$fragment") ;; esac
	done
	[ "$out" = "$tree" ] || output=(O="$out")
	kernel_make "$tree" -s "${output[@]}" "$base"
	kernel_make "$tree" --cmd scripts/kconfig/merge_config.sh -m -O "$out" "$config" \
		"${fragments[@]}" >"$out/.merge_config.log"
	kernel_make "$tree" -s "${output[@]}" olddefconfig
	while read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$config" || {
				say "requested $line, got: $(grep "^${line%%=*}=" "$config" || echo "not set")"
				missing=1
			}
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			if grep -q "^$opt=" "$config"; then
				say "requested $opt off, got: $(grep "^$opt=" "$config")"
				missing=1
			fi
			;;
		esac
	done < <(cat "${ours[@]}" | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { opt = $0; sub(/=.*/, "", opt) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { opt = $2 }
		opt != "" { last[opt] = $0; order[++n] = opt; opt = "" }
		END { for (i = 1; i <= n; i++) if (!(order[i] in seen)) { seen[order[i]] = 1; print last[order[i]] } }')
	[ "$missing" = 0 ] || die "some requested config options did not stick (see above)"
}
