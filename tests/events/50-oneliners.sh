#!/bin/bash
# Every one-liner of tools/oneliners/tracers.md (bpftrace, perf,
# ftrace) runs in a guest of its own with its workload, and its output has
# the lines the entry expects.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

"$project_dir/tools/oneliners/oneliners" check tracers
