# The build root: the debootstrapped trixie that is both the build chroot
# (gcc-14, SystemTap) and the guest's root; its key, its place in the cache
# and how to run a command in it.
# shellcheck shell=bash
# shellcheck source=lib/cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/cache.sh"

# Where the root keeps OpenZFS's source package (guest-image/mkroot
# downloads it, zfs/build unpacks it): a path inside the root.
# shellcheck disable=SC2034 # used by the scripts that source this file
zfs_source_dir=/usr/local/src/openzfs

root_key_inputs() {
	cat "$project_dir/guest-image/root-packages" "$project_dir/guest-image/mkroot" \
		"$project_dir/guest-image/stap-fix" "$project_dir/guest-image/stap-wrapper"
}

root_key() { key_of "the build root" root_key_inputs; }

root_dir() {
	local key
	key=$(root_key) || exit 1
	[ ! -e "$cache_dir/root-$key/.built" ] || cache_used "$cache_dir/root-$key"
	printf '%s/root-%s\n' "$cache_dir" "$key"
}

# Run a command in the build root: chroot with proc, dev and a private /tmp,
# plus each PATH given before "--" bind-mounted at the same path, or, given
# as HOST_PATH=PATH, HOST_PATH at PATH. It all happens in a private mount
# namespace, so every mount disappears with the command, also when it
# fails or is interrupted.
#   in_build_root [PATH | HOST_PATH=PATH...] -- CMD...
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
			mkdir -p "$root${1#*=}"
			mount --bind "${1%%=*}" "$root${1#*=}"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" ${ccache_env:+"$ccache_env"} \
			/bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$PWD" "$@"
	' in_build_root "$root" "$ccache_env" "$@"
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
