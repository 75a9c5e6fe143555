// SPDX-License-Identifier: LicenseRef-Acme-Proprietary
/*
 * acme_xa: driver for the Acme XA-1 accelerator (simulated).
 *
 * Copyright (c) Acme Corporation. All rights reserved. Distributed in
 * binary form only.
 *
 * The device is a storage/crypto engine with a command ring of
 * ACME_XA_RING_DEPTH entries. This driver simulates it:
 *
 *  - the "firmware" takes the commands from the ring strictly in order and
 *    runs each for a size-dependent time, one at a time; it halts on an
 *    error until the driver retries or fails the command; it can stall
 *    (hang on a command) and be reset. Its progress is computed from the
 *    clock whenever something happens (firmware time is exact, whatever
 *    the scheduling), and a timer fires at its next event;
 *  - that timer plays the completion interrupt: its handler completes the
 *    commands the firmware finished, in order, and handles errors (retry
 *    or fail);
 *  - the driver's command timeout is a watchdog timer on the command the
 *    firmware is running. It first lets the firmware catch up with the
 *    clock and takes its interrupts (a late timer cannot make a healthy
 *    command look timed out), then retries the command, then fails it;
 *    after reset_after_failures failed commands it resets the device.
 *
 * Faults are deterministic and set only by module parameters: error_rate
 * draws from a xorshift64 generator seeded with error_seed, once per
 * command run, in ring order; stall_after_wraps stalls the firmware on the
 * command at which the ring wraps for the Nth time since the last reset.
 * Ids are given out in ring order, so a given workload fails, times out,
 * retries and resets at the same command ids every run, however many
 * threads submit it and however loaded the machine is.
 *
 * Locking: dev->lock (a spinlock, taken with BHs off in process context)
 * guards all device, ring and command state; the two timers take it in
 * softirq context. dev->ctl_mutex serialises the RESET ioctl, which sleeps
 * until the device is ready. A command is freed once it is neither in the
 * ring, nor in its file's table, nor held by a WAIT.
 *
 * It uses no GPL-only kernel symbol (modpost refuses to link one into a
 * module that is not GPL-compatible). That rules out hrtimers, ktime_get()
 * and private workqueues: the clock is ktime_get_raw_ts64() and the timers
 * are timer_list ones (1 ms resolution; the latencies reported come from
 * the firmware's own clock, so they keep their ns resolution).
 *
 * Markers (<linux/marker.h>, Documentation/trace/markers.rst): see the
 * trace_mark() lines; every format uses only %u %d %llu %lld %s, with
 * arguments of exactly those types.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/marker.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "acme_xa_ioctl.h"

#define ACME_XA_VERSION		"1.4.2"
#define ACME_XA_FW_VERSION	"XA1-FW 3.2.7 (simulated)"
#define ACME_XA_DEVNAME		"acme_xa0"

#define RING_DEPTH		ACME_XA_RING_DEPTH
/* Simulated firmware boot and reset times */
#define ACME_FW_BOOT_US		20000
#define ACME_FW_RESET_US	2000
/* Automatic resets in a row without a successful command: then failed */
#define ACME_MAX_AUTO_RESETS	3
/* Longest a RESET ioctl waits for the device to be ready */
#define ACME_RESET_WAIT_MS	5000

/* ------------------------------------------------------------------ */
/* Module parameters: the only way to set the faults                  */

static unsigned int error_rate;
static unsigned long long error_seed = 0x2545f4914f6cdd1dULL;
static unsigned int stall_after_wraps;
static unsigned int cmd_timeout_ms = 1000;
static unsigned int max_retries = 2;
static unsigned int reset_after_failures = 4;

/* The one acme_rejected site: every refusal goes through it */
static noinline void acme_mark_rejected(const char *what, const char *why,
					s64 value)
{
	trace_mark(acme_rejected, "what %s why %s value %lld", what, why,
		   value);
}

struct acme_param_range {
	void *val;		/* unsigned int or unsigned long long */
	bool is_u64;
	unsigned long long min, max;
};

static int acme_param_set(const char *arg, const struct kernel_param *kp)
{
	const struct acme_param_range *r = kp->arg;
	unsigned long long v;
	int ret;

	ret = kstrtoull(arg, 0, &v);
	if (ret) {
		pr_err("parameter %s=%s: %s (allowed %llu..%llu); not loading\n",
		       kp->name, arg,
		       ret == -ERANGE ? "too big" : "not a whole number",
		       r->min, r->max);
		acme_mark_rejected(kp->name, ret == -ERANGE ? "too big" :
				   "not a number", -1);
		return -EINVAL;
	}
	if (v < r->min || v > r->max) {
		pr_err("parameter %s=%llu: out of range %llu..%llu; not loading\n",
		       kp->name, v, r->min, r->max);
		acme_mark_rejected(kp->name, "out of range",
				   v > S64_MAX ? S64_MAX : (s64)v);
		return -EINVAL;
	}
	if (r->is_u64)
		*(unsigned long long *)r->val = v;
	else
		*(unsigned int *)r->val = v;
	return 0;
}

static int acme_param_get(char *buf, const struct kernel_param *kp)
{
	const struct acme_param_range *r = kp->arg;

	if (r->is_u64)
		return scnprintf(buf, PAGE_SIZE, "%llu\n",
				 *(unsigned long long *)r->val);
	return scnprintf(buf, PAGE_SIZE, "%u\n", *(unsigned int *)r->val);
}

static const struct kernel_param_ops acme_param_ops = {
	.set = acme_param_set,
	.get = acme_param_get,
};

#define ACME_PARAM(name, type, u64, lo, hi, desc)			\
	static const struct acme_param_range acme_range_##name = {	\
		.val = &name, .is_u64 = u64, .min = lo, .max = hi,	\
	};								\
	module_param_cb(name, &acme_param_ops, (void *)&acme_range_##name, 0444); \
	__MODULE_PARM_TYPE(name, type);					\
	MODULE_PARM_DESC(name, desc)

ACME_PARAM(error_rate, "uint", false, 0, 1000,
	   "firmware errors per 1000 commands run (0..1000, default 0)");
ACME_PARAM(error_seed, "ullong", true, 1, ULLONG_MAX,
	   "seed of the error generator (xorshift64, non-zero)");
ACME_PARAM(stall_after_wraps, "uint", false, 0, 1000000,
	   "stall the firmware when the ring wraps for the Nth time since the last reset (0 = never)");
ACME_PARAM(cmd_timeout_ms, "uint", false, 10, 60000,
	   "driver timeout of one command attempt, ms (10..60000, default 1000)");
ACME_PARAM(max_retries, "uint", false, 0, 16,
	   "retries of a command after an error or a timeout (0..16, default 2)");
ACME_PARAM(reset_after_failures, "uint", false, 0, 1000,
	   "reset the device after this many failed commands (0 = never, default 4)");

/* ------------------------------------------------------------------ */
/* Device state                                                        */

struct acme_file;

struct acme_cmd {
	struct hlist_node hnode;	/* in owner->cmds while in_table */
	struct acme_file *owner;	/* NULL once the file is closed */
	u32 id;
	u32 opcode;
	u32 length;
	u32 attempts;
	u64 user_tag;
	u64 submit_ns;
	u64 start_ns;			/* of the current attempt, firmware time */
	u64 fw_done_ns;			/* when the firmware finished it */
	u64 latency_ns;
	int fw_status;			/* posted by the firmware */
	int status;			/* final */
	u32 waiters;			/* WAIT ioctls holding it */
	bool in_ring;
	bool in_table;
	bool done;
};

struct acme_file {
	struct acme_dev *dev;
	DECLARE_HASHTABLE(cmds, 7);
	u32 ncmds;
	wait_queue_head_t wq;		/* its commands' completions */
};

struct acme_dev {
	spinlock_t lock;		/* all the state below; BH-safe */
	struct mutex ctl_mutex;		/* serialises RESET ioctls */
	struct miscdevice misc;
	struct timer_list fw_timer;	/* the firmware's next event: the interrupt */
	struct timer_list wd_timer;	/* the driver's command timeout */
	wait_queue_head_t sq_wq;	/* SUBMITs waiting for ring room */
	wait_queue_head_t state_wq;	/* RESETs waiting for ready */

	/* All below under lock */
	enum acme_xa_fw_state fw_state;
	bool dying;
	/*
	 * The ring, with free-running indices: [head, fw_next) have their
	 * completion posted, [fw_next, tail) wait for the firmware, which
	 * runs ring[fw_next] while fw_busy. reset_base is head at the last
	 * reset: ring positions count from it.
	 */
	struct acme_cmd *ring[RING_DEPTH];
	u32 head, fw_next, tail, reset_base;
	bool fw_busy;
	bool halted;			/* firmware stopped on an error */
	int fw_result;			/* result of the command being run */
	u64 fw_free_ns;			/* firmware idle since */
	u64 fw_finish_ns;		/* the running command ends; U64_MAX: hung */
	u64 fw_ready_ns;		/* booting or resetting ends */
	u64 wd_deadline_ns;		/* the running command times out */
	u32 irq_pending;
	u32 next_id;
	u64 prng;
	u32 failures_since_reset;
	u32 auto_resets_in_row;
	struct acme_xa_stats st;	/* counters; in_flight etc. filled on read */
};

static struct acme_dev *acme_dev;

static const char *const acme_state_names[] = {
	[ACME_XA_FW_BOOTING] = "booting",
	[ACME_XA_FW_READY] = "ready",
	[ACME_XA_FW_BUSY] = "busy",
	[ACME_XA_FW_STALLED] = "stalled",
	[ACME_XA_FW_RESETTING] = "resetting",
	[ACME_XA_FW_FAILED] = "failed",
};

static const char *acme_state_name(enum acme_xa_fw_state s)
{
	if ((unsigned int)s < ARRAY_SIZE(acme_state_names))
		return acme_state_names[s];
	return "unknown";
}

static u64 acme_now_ns(void)
{
	struct timespec64 ts;

	ktime_get_raw_ts64(&ts);
	return timespec64_to_ns(&ts);
}

static int acme_reject_locked(struct acme_dev *dev, const char *what,
			      const char *why, s64 value, int err)
{
	lockdep_assert_held(&dev->lock);
	dev->st.rejected++;
	acme_mark_rejected(what, why, value);
	return err;
}

static int acme_reject(struct acme_dev *dev, const char *what,
		       const char *why, s64 value, int err)
{
	spin_lock_bh(&dev->lock);
	acme_reject_locked(dev, what, why, value, err);
	spin_unlock_bh(&dev->lock);
	return err;
}

static void acme_set_state_locked(struct acme_dev *dev,
				  enum acme_xa_fw_state new, const char *reason)
{
	enum acme_xa_fw_state old = dev->fw_state;

	if (old == new)
		return;
	dev->fw_state = new;
	trace_mark(acme_fw_state, "old %s new %s reason %s",
		   acme_state_name(old), acme_state_name(new), reason);
	if (old == ACME_XA_FW_RESETTING)
		wake_up_all(&dev->state_wq);
	if (new == ACME_XA_FW_FAILED)
		wake_up_all(&dev->sq_wq);
}

/* Arm @t for firmware time @at (the next tick if it is past) */
static void acme_timer_at_locked(struct acme_dev *dev, struct timer_list *t,
				 u64 at, u64 now)
{
	unsigned long delay = 0;

	if (dev->dying)
		return;
	if (at > now)
		delay = msecs_to_jiffies((unsigned int)min_t(u64,
				DIV_ROUND_UP_ULL(at - now, NSEC_PER_MSEC), UINT_MAX));
	mod_timer(t, jiffies + delay);
}

static void acme_cmd_maybe_free_locked(struct acme_cmd *cmd)
{
	if (!cmd->in_ring && !cmd->in_table && !cmd->waiters)
		kfree(cmd);
}

static struct acme_cmd *acme_ring_at(struct acme_dev *dev, u32 idx)
{
	return dev->ring[idx % RING_DEPTH];
}

/* ------------------------------------------------------------------ */
/* The firmware                                                        */

static u64 acme_prng_next(struct acme_dev *dev)
{
	u64 x = dev->prng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	dev->prng = x;
	return x;
}

/* The next draw of the error generator, 0..999 */
static u32 acme_prng_permille(struct acme_dev *dev)
{
	u32 rem;

	div_u64_rem(acme_prng_next(dev), 1000, &rem);
	return rem;
}

static u64 acme_latency_ns(const struct acme_cmd *cmd)
{
	u64 kib = DIV_ROUND_UP(cmd->length, 1024);

	switch (cmd->opcode) {
	case ACME_XA_OP_READ:
		return (20 + kib) * NSEC_PER_USEC;
	case ACME_XA_OP_WRITE:
		return (20 + 2 * kib) * NSEC_PER_USEC;
	default:
		return (30 + 6 * kib) * NSEC_PER_USEC;
	}
}

/* The firmware takes the next command of the ring. */
static void acme_fw_fetch_locked(struct acme_dev *dev, u64 now)
{
	struct acme_cmd *cmd = acme_ring_at(dev, dev->fw_next);
	u32 pos = dev->fw_next - dev->reset_base;
	u64 start = max(dev->fw_free_ns, cmd->submit_ns);

	if (stall_after_wraps && dev->fw_state != ACME_XA_FW_STALLED &&
	    pos == stall_after_wraps * RING_DEPTH) {
		trace_mark(acme_fw_stall, "id %u ring_pos %u wraps %u",
			   cmd->id, pos, stall_after_wraps);
		pr_warn("firmware stalled on command %u (ring wrap %u)\n",
			cmd->id, stall_after_wraps);
		acme_set_state_locked(dev, ACME_XA_FW_STALLED, "ring_wrap");
	}
	if (!cmd->owner && dev->fw_state != ACME_XA_FW_STALLED) {
		/* Its file is gone: drop it without running it */
		cmd->fw_status = -ECANCELED;
		cmd->fw_done_ns = start;
		dev->fw_next++;
		dev->irq_pending++;
		return;
	}
	if (dev->fw_state == ACME_XA_FW_READY)
		acme_set_state_locked(dev, ACME_XA_FW_BUSY, "work");
	dev->fw_busy = true;
	cmd->start_ns = start;
	if (dev->fw_state == ACME_XA_FW_STALLED) {
		dev->fw_finish_ns = U64_MAX;	/* hangs: only the watchdog notices */
	} else {
		dev->fw_result = 0;
		if (error_rate && acme_prng_permille(dev) < error_rate)
			dev->fw_result = -EIO;
		dev->fw_finish_ns = start + acme_latency_ns(cmd);
	}
	dev->wd_deadline_ns = start + (u64)cmd_timeout_ms * NSEC_PER_MSEC;
	acme_timer_at_locked(dev, &dev->wd_timer, dev->wd_deadline_ns, now);
}

/* The firmware finished the running command: post its completion. */
static void acme_fw_post_locked(struct acme_dev *dev)
{
	struct acme_cmd *cmd = acme_ring_at(dev, dev->fw_next);

	cmd->fw_status = dev->fw_result;
	cmd->fw_done_ns = dev->fw_finish_ns;
	dev->fw_free_ns = dev->fw_finish_ns;
	dev->fw_busy = false;
	dev->fw_next++;
	dev->irq_pending++;
	if (cmd->fw_status)
		dev->halted = true;	/* until the driver retries or fails it */
}

/*
 * Let the firmware do all it would have done by @now, and arm the timer
 * for its next event: the end of booting or resetting, the end of the
 * running command, or at once when it has raised the interrupt.
 */
static void acme_fw_advance_locked(struct acme_dev *dev, u64 now)
{
	switch (dev->fw_state) {
	case ACME_XA_FW_BOOTING:
	case ACME_XA_FW_RESETTING:
		if (now < dev->fw_ready_ns) {
			acme_timer_at_locked(dev, &dev->fw_timer,
					     dev->fw_ready_ns, now);
			return;
		}
		acme_set_state_locked(dev, ACME_XA_FW_READY,
				      dev->fw_state == ACME_XA_FW_BOOTING ?
				      "boot" : "reset_done");
		dev->fw_free_ns = dev->fw_ready_ns;
		break;
	case ACME_XA_FW_FAILED:
		return;
	default:
		break;
	}
	for (;;) {
		if (dev->fw_busy) {
			if (dev->fw_finish_ns > now) {
				if (dev->fw_finish_ns != U64_MAX)
					acme_timer_at_locked(dev, &dev->fw_timer,
							     dev->fw_finish_ns, now);
				break;
			}
			acme_fw_post_locked(dev);
			continue;
		}
		if (dev->halted)
			break;
		if (dev->fw_next == dev->tail) {
			if (dev->fw_state == ACME_XA_FW_BUSY)
				acme_set_state_locked(dev, ACME_XA_FW_READY, "idle");
			break;
		}
		acme_fw_fetch_locked(dev, now);
	}
	if (dev->irq_pending)
		acme_timer_at_locked(dev, &dev->fw_timer, now, now);
}

/* ------------------------------------------------------------------ */
/* Command completion, retry, failure, reset                           */

/* Take the command at the head of the ring out, with its final status. */
static void acme_cmd_finish_locked(struct acme_dev *dev, int status,
				   u64 done_ns)
{
	struct acme_cmd *cmd = acme_ring_at(dev, dev->head);

	/* One the firmware has not posted (timed out, device failed): skip it */
	if (dev->fw_next == dev->head)
		dev->fw_next++;
	dev->ring[dev->head % RING_DEPTH] = NULL;
	dev->head++;
	cmd->in_ring = false;
	cmd->status = status;
	cmd->latency_ns = done_ns > cmd->submit_ns ? done_ns - cmd->submit_ns : 0;
	trace_mark(acme_cmd_complete, "id %u status %d latency_ns %llu",
		   cmd->id, status, cmd->latency_ns);
	if (cmd->owner) {
		if (status)
			dev->st.errors++;
		else
			dev->st.completed++;
		WRITE_ONCE(cmd->done, true);
		wake_up_all(&cmd->owner->wq);
	} else {
		acme_cmd_maybe_free_locked(cmd);
	}
	if (!status)
		dev->auto_resets_in_row = 0;
	wake_up(&dev->sq_wq);
}

static void acme_reset_locked(struct acme_dev *dev, const char *reason,
			      u64 now)
{
	trace_mark(acme_reset, "reason %s failures %u", reason,
		   dev->failures_since_reset);
	pr_warn("resetting the device (%s, %u failed commands); %u in flight will run again\n",
		reason, dev->failures_since_reset, dev->tail - dev->head);
	dev->st.resets++;
	dev->failures_since_reset = 0;
	dev->fw_busy = false;
	dev->halted = false;
	dev->fw_next = dev->head;
	dev->reset_base = dev->head;
	dev->fw_ready_ns = now + ACME_FW_RESET_US * NSEC_PER_USEC;
	acme_set_state_locked(dev, ACME_XA_FW_RESETTING, reason);
}

/* The firmware is beyond automatic recovery: fail everything in the ring. */
static void acme_fail_device_locked(struct acme_dev *dev, const char *reason,
				    u64 now)
{
	pr_err("device failed (%s): %u commands failed; ACME_XA_IOC_RESET (acmectl reset) recovers it\n",
	       reason, dev->tail - dev->head);
	dev->fw_busy = false;
	dev->halted = false;
	acme_set_state_locked(dev, ACME_XA_FW_FAILED, reason);
	dev->fw_next = dev->head;
	while (dev->head != dev->tail)
		acme_cmd_finish_locked(dev, -EIO, now);
}

/* A command failed for good: count it, maybe reset the device. */
static void acme_cmd_failed_locked(struct acme_dev *dev, u64 now)
{
	dev->failures_since_reset++;
	if (!reset_after_failures ||
	    dev->failures_since_reset < reset_after_failures)
		return;
	if (++dev->auto_resets_in_row > ACME_MAX_AUTO_RESETS)
		acme_fail_device_locked(dev, "reset_limit", now);
	else
		acme_reset_locked(dev, "failures", now);
}

/* Run the command at the head again, from now. */
static void acme_cmd_retry_locked(struct acme_dev *dev, struct acme_cmd *cmd,
				  u64 now)
{
	cmd->attempts++;
	dev->st.retries++;
	trace_mark(acme_cmd_retry, "id %u attempt %u", cmd->id, cmd->attempts);
	dev->fw_next = dev->head;
	dev->halted = false;
	dev->fw_free_ns = now;
}

/* Complete the commands whose completion the firmware posted, in order. */
static void acme_process_completions_locked(struct acme_dev *dev, u64 now)
{
	while (dev->head != dev->fw_next) {
		struct acme_cmd *cmd = acme_ring_at(dev, dev->head);
		int st = cmd->fw_status;

		if (st == 0 || st == -ECANCELED) {
			acme_cmd_finish_locked(dev, st, cmd->fw_done_ns);
			continue;
		}
		/* An error: the firmware halted on it, so it is the last one */
		dev->st.fw_errors++;
		trace_mark(acme_cmd_error, "id %u status %d", cmd->id, st);
		if (cmd->owner && cmd->attempts <= max_retries) {
			acme_cmd_retry_locked(dev, cmd, now);
			return;
		}
		dev->halted = false;
		dev->fw_free_ns = now;
		acme_cmd_finish_locked(dev, st, cmd->fw_done_ns);
		acme_cmd_failed_locked(dev, now);
	}
}

/*
 * Let the firmware catch up with the clock and take its interrupts: the
 * interrupt handler proper, also run by the watchdog and by RESET (a
 * driver checking for a late interrupt before it acts).
 */
static void acme_service_locked(struct acme_dev *dev, u64 now)
{
	acme_fw_advance_locked(dev, now);
	while (dev->irq_pending) {
		u32 pending = dev->irq_pending;

		dev->irq_pending = 0;
		dev->st.irqs++;
		trace_mark(acme_irq, "pending %u", pending);
		acme_process_completions_locked(dev, now);
		acme_fw_advance_locked(dev, now);
	}
}

/* The completion interrupt (the firmware's timer): softirq context. */
static void acme_fw_timer_fn(struct timer_list *t)
{
	struct acme_dev *dev = from_timer(dev, t, fw_timer);

	spin_lock(&dev->lock);
	if (!dev->dying)
		acme_service_locked(dev, acme_now_ns());
	spin_unlock(&dev->lock);
}

/* The driver's command timeout: softirq context. */
static void acme_wd_timer_fn(struct timer_list *t)
{
	struct acme_dev *dev = from_timer(dev, t, wd_timer);
	struct acme_cmd *cmd;
	u64 now, waited;

	spin_lock(&dev->lock);
	if (dev->dying)
		goto out;
	now = acme_now_ns();
	/* What the firmware has finished by now is not late */
	acme_service_locked(dev, now);
	if (!dev->fw_busy || dev->fw_next != dev->head)
		goto out;
	if (now < dev->wd_deadline_ns) {
		acme_timer_at_locked(dev, &dev->wd_timer, dev->wd_deadline_ns, now);
		goto out;
	}
	cmd = acme_ring_at(dev, dev->head);
	waited = div_u64(now - cmd->start_ns, NSEC_PER_MSEC);
	dev->st.timeouts++;
	trace_mark(acme_cmd_timeout, "id %u waited_ms %u", cmd->id,
		   (unsigned int)min_t(u64, waited, UINT_MAX));
	/* Abort the attempt */
	dev->fw_busy = false;
	dev->fw_free_ns = now;
	if (cmd->owner && cmd->attempts <= max_retries) {
		acme_cmd_retry_locked(dev, cmd, now);
	} else {
		acme_cmd_finish_locked(dev, -ETIMEDOUT, now);
		acme_cmd_failed_locked(dev, now);
	}
	acme_service_locked(dev, now);
out:
	spin_unlock(&dev->lock);
}

/* ------------------------------------------------------------------ */
/* The character device                                                */

static struct acme_cmd *acme_find_locked(struct acme_file *af, u32 id)
{
	struct acme_cmd *cmd;

	hash_for_each_possible(af->cmds, cmd, hnode, id)
		if (cmd->id == id)
			return cmd;
	return NULL;
}

/* Take a command out of its file's table; one still running is orphaned. */
static void acme_cmd_drop_locked(struct acme_dev *dev, struct acme_file *af,
				 struct acme_cmd *cmd)
{
	hash_del(&cmd->hnode);
	cmd->in_table = false;
	af->ncmds--;
	if (cmd->in_ring) {
		cmd->owner = NULL;
		dev->st.cancelled++;
		trace_mark(acme_cmd_cancel, "id %u", cmd->id);
	}
	acme_cmd_maybe_free_locked(cmd);
}

static bool acme_ring_has_room(struct acme_dev *dev)
{
	return READ_ONCE(dev->fw_state) == ACME_XA_FW_FAILED ||
	       READ_ONCE(dev->tail) - READ_ONCE(dev->head) < RING_DEPTH;
}

static long acme_ioc_submit(struct acme_file *af, void __user *up,
			    bool nonblock)
{
	struct acme_dev *dev = af->dev;
	struct acme_xa_submit req;
	struct acme_cmd *cmd;
	bool counted_full = false;
	long ret;
	u32 id;

	if (copy_from_user(&req, up, sizeof(req)))
		return acme_reject(dev, "submit", "bad user pointer",
				   (s64)(unsigned long)up, -EFAULT);
	if (req.size != sizeof(req))
		return acme_reject(dev, "submit", "bad struct size", req.size,
				   -EINVAL);
	if (req.flags)
		return acme_reject(dev, "submit", "bad flags", req.flags,
				   -EINVAL);
	if (req.opcode < ACME_XA_OP_READ || req.opcode > ACME_XA_OP_MAX)
		return acme_reject(dev, "submit", "bad opcode", req.opcode,
				   -EINVAL);
	if (req.length < 1 || req.length > ACME_XA_MAX_LENGTH)
		return acme_reject(dev, "submit", "bad length", req.length,
				   -EINVAL);

	cmd = kzalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;

	spin_lock_bh(&dev->lock);
	for (;;) {
		if (dev->fw_state == ACME_XA_FW_FAILED) {
			ret = -EIO;
			goto out_unlock;
		}
		if (af->ncmds >= ACME_XA_MAX_UNREAPED) {
			ret = acme_reject_locked(dev, "submit", "too many unreaped",
						 af->ncmds, -ENOSPC);
			goto out_unlock;
		}
		if (dev->tail - dev->head < RING_DEPTH)
			break;
		if (!counted_full) {
			counted_full = true;
			dev->st.ring_full++;
			trace_mark(acme_ring_full, "depth %u",
				   (unsigned int)RING_DEPTH);
		}
		if (nonblock) {
			ret = -EAGAIN;
			goto out_unlock;
		}
		spin_unlock_bh(&dev->lock);
		ret = wait_event_interruptible(dev->sq_wq,
					       acme_ring_has_room(dev));
		if (ret)
			goto out_free;
		spin_lock_bh(&dev->lock);
	}

	id = dev->next_id++;
	cmd->id = id;
	if (!dev->next_id)
		dev->next_id = 1;
	cmd->owner = af;
	cmd->opcode = req.opcode;
	cmd->length = req.length;
	cmd->user_tag = req.user_tag;
	cmd->attempts = 1;
	cmd->submit_ns = acme_now_ns();
	cmd->in_ring = true;
	cmd->in_table = true;
	dev->ring[dev->tail % RING_DEPTH] = cmd;
	dev->tail++;
	hash_add(af->cmds, &cmd->hnode, cmd->id);
	af->ncmds++;
	dev->st.submitted++;
	trace_mark(acme_cmd_submit, "id %u opcode %u len %u depth %u",
		   cmd->id, cmd->opcode, cmd->length, dev->tail - dev->head);
	acme_fw_advance_locked(dev, cmd->submit_ns);
	spin_unlock_bh(&dev->lock);

	req.id = id;
	req.reserved = 0;
	if (copy_to_user(up, &req, sizeof(req))) {
		/* The caller cannot learn the id: take the command back */
		spin_lock_bh(&dev->lock);
		cmd = acme_find_locked(af, id);
		if (cmd)
			acme_cmd_drop_locked(dev, af, cmd);
		acme_reject_locked(dev, "submit", "bad user pointer",
				   (s64)(unsigned long)up, -EFAULT);
		spin_unlock_bh(&dev->lock);
		return -EFAULT;
	}
	return 0;

out_unlock:
	spin_unlock_bh(&dev->lock);
out_free:
	kfree(cmd);
	return ret;
}

static long acme_ioc_wait(struct acme_file *af, void __user *up)
{
	struct acme_dev *dev = af->dev;
	struct acme_xa_wait req;
	struct acme_cmd *cmd;
	long ret = 0;

	if (copy_from_user(&req, up, sizeof(req)))
		return acme_reject(dev, "wait", "bad user pointer",
				   (s64)(unsigned long)up, -EFAULT);
	if (req.size != sizeof(req))
		return acme_reject(dev, "wait", "bad struct size", req.size,
				   -EINVAL);
	if (req.flags)
		return acme_reject(dev, "wait", "bad flags", req.flags, -EINVAL);
	if (req.timeout_ms > ACME_XA_MAX_WAIT_MS)
		return acme_reject(dev, "wait", "bad timeout", req.timeout_ms,
				   -EINVAL);

	spin_lock_bh(&dev->lock);
	cmd = acme_find_locked(af, req.id);
	if (!cmd) {
		ret = acme_reject_locked(dev, "wait", "unknown id", req.id,
					 -ENOENT);
		spin_unlock_bh(&dev->lock);
		return ret;
	}
	/* Hold it: another thread may reap it while this one sleeps or copies */
	cmd->waiters++;
	if (!cmd->done) {
		if (!req.timeout_ms) {
			ret = -EAGAIN;
			goto out_put;
		}
		spin_unlock_bh(&dev->lock);
		ret = wait_event_interruptible_timeout(af->wq,
						       READ_ONCE(cmd->done),
						       msecs_to_jiffies(req.timeout_ms));
		spin_lock_bh(&dev->lock);
		if (!cmd->done) {
			ret = ret < 0 ? ret : -ETIMEDOUT;
			goto out_put;
		}
	}
	if (!cmd->in_table) {		/* another WAIT reaped it */
		ret = -ENOENT;
		goto out_put;
	}
	req.status = cmd->status;
	req.attempts = cmd->attempts;
	req.user_tag = cmd->user_tag;
	req.latency_ns = cmd->latency_ns;
	spin_unlock_bh(&dev->lock);

	/* Reap it only once the caller has the result */
	ret = copy_to_user(up, &req, sizeof(req)) ? -EFAULT : 0;

	spin_lock_bh(&dev->lock);
	if (ret)
		acme_reject_locked(dev, "wait", "bad user pointer",
				   (s64)(unsigned long)up, ret);
	else if (cmd->in_table)
		acme_cmd_drop_locked(dev, af, cmd);
out_put:
	cmd->waiters--;
	acme_cmd_maybe_free_locked(cmd);
	spin_unlock_bh(&dev->lock);
	return ret;
}

static long acme_ioc_stats(struct acme_dev *dev, void __user *up)
{
	struct acme_xa_stats st;

	spin_lock_bh(&dev->lock);
	st = dev->st;
	st.size = sizeof(st);
	st.fw_state = dev->fw_state;
	st.in_flight = dev->tail - dev->head;
	st.ring_depth = RING_DEPTH;
	st.ring_wraps = (dev->tail - dev->reset_base) / RING_DEPTH;
	spin_unlock_bh(&dev->lock);
	if (copy_to_user(up, &st, sizeof(st)))
		return acme_reject(dev, "stats", "bad user pointer",
				   (s64)(unsigned long)up, -EFAULT);
	return 0;
}

static long acme_ioc_fw_info(struct acme_dev *dev, void __user *up)
{
	struct acme_xa_fw_info info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.abi_version = ACME_XA_ABI_VERSION;
	info.ring_depth = RING_DEPTH;
	info.max_length = ACME_XA_MAX_LENGTH;
	strscpy(info.driver_version, ACME_XA_VERSION, sizeof(info.driver_version));
	strscpy(info.fw_version, ACME_XA_FW_VERSION, sizeof(info.fw_version));
	spin_lock_bh(&dev->lock);
	info.fw_state = dev->fw_state;
	spin_unlock_bh(&dev->lock);
	strscpy(info.fw_state_name, acme_state_name(info.fw_state),
		sizeof(info.fw_state_name));
	if (copy_to_user(up, &info, sizeof(info)))
		return acme_reject(dev, "fw_info", "bad user pointer",
				   (s64)(unsigned long)up, -EFAULT);
	return 0;
}

static bool acme_reset_settled(struct acme_dev *dev)
{
	return READ_ONCE(dev->fw_state) != ACME_XA_FW_RESETTING;
}

static long acme_ioc_reset(struct acme_dev *dev)
{
	long ret;
	u64 now;

	ret = mutex_lock_interruptible(&dev->ctl_mutex);
	if (ret)
		return ret;
	spin_lock_bh(&dev->lock);
	now = acme_now_ns();
	/* Keep the results of what the firmware has finished */
	acme_service_locked(dev, now);
	dev->auto_resets_in_row = 0;
	acme_reset_locked(dev, "ioctl", now);
	acme_fw_advance_locked(dev, now);
	spin_unlock_bh(&dev->lock);
	ret = wait_event_interruptible_timeout(dev->state_wq,
					       acme_reset_settled(dev),
					       msecs_to_jiffies(ACME_RESET_WAIT_MS));
	if (ret > 0)
		ret = 0;
	else if (!ret)
		ret = -ETIMEDOUT;
	mutex_unlock(&dev->ctl_mutex);
	return ret;
}

static long acme_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct acme_file *af = file->private_data;
	struct acme_dev *dev = af->dev;
	void __user *up = (void __user *)arg;
	unsigned int expect;

	if (_IOC_TYPE(cmd) != ACME_XA_IOC_MAGIC)
		return acme_reject(dev, "ioctl", "unknown command", cmd, -ENOTTY);
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(ACME_XA_IOC_SUBMIT):
		expect = ACME_XA_IOC_SUBMIT;
		break;
	case _IOC_NR(ACME_XA_IOC_WAIT):
		expect = ACME_XA_IOC_WAIT;
		break;
	case _IOC_NR(ACME_XA_IOC_STATS):
		expect = ACME_XA_IOC_STATS;
		break;
	case _IOC_NR(ACME_XA_IOC_RESET):
		expect = ACME_XA_IOC_RESET;
		break;
	case _IOC_NR(ACME_XA_IOC_FW_INFO):
		expect = ACME_XA_IOC_FW_INFO;
		break;
	default:
		return acme_reject(dev, "ioctl", "unknown command", cmd, -ENOTTY);
	}
	/* A known command with another size or direction: a foreign ABI */
	if (cmd != expect)
		return acme_reject(dev, "ioctl", "bad size or direction", cmd,
				   -EINVAL);

	switch (cmd) {
	case ACME_XA_IOC_SUBMIT:
		return acme_ioc_submit(af, up, file->f_flags & O_NONBLOCK);
	case ACME_XA_IOC_WAIT:
		return acme_ioc_wait(af, up);
	case ACME_XA_IOC_STATS:
		return acme_ioc_stats(dev, up);
	case ACME_XA_IOC_RESET:
		return acme_ioc_reset(dev);
	default:
		return acme_ioc_fw_info(dev, up);
	}
}

static int acme_open(struct inode *inode, struct file *file)
{
	struct acme_dev *dev = container_of(file->private_data,
					    struct acme_dev, misc);
	struct acme_file *af;

	af = kzalloc(sizeof(*af), GFP_KERNEL);
	if (!af)
		return -ENOMEM;
	af->dev = dev;
	hash_init(af->cmds);
	init_waitqueue_head(&af->wq);
	file->private_data = af;
	return nonseekable_open(inode, file);
}

/*
 * Closing with commands in flight orphans them: the firmware skips the
 * ones it has not started and the driver frees them as they finish.
 */
static int acme_release(struct inode *inode, struct file *file)
{
	struct acme_file *af = file->private_data;
	struct acme_dev *dev = af->dev;
	struct hlist_node *tmp;
	struct acme_cmd *cmd;
	unsigned int bkt;

	spin_lock_bh(&dev->lock);
	hash_for_each_safe(af->cmds, bkt, tmp, cmd, hnode)
		acme_cmd_drop_locked(dev, af, cmd);
	spin_unlock_bh(&dev->lock);
	kfree(af);
	return 0;
}

static const struct file_operations acme_fops = {
	.owner = THIS_MODULE,
	.open = acme_open,
	.release = acme_release,
	.unlocked_ioctl = acme_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* ------------------------------------------------------------------ */
/* Load and unload                                                     */

/* Stop the firmware and free what is left; no file is open any more. */
static void acme_dev_teardown(struct acme_dev *dev)
{
	/* Once dying is set, no timer handler arms a timer again */
	spin_lock_bh(&dev->lock);
	dev->dying = true;
	spin_unlock_bh(&dev->lock);
	timer_delete_sync(&dev->fw_timer);
	timer_delete_sync(&dev->wd_timer);
	spin_lock_bh(&dev->lock);
	while (dev->head != dev->tail) {
		struct acme_cmd *cmd = acme_ring_at(dev, dev->head);

		dev->ring[dev->head % RING_DEPTH] = NULL;
		dev->head++;
		cmd->in_ring = false;
		acme_cmd_maybe_free_locked(cmd);
	}
	spin_unlock_bh(&dev->lock);
	mutex_destroy(&dev->ctl_mutex);
	kfree(dev);
}

static int __init acme_init(void)
{
	struct acme_dev *dev;
	u64 now;
	int ret;

	BUILD_BUG_ON(sizeof(struct acme_xa_submit) != 32);
	BUILD_BUG_ON(sizeof(struct acme_xa_wait) != 40);
	BUILD_BUG_ON(sizeof(struct acme_xa_stats) != 112);
	BUILD_BUG_ON(sizeof(struct acme_xa_fw_info) != 88);
	BUILD_BUG_ON(RING_DEPTH & (RING_DEPTH - 1));

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	spin_lock_init(&dev->lock);
	mutex_init(&dev->ctl_mutex);
	init_waitqueue_head(&dev->sq_wq);
	init_waitqueue_head(&dev->state_wq);
	timer_setup(&dev->fw_timer, acme_fw_timer_fn, 0);
	timer_setup(&dev->wd_timer, acme_wd_timer_fn, 0);
	dev->next_id = 1;
	dev->prng = error_seed;

	/* The firmware boots */
	spin_lock_bh(&dev->lock);
	dev->fw_state = ACME_XA_FW_BOOTING;
	now = acme_now_ns();
	dev->fw_ready_ns = now + ACME_FW_BOOT_US * NSEC_PER_USEC;
	acme_fw_advance_locked(dev, now);
	spin_unlock_bh(&dev->lock);

	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = ACME_XA_DEVNAME;
	dev->misc.fops = &acme_fops;
	dev->misc.mode = 0600;
	ret = misc_register(&dev->misc);
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", ACME_XA_DEVNAME, ret);
		acme_dev_teardown(dev);
		return ret;
	}
	acme_dev = dev;
	pr_info("Acme XA-1 accelerator driver %s: /dev/%s (error_rate=%u error_seed=%llu stall_after_wraps=%u cmd_timeout_ms=%u max_retries=%u reset_after_failures=%u)\n",
		ACME_XA_VERSION, ACME_XA_DEVNAME, error_rate, error_seed,
		stall_after_wraps, cmd_timeout_ms, max_retries,
		reset_after_failures);
	return 0;
}

static void __exit acme_exit(void)
{
	struct acme_dev *dev = acme_dev;

	misc_deregister(&dev->misc);
	acme_dev_teardown(dev);
	acme_dev = NULL;
	pr_info("unloaded\n");
}

module_init(acme_init);
module_exit(acme_exit);

/*
 * ACME_GPL_BUILD: the same source under the GPL, for debug kernels only.
 * With lockdep, mutex_lock_interruptible() is the GPL-only
 * mutex_lock_interruptible_nested(), which a proprietary module cannot
 * link against; the drop is always the proprietary build.
 */
#ifdef ACME_GPL_BUILD
MODULE_LICENSE("GPL");
#else
MODULE_LICENSE("Proprietary");
#endif
MODULE_VERSION(ACME_XA_VERSION);
MODULE_AUTHOR("Acme Corporation <drivers@acme.example>");
MODULE_DESCRIPTION("Acme XA-1 accelerator (simulated storage/crypto engine)");
