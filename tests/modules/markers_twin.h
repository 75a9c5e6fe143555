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

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>

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

/*
 * A module whose exit() is running is going, yet its sites stay
 * connected until its going notifiers: with hold_exit set, exit() fires
 * test_twin in a loop until release_exit is written (its parameters stay
 * until the module is freed), or for a minute at most.
 */
static bool hold_exit;
module_param(hold_exit, bool, 0600);
MODULE_PARM_DESC(hold_exit, "exit() fires test_twin until release_exit is written");

static bool release_exit;
module_param(release_exit, bool, 0600);
MODULE_PARM_DESC(release_exit, "end the firing of a held exit()");

static void __exit twin_exit(void)
{
	unsigned long end = jiffies + 60 * HZ;
	unsigned int n = 0;

	if (!READ_ONCE(hold_exit))
		return;
	pr_info("exit() fires test_twin until release_exit\n");
	while (!READ_ONCE(release_exit) && time_before(jiffies, end)) {
		trace_mark(test_twin, "twin %u n %u", MT_TWIN, n++);
		cond_resched();
	}
	pr_info("exit() fired test_twin %u times, %s\n", n,
		READ_ONCE(release_exit) ? "released" : "not released in 60 s");
}
module_exit(twin_exit);

MODULE_LICENSE("GPL");

#endif
