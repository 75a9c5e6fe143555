#!/bin/bash
# Every one-liner of tools/oneliners/zfs.md (OpenZFS's events for
# SystemTap, bpftrace, perf and ftrace) runs in a guest of its own, on a
# fresh pool, with its workload, and its output has the lines the entry
# expects.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ "${KM_FLAVOUR:-main}" != main ]; then
	skip "OpenZFS's one-liners on the $KM_FLAVOUR kernel" "OpenZFS's configure refuses a kernel with lockdep (CONFIG_DEBUG_LOCK_ALLOC)"
	finish
fi
"$project_dir/tools/oneliners/oneliners" check zfs
