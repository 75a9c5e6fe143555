// SPDX-License-Identifier: GPL-2.0
/*
 * A GPL module with markers, for the tests: writing N to its "fire"
 * parameter fires each of its markers N times with the values of
 * markers_test_values.h. Writing a format to "register_format" registers
 * a probe on the core marker module_load with that format through the
 * API and logs what marker_probe_register() returned.
 */
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "markers_test_values.h"

MT_DEFINE_FIRE_PARAM(test_gpl_args, test_gpl_noargs);

static void noop_probe(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
}

static int register_format_set(const char *val, const struct kernel_param *kp)
{
	char format[64];
	int ret;

	strscpy(format, val, sizeof(format));
	strim(format);
	ret = marker_probe_register("module_load", format, noop_probe, NULL);
	pr_info("register module_load with format \"%s\": %d\n", format, ret);
	if (!ret)
		marker_probe_unregister("module_load", noop_probe, NULL);
	return 0;
}

static const struct kernel_param_ops register_format_ops = {
	.set = register_format_set,
};
module_param_cb(register_format, &register_format_ops, NULL, 0200);
MODULE_PARM_DESC(register_format,
		 "register a probe on module_load with this format, log the result");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module (GPL)");
