// SPDX-License-Identifier: GPL-2.0
/*
 * A GPL module with markers, for the tests:
 *
 * fire=N            fires each of its markers N times with the values of
 *                   markers_test_values.h;
 * fire_macro_names=N  fires N times two markers whose names are also
 *                   macros ("linux" under gnu11, and one #defined here):
 *                   trace_mark() must record them as written;
 * register_format=F registers a probe on the core marker module_load with
 *                   format F through the API, logs what
 *                   marker_probe_register() returned, and unregisters it;
 * register_bad=1    tries registrations with bad names, formats and probes
 *                   through the exported API and logs each errno (one that
 *                   succeeds is undone at once);
 * attach=NAME[ FORMAT], detach=NAME (and attach_b, detach_b)
 *                   register and unregister a probe counting in hits
 *                   (hits_b) on the markers NAME; a write fails with the
 *                   errno the API returned;
 * fail_nth=N        makes the Nth slab allocation of the next attach or
 *                   detach fail (fault injection's fail-nth), so that
 *                   every allocation of the marker core can be failed;
 * time_unregister="NAME ..."  times the unregistration of probes on these
 *                   markers, one synchronous call each and in a batch.
 */
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "markers_test_values.h"

MT_DEFINE_FIRE_PARAM(test_gpl_args, test_gpl_noargs);

/* A marker name that a careless trace_mark() would expand */
#define test_gpl_macro_name test_gpl_expanded

static int fire_macro_names_set(const char *val, const struct kernel_param *kp)
{
	unsigned int times;
	int ret = kstrtouint(val, 0, &times);

	if (ret)
		return ret;
	if (times > MT_FIRE_MAX)
		return -ERANGE;
	while (times--) {
		trace_mark(linux, "linux %d", 1);
		trace_mark(test_gpl_macro_name, "macro %u", 2U);
	}
	return 0;
}

static const struct kernel_param_ops fire_macro_names_ops = {
	.set = fire_macro_names_set,
};
module_param_cb(fire_macro_names, &fire_macro_names_ops, NULL, 0200);
MODULE_PARM_DESC(fire_macro_names,
		 "fire the markers linux and test_gpl_macro_name N times");

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

/* A name of MARKER_NAME_MAX - 1 characters: the longest valid one */
#define MT_NAME_63 "a12345678901234567890123456789012345678901234567890123456789012"

static const struct {
	const char *what;
	const char *name;
	const char *format;
	bool no_probe;
} bad_registrations[] = {
	{ "null-name", NULL, NULL },
	{ "empty-name", "", NULL },
	{ "long-name", MT_NAME_63 "3", NULL },
	{ "max-name", MT_NAME_63, NULL },
	{ "ctrl-name", "test\x01name", NULL },
	{ "newline-name", "test_name\n", NULL },
	{ "space-name", "test name", NULL },
	{ "digit-name", "1test_name", NULL },
	{ "macro-call-name", "test_name(x)", NULL },
	{ "null-probe", "module_load", NULL, true },
	{ "format-mismatch", "module_load", "name %d taints %d" },
	{ "ctrl-format-mismatch", "module_load", "\x01\x02" },
	{ "null-format", "module_load", NULL },
};

static int register_bad_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i;
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret || !on)
		return ret;
	for (i = 0; i < ARRAY_SIZE(bad_registrations); i++) {
		marker_probe_func *probe =
			bad_registrations[i].no_probe ? NULL : noop_probe;

		ret = marker_probe_register(bad_registrations[i].name,
					    bad_registrations[i].format,
					    probe, NULL);
		pr_info("register_bad: %s: %d\n", bad_registrations[i].what,
			ret);
		if (!ret)
			marker_probe_unregister(bad_registrations[i].name,
						probe, NULL);
	}
	return 0;
}

static const struct kernel_param_ops register_bad_ops = {
	.set = register_bad_set,
};
module_param_cb(register_bad, &register_bad_ops, NULL, 0200);
MODULE_PARM_DESC(register_bad,
		 "try registrations with bad names, formats and probes, log each result");

static void count_probe(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	atomic_long_inc(probe_private);
}

/*
 * A counting probe, attached to at most one marker name at a time.
 * Parameter writes are serialized by the kernel_param_lock.
 */
struct probe_slot {
	atomic_long_t hits;
	char name[MARKER_NAME_MAX];
};

static struct probe_slot slot_a, slot_b;

static unsigned int fail_nth;
module_param(fail_nth, uint, 0644);
MODULE_PARM_DESC(fail_nth,
		 "fail the Nth slab allocation of the next attach or detach");

/* Arm the task's fail-nth from the fail_nth parameter, once */
static int arm_fail_nth(void)
{
	unsigned int n = fail_nth;

	fail_nth = 0;
#ifdef CONFIG_FAULT_INJECTION
	WRITE_ONCE(current->fail_nth, n);
	return 0;
#else
	return n ? -EOPNOTSUPP : 0;
#endif
}

static void disarm_fail_nth(void)
{
#ifdef CONFIG_FAULT_INJECTION
	WRITE_ONCE(current->fail_nth, 0);
#endif
}

/* "NAME" or "NAME FORMAT" */
static int probe_param_set(const char *val, struct probe_slot *slot,
			   bool attach)
{
	char name[MARKER_NAME_MAX], format[128];
	size_t len = strcspn(val, "\n ");
	const char *f = NULL;
	int ret;

	if (!len || len >= MARKER_NAME_MAX)
		return -EINVAL;
	memcpy(name, val, len);
	name[len] = '\0';
	if (val[len] == ' ') {
		strscpy(format, val + len + 1, sizeof(format));
		f = strim(format);
	}
	if (attach && slot->name[0])
		return -EBUSY;
	ret = arm_fail_nth();
	if (ret)
		return ret;
	if (attach)
		ret = marker_probe_register(name, f, count_probe, &slot->hits);
	else
		ret = marker_probe_unregister(name, count_probe, &slot->hits);
	disarm_fail_nth();
	if (!ret)
		strscpy(slot->name, attach ? name : "", sizeof(slot->name));
	return ret;
}

#define MT_PROBE_PARAM(param, slot, attach)					\
static int param##_set(const char *val, const struct kernel_param *kp)	\
{										\
	return probe_param_set(val, &(slot), attach);			\
}										\
static const struct kernel_param_ops param##_ops = { .set = param##_set };	\
module_param_cb(param, &param##_ops, NULL, 0200)

MT_PROBE_PARAM(attach, slot_a, true);
MODULE_PARM_DESC(attach, "register a counting probe (hits) on NAME [FORMAT]");
MT_PROBE_PARAM(detach, slot_a, false);
MODULE_PARM_DESC(detach, "unregister the probe of attach from NAME");
MT_PROBE_PARAM(attach_b, slot_b, true);
MODULE_PARM_DESC(attach_b, "register a second counting probe (hits_b)");
MT_PROBE_PARAM(detach_b, slot_b, false);
MODULE_PARM_DESC(detach_b, "unregister the probe of attach_b");

static int hits_get(char *buf, const struct kernel_param *kp)
{
	const struct probe_slot *slot = kp->arg;

	return sysfs_emit(buf, "%ld\n", atomic_long_read(&slot->hits));
}

static const struct kernel_param_ops hits_ops = { .get = hits_get };
module_param_cb(hits, &hits_ops, &slot_a, 0444);
MODULE_PARM_DESC(hits, "calls of the probe of attach");
module_param_cb(hits_b, &hits_ops, &slot_b, 0444);
MODULE_PARM_DESC(hits_b, "calls of the probe of attach_b");

/*
 * time_unregister="NAME ...": for up to 32 marker names, register a probe
 * on each, then time their unregistration two ways: one
 * marker_probe_unregister() each, and
 * marker_probe_unregister_nosync() each followed by one
 * marker_synchronize_unregister(). Logs the times.
 */
#define MT_TIME_MAX 32

static atomic_long_t time_hits = ATOMIC_LONG_INIT(0);

static int time_register(char (*names)[MARKER_NAME_MAX], unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = marker_probe_register(names[i], NULL, count_probe,
					    &time_hits);
		if (ret) {
			while (i--)
				marker_probe_unregister(names[i], count_probe,
							&time_hits);
			return ret;
		}
	}
	return 0;
}

static int time_unregister_set(const char *val, const struct kernel_param *kp)
{
	static char names[MT_TIME_MAX][MARKER_NAME_MAX];
	unsigned int n = 0, i, mode;
	const char *p = val;
	u64 start, took;
	size_t len;
	int ret;

	while (*p && n < MT_TIME_MAX) {
		p = skip_spaces(p);
		len = strcspn(p, "\n ");
		if (!len)
			break;
		if (len >= MARKER_NAME_MAX)
			return -EINVAL;
		memcpy(names[n], p, len);
		names[n++][len] = '\0';
		p += len;
	}
	if (!n)
		return -EINVAL;
	for (mode = 0; mode < 2; mode++) {
		ret = time_register(names, n);
		if (ret)
			return ret;
		start = ktime_get_ns();
		for (i = 0; i < n; i++) {
			if (mode == 0)
				marker_probe_unregister(names[i], count_probe,
							&time_hits);
			else
				marker_probe_unregister_nosync(names[i],
							       count_probe,
							       &time_hits);
		}
		if (mode == 1)
			marker_synchronize_unregister();
		took = ktime_get_ns() - start;
		pr_info("%u unregistrations, %s: %llu us\n", n,
			mode ? "no-sync + one marker_synchronize_unregister()" :
			       "marker_probe_unregister() each",
			took / 1000);
	}
	return 0;
}

static const struct kernel_param_ops time_unregister_ops = {
	.set = time_unregister_set,
};
module_param_cb(time_unregister, &time_unregister_ops, NULL, 0200);
MODULE_PARM_DESC(time_unregister,
		 "time the unregistration of probes on these marker names");

static int __init markers_gpl_init(void)
{
	return 0;
}
module_init(markers_gpl_init);

/* A probe left attached must not outlive its code */
static void __exit markers_gpl_exit(void)
{
	if (slot_a.name[0])
		marker_probe_unregister(slot_a.name, count_probe, &slot_a.hits);
	if (slot_b.name[0])
		marker_probe_unregister(slot_b.name, count_probe, &slot_b.hits);
}
module_exit(markers_gpl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module (GPL)");
