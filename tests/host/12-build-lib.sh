#!/bin/bash
# The build scripts' library (lib/), on made-up scripts: keep_alive's
# ticker leaves a script's exit status as it was (a failing kill in the
# EXIT trap once made kernel/build-states exit 1 after building every
# state, once the shell had reaped the ticker), key_of refuses to make a
# cache key of inputs it could not read in full, and an entry in use
# outlives prune_cache (two checkouts sharing KM_CACHE once pruned the
# kernel view the other's running tests used).
# shellcheck source=tests/lib.sh
# shellcheck disable=SC2016 # the made-up scripts expand their own arguments
. "$(dirname "$0")/../lib.sh"

# after_keep_alive STATUS: a set -e script that starts and stops the
# ticker, runs a few commands (the shell reaps the ticker meanwhile), then
# exits STATUS; prints the status it exited with
after_keep_alive() {
	local status=0
	KM_CACHE=$scratch/cache bash -c '
		set -eu
		. "$1/lib/cache.sh"
		keep_alive "still working"
		keep_alive_end
		sleep 0.3
		ls / >/dev/null
		exit "$2"' after-keep-alive "$project_dir" "$1" >/dev/null 2>&1 || status=$?
	echo "$status"
}
for want in 0 3; do
	got=$(after_keep_alive "$want")
	check "a script that stopped keep_alive exits $want as it meant (got $got)" [ "$got" = "$want" ]
done
# ... and one that never stopped it: the trap stops the ticker at exit
status=0
KM_CACHE=$scratch/cache timeout 20 bash -c '
	set -eu
	. "$1/lib/cache.sh"
	keep_alive "still working"
	echo "$keep_alive_pid" >"$2/ticker"' never-stopped "$project_dir" "$scratch" >/dev/null 2>&1 || status=$?
check "a script that never stopped keep_alive exits 0 (got $status)" [ "$status" = 0 ]
ticker=$(cat "$scratch/ticker" 2>/dev/null) || ticker=""
# gone: the ticker is gone or a zombie (killed, its new parent not
# reaping yet), and its sleep with it
gone() {
	local state
	[ -n "$ticker" ] || return 1
	! pgrep -P "$ticker" >/dev/null || return 1
	state=$(ps -o stat= -p "$ticker") || return 0
	case $state in Z*) return 0 ;; *) return 1 ;; esac
}
sleep 0.5
check "... and its ticker is gone, with its sleep (pid ${ticker:-none})" gone

status=0
out=$(KM_CACHE=$scratch/cache bash -c '
	set -eu
	. "$1/lib/cache.sh"
	inputs() { echo part && cat /nonexistent/input; }
	key_of "a made-up entry" inputs' key-of "$project_dir" 2>&1) || status=$?
check "key_of refuses inputs it could not read in full (exit $status)" [ "$status" = 1 ]
check "... naming the entry" grep -q "cannot compute the cache key of a made-up entry" <<<"$out"
key=$(KM_CACHE=$scratch/cache bash -c '. "$1/lib/cache.sh"; inputs() { echo whole; }; key_of "a made-up entry" inputs' key-of "$project_dir")
check "... and makes one of inputs read in full ($key)" [ "$key" = "$(echo whole | sha256sum | cut -c1-16)" ]

# An old entry found up to date (cache_used), then two new ones made,
# keeping two: the one in use stays, the other old one goes
mkdir -p "$scratch/cache/view-used" "$scratch/cache/view-unused"
touch -d '2 hours ago' "$scratch/cache/view-used" "$scratch/cache/view-unused"
KM_CACHE=$scratch/cache bash -c '
	set -eu
	. "$1/lib/cache.sh"
	cache_used "$cache_dir/view-used"
	sleep 1.1
	mkdir "$cache_dir/view-new"
	prune_cache "view-*" 2' cache-used "$project_dir" 2>/dev/null
check "prune_cache keeps an old entry just found up to date" [ -d "$scratch/cache/view-used" ]
check "... and prunes an old one nobody used" [ ! -e "$scratch/cache/view-unused" ]
# Every build script that finds a cache entry up to date marks it used:
# the views, images and debs where they reuse one, the root, kernels and
# states where their path is looked up (these scripts are inputs of the
# entries' keys: editing them would rebuild the kernel)
for script in kernel/view kernel/debs guest-image/mkimage; do
	check "$script marks the cache entry it reuses as used" \
		grep -q '^[[:space:]]*cache_used ' "$project_dir/$script"
done
for function in root_dir kernel_dir states_dir; do
	check "$function marks the cache entry it finds built as used" \
		grep -q 'cache_used ' <<<"$(bash -c '. "$1/lib/kernel.sh"; declare -f "$2"' lib "$project_dir" "$function")"
done
finish
