# Shared by the build and guest scripts: where things live and how they are keyed.
# shellcheck shell=bash

# The checkout this script belongs to.
project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Caches live outside the checkout so a fresh clone reuses them; every entry is
# named by a hash of what it is built from, so a changed input makes a new one.
cache_dir=${KM_CACHE:-/var/cache/kernel-markers}

# The kernel source comes from this Debian package.
# shellcheck disable=SC2034 # used by the scripts that source this file
kernel_source_package=linux-source-6.1
# shellcheck disable=SC2034
kernel_source_tarball=/usr/src/linux-source-6.1.tar.xz

say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "error: $*"; exit 1; }
step() { printf '==> %s\n' "$*" >&2; }

hash16() { sha256sum | cut -c1-16; }

# key_of WHAT CMD...: the hash16 of what CMD prints, or die when CMD fails.
# A cache key of partial input (a dpkg-query that failed, a file that
# could not be read) would name a cache entry made from something else,
# so CMD writes into a file, not a pipe, and each of its steps returns on
# failure (errexit would not do: bash ignores it in functions called from
# a condition, as these are).
key_of() {
	local what=$1 inputs status=0
	shift
	inputs=$(mktemp /tmp/km-key.XXXXXX)
	"$@" >"$inputs" || status=$?
	if [ "$status" != 0 ]; then
		rm -f "$inputs"
		die "cannot compute the cache key of $what: reading its inputs failed (exit $status)"
	fi
	hash16 <"$inputs"
	rm -f "$inputs"
}

root_key_inputs() {
	cat "$project_dir/guest-image/root-packages" "$project_dir/guest-image/mkroot" \
		"$project_dir/guest-image/stap-fix" "$project_dir/guest-image/stap-wrapper"
}
root_key() { key_of "the build root" root_key_inputs; }

root_dir() {
	local key
	key=$(root_key) || exit 1
	printf '%s/root-%s\n' "$cache_dir" "$key"
}

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
	printf '%s/states-%s\n' "$cache_dir" "$key"
}

# The cache directory of the kernel of flavour $1 (default: KM_FLAVOUR, main).
kernel_dir() {
	local flavour key
	flavour=$(kernel_flavour "${1:-}") || exit 1
	key=$(kernel_key "$flavour") || exit 1
	if [ "$flavour" = main ]; then
		printf '%s/kernel-%s\n' "$cache_dir" "$key"
	else
		printf '%s/kernel-%s-%s\n' "$cache_dir" "$flavour" "$key"
	fi
}

# Remove all but the newest $2 cache entries matching $1 (a glob in cache_dir),
# so the cache does not grow without bound as keys change.
prune_cache() {
	local pattern=$1 keep=$2
	# shellcheck disable=SC2012,SC2086 # the pattern is a glob on purpose; names are hex keys
	ls -1dt "$cache_dir"/$pattern 2>/dev/null | tail -n +"$((keep + 1))" |
		while read -r old; do
			say "pruning old cache entry $old"
			rm -rf "$old"
		done
}

# Run a command in the build root: chroot with proc, dev and a private /tmp,
# plus each PATH given before "--" bind-mounted at the same path. It all
# happens in a private mount namespace, so every mount disappears with the
# command, also when it fails or is interrupted.
#   in_build_root [PATH...] -- CMD...
# KM_CCACHE=no turns off the compiler cache that kernel_make puts in front
# of gcc (CCACHE_DISABLE, same objects). The cache pays from a machine's
# second kernel build on; a cold one makes each compile about 30% slower,
# which is all a machine that builds once (CI) gets from it.
in_build_root() {
	local root ccache_env=
	root=$(root_dir)
	[ -e "$root/.built" ] || die "the build root is missing ($root); run 'make root'"
	case ${KM_CCACHE:-yes} in
	yes) ;;
	no) ccache_env=CCACHE_DISABLE=1 ;;
	*) die "KM_CCACHE is yes or no, not '$KM_CCACHE'" ;;
	esac
	# shellcheck disable=SC2016 # the inner script expands its own arguments
	unshare --mount --propagation private -- bash -c '
		set -eu
		root=$1 ccache_env=$2; shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" ${ccache_env:+"$ccache_env"} \
			/bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$PWD" "$@"
	' in_build_root "$root" "$ccache_env" "$@"
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

# take_stap_lock: hold, until this process ends, the lock of the build
# root's stap cache (/root/.systemtap: autoconf results, tracequery
# objects). stap does not lock it itself, and tests/run compiles in two
# lanes at once: without the lock one stap can read a header another is
# still writing there.
take_stap_lock() {
	mkdir -p "$cache_dir"
	exec 9>>"$cache_dir/stap.lock"
	flock 9
}

# Run make (or another command, with "--cmd") in kernel tree $1 in the build
# root, with ccache. ccache keys on paths relative to the tree's parent, so
# trees under other keys share its entries.
#   kernel_make TREE [MAKE-ARGS...]    kernel_make TREE --cmd CMD...
kernel_make() {
	local tree=$1 kdir
	shift
	kdir=$(dirname "$tree")
	mkdir -p "$cache_dir/ccache"
	if [ "${1:-}" = --cmd ]; then shift; else set -- make "$@"; fi
	in_build_root "$kdir" "$cache_dir/ccache" "$project_dir" -- \
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
