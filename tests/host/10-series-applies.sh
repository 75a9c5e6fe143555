#!/bin/bash
# The patch series applies, in order, to the pristine Debian source.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=guest-image/lib.sh
. guest-image/lib.sh

unpack_kernel_source "$scratch/linux"
apply_series "$scratch/linux"
