// SPDX-License-Identifier: GPL-2.0
/*
 * The proprietary case for the tests: a module that declares
 * MODULE_LICENSE("Proprietary"), so it taints the kernel P and may use no
 * GPL-only symbol, and still carries markers. Writing N to its "fire"
 * parameter fires each marker N times with the values of
 * markers_test_values.h. (The source is GPL like the rest of the project;
 * only the module's declared licence matters to the kernel.)
 */
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "markers_test_values.h"

MT_DEFINE_FIRE_PARAM(test_prop_args, test_prop_noargs);

MODULE_LICENSE("Proprietary");
MODULE_DESCRIPTION("markers test module (declared proprietary)");
