#!/bin/bash
# The patch series applies, in order, to the pristine Debian source.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=guest-image/lib.sh
. guest-image/lib.sh

tar -xf "$kernel_source_tarball" -C "$scratch"
apply_series "$scratch/linux-source-6.1"
