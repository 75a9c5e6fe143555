// SPDX-License-Identifier: GPL-2.0
/*
 * Holds the going notifiers of one module, named in stall_going, between
 * the trace event core's (which has removed the module's events) and the
 * marker core's (which disconnects its sites), until release is written
 * or a minute passes: the moment where a module loading alongside finds
 * the going module's events still listed by the markers' trace events.
 * stalled reads 1 while the notifiers are held.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/string.h>

static char stall_going[MODULE_NAME_LEN];
module_param_string(stall_going, stall_going, sizeof(stall_going), 0600);
MODULE_PARM_DESC(stall_going, "the module whose going notifiers to hold");

static bool stalled;
module_param(stalled, bool, 0444);
MODULE_PARM_DESC(stalled, "1 while the notifiers are held");

static DECLARE_COMPLETION(released);

/* stall_going as written, with or without echo's newline */
static bool is_stall_going(const char *name)
{
	size_t len = strcspn(stall_going, "\n");

	return len && strlen(name) == len && !strncmp(name, stall_going, len);
}

static int release_set(const char *val, const struct kernel_param *kp)
{
	complete_all(&released);
	return 0;
}

static const struct kernel_param_ops release_ops = { .set = release_set };
module_param_cb(release, &release_ops, NULL, 0200);
MODULE_PARM_DESC(release, "let the held notifiers go on");

static int stall_notify(struct notifier_block *nb, unsigned long val,
			void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_GOING || !is_stall_going(mod->name))
		return NOTIFY_OK;
	pr_info("holding the going notifiers of %s\n", mod->name);
	WRITE_ONCE(stalled, true);
	if (!wait_for_completion_timeout(&released, 60 * HZ))
		pr_info("not released in 60 s: going on\n");
	WRITE_ONCE(stalled, false);
	return NOTIFY_OK;
}

/*
 * The trace event core's notifier has priority 1; one of equal priority
 * registered later runs after it, and before the marker core's (0).
 */
static struct notifier_block stall_nb = {
	.notifier_call = stall_notify,
	.priority = 1,
};

static int __init stall_init(void)
{
	return register_module_notifier(&stall_nb);
}

static void __exit stall_exit(void)
{
	complete_all(&released);
	unregister_module_notifier(&stall_nb);
}

module_init(stall_init);
module_exit(stall_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("markers test module: holds a module's going notifiers");
