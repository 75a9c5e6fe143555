# The project's cache of big artifacts (build root, kernel trees, guest
# images, ccache) and how its entries are keyed, with the messages every
# build script prints. Sourced by lib/build-root.sh and lib/kernel.sh.
# shellcheck shell=bash

# The checkout this script belongs to.
# shellcheck disable=SC2034 # used by the scripts that source this file
project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Caches live outside the checkout so a fresh clone reuses them; every entry is
# named by a hash of what it is built from, so a changed input makes a new one.
cache_dir=${KM_CACHE:-/var/cache/kernel-markers}

say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# A test (tests/lib.sh) has its own die, a "not ok" line: keep it when
# the test sources this library after it
declare -F die >/dev/null || die() { say "error: $*"; exit 1; }

step() { printf '==> %s\n' "$*" >&2; }

hash16() { sha256sum | cut -c1-16; }
# A glob of exactly one key (hash16), for prune_cache: "kernel-$key_glob"
# is a main kernel's entry, never the debug kernel's "kernel-debug-KEY"
# (a glob like kernel-[0-9a-f]* matches that too: "d" is a hex digit).
# shellcheck disable=SC2034 # used by the scripts that source this file
key_glob=$(printf '[0-9a-f]%.0s' {1..16})

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

# keep_alive WHAT: say "WHAT (N s)" every minute until keep_alive_end or
# the script's end, so that a long build shows it is alive. The exit trap
# tolerates a ticker already gone: a failing command in an EXIT trap of a
# set -e script becomes the script's exit status, and the shell may have
# reaped the killed ticker by then.
keep_alive() {
	local what=$1 start
	start=$(date +%s)
	(while sleep 60; do say "$what ($(($(date +%s) - start)) s)"; done) &
	keep_alive_pid=$!
	trap keep_alive_end EXIT
}
# keep_alive_end: the ticker's sleep first (the loop then ends by itself),
# so that no sleep outlives the script
keep_alive_end() {
	[ -n "${keep_alive_pid:-}" ] || return 0
	pkill -P "$keep_alive_pid" 2>/dev/null || true
	kill "$keep_alive_pid" 2>/dev/null || true
	keep_alive_pid=
}

# cache_used ENTRY: mark a cache entry found up to date as just used.
# prune_cache keeps the newest entries by modification time, and checkouts
# that share KM_CACHE prune each other's: an entry in use by one (a
# kernel view made an hour ago, its build/linux pointing at it) must not
# look old to another that makes new ones.
cache_used() {
	touch -c "$1"
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
