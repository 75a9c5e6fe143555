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

static int fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MT_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(test_prop_args, MT_FORMAT,
			   MT_U, MT_D, MT_LLU, MT_X, MT_S, MT_C, MT_P);
		trace_mark(test_prop_noargs, MARK_NOARGS);
	}
	return 0;
}

static const struct kernel_param_ops fire_ops = { .set = fire_set };
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fire every marker of this module N times");

MODULE_LICENSE("Proprietary");
MODULE_DESCRIPTION("markers test module (declared proprietary)");
