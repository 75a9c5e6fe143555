// SPDX-License-Identifier: GPL-2.0
/* The second of the twins: see markers_twin.h */
#define MT_TWIN 2U
#include "markers_twin.h"
MODULE_DESCRIPTION("markers test module: twin b");
