// SPDX-License-Identifier: GPL-2.0
/*
 * Every conversion a driver may write, in a module that declares itself
 * proprietary (the case the markers are for). Writing N to "fire" fires
 * each marker below N times with the values of markers_conv.h, so that
 * every tracer can be checked for exactly those values, and for the
 * argument after each conversion (a misread conversion misplaces it):
 *
 * test_conv_narrow  %hd %hu %hhd %hhx %c: passed as ints, typed narrow
 * test_conv_named   %zu %zd %td %jd %ju %Ld: size_t, ptrdiff_t, intmax_t
 * test_conv_prec    %.4s of a 4-byte array without a NUL that ends a
 *                   mapped page, %-6.2s, %.0s of NULL: a precision is
 *                   the most a string conversion reads
 * test_conv_pct     "100%% done %u%%": a literal '%'
 *
 * Formats that get no trace event are markers_refuse's.
 */
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/vmalloc.h>

#include "markers_conv.h"

/* Most firings one write to "fire" may ask for */
#define MC_FIRE_MAX	100000U

/* A page of vmalloc space, followed by its unmapped guard page */
static char *mc_page;

static int fire_set(const char *val, const struct kernel_param *kp)
{
	/* The last 4 bytes of the page: "abcd", no NUL after them */
	char *edge = mc_page + PAGE_SIZE - 4;
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MC_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(test_conv_narrow, MC_NARROW_FORMAT, MC_S, MC_US,
			   MC_SC, MC_UC, MC_C, MC_AFTER);
		trace_mark(test_conv_named, MC_NAMED_FORMAT, MC_SZ, MC_SSZ,
			   MC_PD, MC_J, MC_JU, MC_L, MC_AFTER);
		trace_mark(test_conv_prec, MC_PREC_FORMAT, edge, MC_W,
			   (char *)NULL, MC_AFTER);
		trace_mark(test_conv_pct, MC_PCT_FORMAT, MC_AFTER);
	}
	return 0;
}

static const struct kernel_param_ops fire_ops = { .set = fire_set };
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fire every marker of this module N times");

static int __init markers_conv_init(void)
{
	mc_page = vmalloc(PAGE_SIZE);
	if (!mc_page)
		return -ENOMEM;
	memset(mc_page, 0, PAGE_SIZE);
	memcpy(mc_page + PAGE_SIZE - 4, "abcd", 4);
	return 0;
}
module_init(markers_conv_init);

static void __exit markers_conv_exit(void)
{
	vfree(mc_page);
}
module_exit(markers_conv_exit);

MODULE_LICENSE("Proprietary");
MODULE_DESCRIPTION("markers test module: every conversion (declared proprietary)");
