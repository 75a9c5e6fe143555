// SPDX-License-Identifier: GPL-2.0
/* The first of the twins: see markers_twin.h */
#define MT_TWIN 1U
#include "markers_twin.h"
MODULE_DESCRIPTION("markers test module: twin a");
