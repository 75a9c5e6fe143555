// SPDX-License-Identifier: GPL-2.0
/*
 * A GPL module whose markers exercise the trace events made of them:
 *
 * fire_shapes=N  fires N times the markers whose formats test how a
 *                format becomes fields: test_ev_mac ("mac %pM", a %p
 *                extension that would read its buffer when the trace is
 *                read), test_ev_ptrs (%pS, %px and %pe, which read
 *                nothing but the pointer), test_ev_dup ("arg2 %d %d": a
 *                word before one conversion is the fallback name of the
 *                next), and test_ev_noargs (MARK_NOARGS);
 * race=N         fires test_ev_race ("s %s") N times while an hrtimer on
 *                the same CPU keeps rewriting that string, a short text
 *                and a long one in turn, from interrupt context: a record
 *                must hold one reading of the string, with nothing after
 *                its NUL (a %s read twice, for its length and for its
 *                bytes, leaves the other text's bytes there).
 */
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

/* Most firings one write to a parameter may ask for */
#define MEV_FIRE_MAX	1000000U

static const u8 mev_mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };

static int fire_shapes_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MEV_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(test_ev_mac, "mac %pM", mev_mac);
		trace_mark(test_ev_ptrs, "sym %pS raw %px err %pe",
			   fire_shapes_set, mev_mac, ERR_PTR(-ENOENT));
		trace_mark(test_ev_dup, "arg2 %d %d", 1, 2);
		trace_mark(test_ev_noargs, MARK_NOARGS);
	}
	return 0;
}

static const struct kernel_param_ops fire_shapes_ops = {
	.set = fire_shapes_set,
};
module_param_cb(fire_shapes, &fire_shapes_ops, NULL, 0200);
MODULE_PARM_DESC(fire_shapes, "fire the format-shape markers N times");

/* The string test_ev_race carries, rewritten by the timer */
#define MEV_SHORT	"ab"
#define MEV_LONG	"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

static char race_text[sizeof(MEV_LONG)];
static bool race_long;
static struct hrtimer race_timer;

static enum hrtimer_restart race_flip(struct hrtimer *timer)
{
	race_long = !race_long;
	/* The whole buffer, so that no byte of the other text survives */
	memset(race_text, 0, sizeof(race_text));
	strscpy(race_text, race_long ? MEV_LONG : MEV_SHORT, sizeof(race_text));
	hrtimer_forward_now(timer, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int race_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MEV_FIRE_MAX)
		return -ERANGE;
	strscpy(race_text, MEV_SHORT, sizeof(race_text));
	race_long = false;
	/* Pinned: the timer interrupts the firing loop on its own CPU */
	migrate_disable();
	hrtimer_start(&race_timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
	while (times--)
		trace_mark(test_ev_race, "s %s", race_text);
	hrtimer_cancel(&race_timer);
	migrate_enable();
	return 0;
}

static const struct kernel_param_ops race_ops = { .set = race_set };
module_param_cb(race, &race_ops, NULL, 0200);
MODULE_PARM_DESC(race, "fire test_ev_race N times while its string changes");

static int __init markers_events_init(void)
{
	hrtimer_init(&race_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	race_timer.function = race_flip;
	return 0;
}
module_init(markers_events_init);

static void __exit markers_events_exit(void)
{
	hrtimer_cancel(&race_timer);
}
module_exit(markers_events_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module for the trace events");
