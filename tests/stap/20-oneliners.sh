#!/bin/bash
# Every one-liner of stap-scripts/ONELINERS.md runs in the guest with its
# workload, and its output has the lines the entry expects.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

"$project_dir/stap-scripts/oneliners" check
