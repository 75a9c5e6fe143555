// SPDX-License-Identifier: GPL-2.0
/*
 * A module with markers that go wrong, for the tests:
 *
 * - one bad site among good ones: a struct marker in __markers whose name
 *   and format lie outside __markers_strings, as a corrupt or hand-made
 *   object could have it. The kernel must leave out that site only:
 *   writing N to "fire" fires the good markers N times with the values
 *   of markers_test_values.h;
 * - writing N to "fire_odd" fires, N times: test_bad_untyped, whose
 *   format has a conversion a trace event cannot type (%qd: gcc takes
 *   it, printk does not);
 *   test_gpl_args, the name of a marker of markers_gpl.ko with another
 *   format; and test_bad_strings, whose %s arguments are NULL, an
 *   address that cannot be read, and a string.
 */
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "markers_test_values.h"

MT_DEFINE_FIRE_PARAM(test_bad_good_args, test_bad_good_noargs);

/* In .rodata, not in __markers_strings */
static const char bad_record[] = "test_bad_outside\0x %d";

static struct marker bad_site __used __section("__markers") __aligned(8) =
	__MARKER_INIT(bad_record, bad_record + sizeof("test_bad_outside"));

/* Out of the compiler's sight, so it does not warn about a NULL %s */
static const char *volatile no_string;
static const char *volatile bad_string = (const char *)0xdead000000000000UL;

static int fire_odd_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MT_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(test_bad_untyped, "size %qd", (long long)sizeof(bad_record));
		trace_mark(test_gpl_args, "other %d", 1);
		trace_mark(test_bad_strings, "null %s bad %s good %s",
			   no_string, bad_string, "ok");
	}
	return 0;
}

static const struct kernel_param_ops fire_odd_ops = { .set = fire_odd_set };
module_param_cb(fire_odd, &fire_odd_ops, NULL, 0200);
MODULE_PARM_DESC(fire_odd, "fire the odd markers N times");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module with one bad marker site");
