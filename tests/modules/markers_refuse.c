// SPDX-License-Identifier: GPL-2.0
/*
 * Markers whose formats get no trace event, each for a reason of its own,
 * while the module loads and its markers work for other probes:
 * test_conv_wide (a width beyond what vsnprintf() takes),
 * test_conv_longconv (a conversion longer than 24 characters) and
 * test_conv_longfmt (a format longer than 1024 characters, which
 * markers-elf does not merge into Module.markers either) and
 * test_conv_symbols (six symbols, %pS with a width before the 'p', whose
 * names a line could not hold). Writing N to "fire" fires each N times.
 */
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

/* Most firings one write to "fire" may ask for */
#define MR_FIRE_MAX	100000U

/* 64 characters, 17 times: a format over 1024 characters */
#define MR_64 "................................................................"
#define MR_LONG_TEXT MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 \
	MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 MR_64 MR_64

static int fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MR_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(test_conv_wide, "w %9999999d after %u", 1, 51966U);
		trace_mark(test_conv_longconv, "v %-8.0000000000000000002llx after %u",
			   0x1234ULL, 51966U);
		trace_mark(test_conv_longfmt, MR_LONG_TEXT " after %u", 51966U);
		trace_mark(test_conv_symbols,
			   "s %20pS %20pS %20pS %20pS %20pS %20pS after %u",
			   fire_set, fire_set, fire_set, fire_set, fire_set,
			   fire_set, 51966U);
	}
	return 0;
}

static const struct kernel_param_ops fire_ops = { .set = fire_set };
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fire every marker of this module N times");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module: formats that get no trace event");
