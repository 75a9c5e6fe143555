#!/bin/bash
# Every one-liner of tools/oneliners/systemtap.md runs in the guest with its
# workload, and its output has the lines the entry expects.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

"$project_dir/tools/oneliners/oneliners" check systemtap
