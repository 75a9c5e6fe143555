// SPDX-License-Identifier: GPL-2.0
/*
 * acme_probe: an in-house test helper (never shipped) that connects a probe
 * to each marker of acme_xa and logs every firing, formatted with the
 * marker's own format, to /sys/kernel/debug/acme_probe/log:
 *
 *	<marker name> <arguments as the format prints them>
 *
 * Load it before acme_xa (probes connect when the module comes) to see
 * the markers of the load too. It is GPL: marker_probe_register() is a
 * GPL-only export (probes are the kernel side; the proprietary module only
 * carries marker sites).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#define LOG_SIZE	(8U << 20)

static const struct {
	const char *name;
	const char *format;
} acme_markers[] = {
	{ "acme_cmd_submit", "id %u opcode %u len %u depth %u" },
	{ "acme_cmd_complete", "id %u status %d latency_ns %llu" },
	{ "acme_irq", "pending %u" },
	{ "acme_fw_state", "old %s new %s reason %s" },
	{ "acme_fw_stall", "id %u ring_pos %u wraps %u" },
	{ "acme_cmd_error", "id %u status %d" },
	{ "acme_cmd_retry", "id %u attempt %u" },
	{ "acme_cmd_timeout", "id %u waited_ms %u" },
	{ "acme_cmd_cancel", "id %u" },
	{ "acme_ring_full", "depth %u" },
	{ "acme_reset", "reason %s failures %u" },
	{ "acme_rejected", "what %s why %s value %lld" },
};

static DEFINE_SPINLOCK(log_lock);
static char *log_buf;
static size_t log_len;
static unsigned long log_dropped;
static struct dentry *dir;

static void acme_probe_fn(void *probe_private, void *call_private,
			  const char *fmt, va_list *args)
{
	const char *name = probe_private;
	char line[256];
	unsigned long flags;
	va_list ap;
	int n;

	n = scnprintf(line, sizeof(line), "%s ", name);
	va_copy(ap, *args);
	n += vscnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	n += scnprintf(line + n, sizeof(line) - n, "\n");

	spin_lock_irqsave(&log_lock, flags);
	if (log_len + n <= LOG_SIZE) {
		memcpy(log_buf + log_len, line, n);
		log_len += n;
	} else {
		log_dropped++;
	}
	spin_unlock_irqrestore(&log_lock, flags);
}

static ssize_t log_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	size_t len;

	spin_lock_irq(&log_lock);
	len = log_len;
	spin_unlock_irq(&log_lock);
	return simple_read_from_buffer(ubuf, count, ppos, log_buf, len);
}

/* Writing anything empties the log */
static ssize_t log_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	spin_lock_irq(&log_lock);
	log_len = 0;
	log_dropped = 0;
	spin_unlock_irq(&log_lock);
	return count;
}

static const struct file_operations log_fops = {
	.owner = THIS_MODULE,
	.read = log_read,
	.write = log_write,
	.llseek = default_llseek,
};

static void unregister_probes(int n)
{
	while (n--)
		marker_probe_unregister(acme_markers[n].name, acme_probe_fn,
					(void *)acme_markers[n].name);
}

static int __init acme_probe_init(void)
{
	int i, ret;

	log_buf = vmalloc(LOG_SIZE);
	if (!log_buf)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(acme_markers); i++) {
		ret = marker_probe_register(acme_markers[i].name,
					    acme_markers[i].format,
					    acme_probe_fn,
					    (void *)acme_markers[i].name);
		if (ret) {
			pr_err("acme_probe: cannot register %s: %d\n",
			       acme_markers[i].name, ret);
			unregister_probes(i);
			vfree(log_buf);
			return ret;
		}
	}
	dir = debugfs_create_dir("acme_probe", NULL);
	debugfs_create_file("log", 0600, dir, NULL, &log_fops);
	debugfs_create_ulong("dropped", 0400, dir, &log_dropped);
	return 0;
}

static void __exit acme_probe_exit(void)
{
	debugfs_remove_recursive(dir);
	unregister_probes(ARRAY_SIZE(acme_markers));
	vfree(log_buf);
}

module_init(acme_probe_init);
module_exit(acme_probe_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test helper: log the markers of acme_xa");
