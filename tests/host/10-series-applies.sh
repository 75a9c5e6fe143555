#!/bin/bash
# The patch series applies, in order, to the pristine Debian source.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

unpack_kernel_source "$scratch/linux"
apply_series "$scratch/linux"
