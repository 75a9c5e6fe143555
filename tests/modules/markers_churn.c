// SPDX-License-Identifier: GPL-2.0
/*
 * A GPL module that registers and unregisters marker probes over and over,
 * for the stress tests:
 *
 * hold=NAME [FORMAT]  registers a counting probe on the markers NAME for
 *               as long as the test wants (up to CHURN_HOLD_MAX names at
 *               once), expecting FORMAT if given (the rest of the line),
 *               else the format of the sites;
 * release=NAME  unregisters it;
 * held          (read) one line "NAME HITS" per held probe;
 * open_path=P   registers a probe on the core marker fs_open that counts
 *               the opens of exactly the path P ("" unregisters it), so
 *               that a test knows how many of a busy marker's hits are its
 *               own; open_hits (read) is that count;
 * churn="N NAME..."  N cycles of: register a counting probe on every NAME
 *               and on this module's own marker markers_churn_tick, fire
 *               that marker once, unregister them all (each with
 *               marker_probe_unregister_nosync(), then one
 *               marker_synchronize_unregister(), the batch form);
 *               the write returns when the N cycles are done;
 * churn_stats   (read) "cycles C failures F tick_hits T hits H": cycles
 *               done, registrations or unregistrations that failed, hits
 *               of the tick probe (one per cycle when all went well) and
 *               hits of the probes on the NAMEs, since the module loaded.
 *
 * Parameter reads and writes are serialized by the module's
 * kernel_param_lock, so a churn in progress delays the others.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#define CHURN_HOLD_MAX		4
#define CHURN_NAMES_MAX		8
#define CHURN_CYCLES_MAX	1000000U
#define CHURN_PATH_MAX		128
#define CHURN_OPEN_FORMAT	"dfd %d filename %s flags %#llx mode %#llo"

static void count_probe(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	atomic_long_inc(probe_private);
}

/* The held probes */
struct hold_slot {
	atomic_long_t hits;
	char name[MARKER_NAME_MAX];
};

static struct hold_slot holds[CHURN_HOLD_MAX];

/* Copy the first word of @val into @name; 0 or -EINVAL */
static int parse_name(const char *val, char *name)
{
	size_t len;

	val = skip_spaces(val);
	len = strcspn(val, "\n ");
	if (!len || len >= MARKER_NAME_MAX)
		return -EINVAL;
	memcpy(name, val, len);
	name[len] = '\0';
	return 0;
}

static struct hold_slot *find_hold(const char *name)
{
	unsigned int i;

	for (i = 0; i < CHURN_HOLD_MAX; i++)
		if (!strcmp(holds[i].name, name))
			return &holds[i];
	return NULL;
}

static int hold_set(const char *val, const struct kernel_param *kp)
{
	char name[MARKER_NAME_MAX], *format = NULL;
	struct hold_slot *slot;
	const char *rest;
	int ret = parse_name(val, name);

	if (ret)
		return ret;
	rest = skip_spaces(val) + strlen(name);
	if (*rest == ' ') {
		format = kstrndup(rest + 1, strcspn(rest + 1, "\n"), GFP_KERNEL);
		if (!format)
			return -ENOMEM;
	}
	if (find_hold(name)) {
		ret = -EBUSY;
		goto out;
	}
	slot = find_hold("");
	if (!slot) {
		ret = -ENOSPC;
		goto out;
	}
	atomic_long_set(&slot->hits, 0);
	ret = marker_probe_register(name, format, count_probe, &slot->hits);
	if (!ret)
		strscpy(slot->name, name, sizeof(slot->name));
out:
	/* The marker core keeps a copy of the format it records */
	kfree(format);
	return ret;
}

static const struct kernel_param_ops hold_ops = { .set = hold_set };
module_param_cb(hold, &hold_ops, NULL, 0200);
MODULE_PARM_DESC(hold, "register a counting probe on NAME until release");

static int release_set(const char *val, const struct kernel_param *kp)
{
	char name[MARKER_NAME_MAX];
	struct hold_slot *slot;
	int ret = parse_name(val, name);

	if (ret)
		return ret;
	slot = find_hold(name);
	if (!slot)
		return -ENOENT;
	ret = marker_probe_unregister(name, count_probe, &slot->hits);
	if (!ret)
		slot->name[0] = '\0';
	return ret;
}

static const struct kernel_param_ops release_ops = { .set = release_set };
module_param_cb(release, &release_ops, NULL, 0200);
MODULE_PARM_DESC(release, "unregister the probe of hold=NAME");

static int held_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < CHURN_HOLD_MAX; i++)
		if (holds[i].name[0])
			len += sysfs_emit_at(buf, len, "%s %ld\n", holds[i].name,
					     atomic_long_read(&holds[i].hits));
	return len;
}

static const struct kernel_param_ops held_ops = { .get = held_get };
module_param_cb(held, &held_ops, NULL, 0444);
MODULE_PARM_DESC(held, "the held probes and their hits, one per line");

/* The fs_open probe: counts the opens of open_path */
static char open_path[CHURN_PATH_MAX];
static atomic_long_t open_hits = ATOMIC_LONG_INIT(0);

static void open_probe(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	const char *filename;
	va_list ap;

	va_copy(ap, *args);
	va_arg(ap, int);
	filename = va_arg(ap, const char *);
	va_end(ap);
	if (filename && !strcmp(filename, open_path))
		atomic_long_inc(probe_private);
}

static int open_path_set(const char *val, const struct kernel_param *kp)
{
	char path[CHURN_PATH_MAX];
	int ret;

	if (strscpy(path, val, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	strim(path);
	if (open_path[0]) {
		ret = marker_probe_unregister("fs_open", open_probe,
					      &open_hits);
		if (ret)
			return ret;
		open_path[0] = '\0';
	}
	if (!path[0])
		return 0;
	/* No probe runs now: the path may change */
	strscpy(open_path, path, sizeof(open_path));
	atomic_long_set(&open_hits, 0);
	ret = marker_probe_register("fs_open", CHURN_OPEN_FORMAT, open_probe,
				    &open_hits);
	if (ret)
		open_path[0] = '\0';
	return ret;
}

static const struct kernel_param_ops open_path_ops = { .set = open_path_set };
module_param_cb(open_path, &open_path_ops, NULL, 0200);
MODULE_PARM_DESC(open_path, "count the opens of this path (\"\" stops)");

static int open_hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&open_hits));
}

static const struct kernel_param_ops open_hits_ops = { .get = open_hits_get };
module_param_cb(open_hits, &open_hits_ops, NULL, 0444);
MODULE_PARM_DESC(open_hits, "opens of open_path counted");

/* The churn */
static unsigned long churn_cycles, churn_failures;
static atomic_long_t tick_hits = ATOMIC_LONG_INIT(0);
static atomic_long_t churn_hits = ATOMIC_LONG_INIT(0);

static void churn_once(char (*names)[MARKER_NAME_MAX], unsigned int n,
		       unsigned int cycle)
{
	bool registered[CHURN_NAMES_MAX];
	bool tick;
	unsigned int i;

	for (i = 0; i < n; i++) {
		registered[i] = !marker_probe_register(names[i], NULL,
						       count_probe,
						       &churn_hits);
		if (!registered[i])
			churn_failures++;
	}
	tick = !marker_probe_register("markers_churn_tick", "cycle %u",
				      count_probe, &tick_hits);
	if (!tick)
		churn_failures++;
	trace_mark(markers_churn_tick, "cycle %u", cycle);
	if (tick && marker_probe_unregister_nosync("markers_churn_tick",
						   count_probe, &tick_hits))
		churn_failures++;
	for (i = 0; i < n; i++)
		if (registered[i] &&
		    marker_probe_unregister_nosync(names[i], count_probe,
						   &churn_hits))
			churn_failures++;
	/* The batch form: one grace period for the cycle's probes */
	marker_synchronize_unregister();
}

static int churn_set(const char *val, const struct kernel_param *kp)
{
	static char names[CHURN_NAMES_MAX][MARKER_NAME_MAX];
	unsigned int cycles, n = 0, i;
	const char *p = skip_spaces(val);
	char number[12];
	size_t len;
	int ret;

	len = strcspn(p, "\n ");
	if (!len || len >= sizeof(number))
		return -EINVAL;
	memcpy(number, p, len);
	number[len] = '\0';
	ret = kstrtouint(number, 10, &cycles);
	if (ret)
		return ret;
	if (cycles > CHURN_CYCLES_MAX)
		return -ERANGE;
	p += len;
	for (;;) {
		p = skip_spaces(p);
		if (!*p)
			break;
		if (n == CHURN_NAMES_MAX)
			return -E2BIG;
		ret = parse_name(p, names[n]);
		if (ret)
			return ret;
		p += strlen(names[n++]);
	}
	for (i = 0; i < cycles; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		churn_once(names, n, i);
		churn_cycles++;
		cond_resched();
	}
	return 0;
}

static const struct kernel_param_ops churn_ops = { .set = churn_set };
module_param_cb(churn, &churn_ops, NULL, 0200);
MODULE_PARM_DESC(churn, "\"N NAME...\": register and unregister N times");

static int churn_stats_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "cycles %lu failures %lu tick_hits %ld hits %ld\n",
			  churn_cycles, churn_failures,
			  atomic_long_read(&tick_hits),
			  atomic_long_read(&churn_hits));
}

static const struct kernel_param_ops churn_stats_ops = {
	.get = churn_stats_get,
};
module_param_cb(churn_stats, &churn_stats_ops, NULL, 0444);
MODULE_PARM_DESC(churn_stats, "cycles, failures, tick_hits and hits so far");

static int __init markers_churn_init(void)
{
	return 0;
}
module_init(markers_churn_init);

/* No probe may outlive its code */
static void __exit markers_churn_exit(void)
{
	unsigned int i;

	for (i = 0; i < CHURN_HOLD_MAX; i++)
		if (holds[i].name[0])
			marker_probe_unregister(holds[i].name, count_probe,
						&holds[i].hits);
	if (open_path[0])
		marker_probe_unregister("fs_open", open_probe, &open_hits);
}
module_exit(markers_churn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module: probe registration churn");
