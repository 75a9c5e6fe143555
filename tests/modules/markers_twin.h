/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two modules, markers_twin_a and markers_twin_b, with a marker of the
 * same name and format, test_twin "twin %u n %u": one trace event,
 * markers:test_twin, which must outlive the module that made it as long
 * as the other one is loaded. Writing N to "fire" fires it N times, with
 * the module's number (MT_TWIN) and the firing's.
 */
#ifndef MARKERS_TWIN_H
#define MARKERS_TWIN_H

#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static int fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times, i;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > 1000000U)
		return -ERANGE;
	for (i = 0; i < times; i++)
		trace_mark(test_twin, "twin %u n %u", MT_TWIN, i);
	return 0;
}

static const struct kernel_param_ops fire_ops = { .set = fire_set };
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fire test_twin N times");

MODULE_LICENSE("GPL");

#endif
