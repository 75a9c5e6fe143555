// SPDX-License-Identifier: GPL-2.0
/*
 * A module with one bad marker site among good ones, for the tests: the
 * site is a struct marker in __markers whose name and format lie outside
 * __markers_strings, as a corrupt or hand-made object could have it. The
 * kernel must leave out that site only: writing N to "fire" fires the good
 * markers N times with the values of markers_test_values.h.
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

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module with one bad marker site");
