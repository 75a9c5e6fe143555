// SPDX-License-Identifier: GPL-2.0
/*
 * markers_bench: what a marker costs, off and on, against a tracepoint, a
 * NOP and nothing at all, on one code path.
 *
 * Every method is a loop of its own around the same noinline callee,
 * bench_work(); the loops differ only in the instrumentation point before
 * the call, so the difference between two loops is what that point costs.
 * The kprobed loop calls a copy of it, bench_kprobed_work(), so that a
 * kprobe on that copy, the dynamic alternative on the same path, can be
 * attached in the same tracer session as the marker and the tracepoint
 * without firing in their loops: every round of a session then measures
 * all three side by side.
 *
 * Writing "<method> <iterations>" to /sys/kernel/debug/markers_bench/run
 * runs that loop in the writer's context and times it; reading the file
 * gives the last result as "<method> <iterations> <nanoseconds> <cpu>",
 * where <cpu> is the CPU the whole run ran on, or -1 if it moved: a
 * tracer's cost can depend on the CPU (bpftrace's perf event for a
 * tracepoint sits on CPU 0 only), so the bench pins its loops to one CPU
 * and checks here that they stayed there.
 * Methods: baseline, nop5, marker, tracepoint, kprobed, marker-probe and
 * tracepoint-probe (the marker or tracepoint loop with an empty in-kernel
 * probe registered for the run), and marker-args and marker-args-probe: a
 * marker whose argument is a call with a side effect, off and with an
 * empty probe. /sys/kernel/debug/markers_bench/evaluated counts the calls,
 * which shows that an off marker does not evaluate its arguments.
 * callee, callee-marker and callee-tracepoint call, every iteration, a
 * small noinline function that holds nothing, an off marker or an off
 * tracepoint: what a site costs the function it sits in while off (its
 * frame, saved registers, spilled arguments) shows there, not only the
 * NOP.
 *
 * The clock runs only while the loop does, with interrupts off: a chunk
 * of iterations at a time, interrupts and rescheduling between chunks.
 * Under QEMU's instruction counting the guest's clock counts
 * instructions, and a tick landing in one run and not the next would
 * otherwise be the largest difference between two runs of one loop.
 * /sys/kernel/debug/markers_bench/irqs_off (Y by default) turns that off
 * for a profiled run: a sampling profiler's interrupt would otherwise
 * land only between chunks, and blame the end of every chunk.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "markers_bench_trace.h"

/* A run longer than this would hold the CPU for minutes under TCG */
#define BENCH_MAX_ITERATIONS 1000000000ULL

/*
 * Iterations timed with interrupts off, between two chances to take
 * interrupts and reschedule: long enough that the two clock reads around
 * a chunk are lost in it, short enough (well under a second even under a
 * kprobe on TCG) that no watchdog sees a stuck CPU.
 */
#define BENCH_CHUNK 16384

/*
 * The work the instrumentation points sit beside.  Not static, so that
 * the compiler keeps the name and the calling convention, and a kprobe
 * finds it by name; the empty asm keeps a call to it from being folded
 * away as pure.
 */
noinline u32 bench_work(u32 i)
{
	asm volatile("");
	return (i * 2654435761U) >> 7;
}

/*
 * bench_work() under another name, for a kprobe of its own.  Another
 * multiplier of the same cost, so that the compiler's identical code
 * folding cannot make the two one function.
 */
noinline u32 bench_kprobed_work(u32 i)
{
	asm volatile("");
	return (i * 2246822519U) >> 7;
}

/* How often the argument of the marker in bench_loop_marker_args() ran */
static u64 bench_evaluated;

static noinline u32 bench_argument(u32 i)
{
	WRITE_ONCE(bench_evaluated, bench_evaluated + 1);
	return i;
}

static noinline u32 bench_loop_baseline(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++)
		sum += bench_work(i);
	return sum;
}

/* The physical floor: the 5-byte NOP an off static branch compiles to */
static noinline u32 bench_loop_nop5(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++) {
		asm volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00");
		sum += bench_work(i);
	}
	return sum;
}

static noinline u32 bench_loop_marker(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++) {
		trace_mark(bench_marker, "i %d", (int)i);
		sum += bench_work(i);
	}
	return sum;
}

static noinline u32 bench_loop_tracepoint(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++) {
		trace_bench_tracepoint((int)i);
		sum += bench_work(i);
	}
	return sum;
}

static noinline u32 bench_loop_kprobed(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++)
		sum += bench_kprobed_work(i);
	return sum;
}

/* The callees: each as small as a helper that holds a site can be */
static noinline u32 bench_callee_plain(u32 i)
{
	return bench_work(i) + 1;
}

static noinline u32 bench_callee_marker(u32 i)
{
	trace_mark(bench_marker_callee, "i %d", (int)i);
	return bench_work(i) + 1;
}

static noinline u32 bench_callee_tracepoint(u32 i)
{
	trace_bench_tracepoint((int)i);
	return bench_work(i) + 1;
}

static noinline u32 bench_loop_callee(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++)
		sum += bench_callee_plain(i);
	return sum;
}

static noinline u32 bench_loop_callee_marker(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++)
		sum += bench_callee_marker(i);
	return sum;
}

static noinline u32 bench_loop_callee_tracepoint(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++)
		sum += bench_callee_tracepoint(i);
	return sum;
}

static noinline u32 bench_loop_marker_args(u32 first, u32 count)
{
	u32 i, sum = 0;

	for (i = first; i < first + count; i++) {
		trace_mark(bench_marker_args, "v %u", bench_argument(i));
		sum += bench_work(i);
	}
	return sum;
}

/* The empty probes: what connecting a probe costs, nothing more */
static void bench_marker_probe(void *probe_private, void *call_private,
			       const char *fmt, va_list *args)
{
}

static void bench_tracepoint_probe(void *data, int i)
{
}

static int bench_marker_probe_attach(void)
{
	return marker_probe_register("bench_marker", "i %d",
				     bench_marker_probe, NULL);
}

static void bench_marker_probe_detach(void)
{
	marker_probe_unregister("bench_marker", bench_marker_probe, NULL);
}

static int bench_marker_args_probe_attach(void)
{
	return marker_probe_register("bench_marker_args", "v %u",
				     bench_marker_probe, NULL);
}

static void bench_marker_args_probe_detach(void)
{
	marker_probe_unregister("bench_marker_args", bench_marker_probe, NULL);
}

static int bench_tracepoint_probe_attach(void)
{
	return register_trace_bench_tracepoint(bench_tracepoint_probe, NULL);
}

static void bench_tracepoint_probe_detach(void)
{
	unregister_trace_bench_tracepoint(bench_tracepoint_probe, NULL);
	tracepoint_synchronize_unregister();
}

struct bench_method {
	const char *name;
	u32 (*loop)(u32 first, u32 count);
	int (*attach)(void);
	void (*detach)(void);
};

static const struct bench_method bench_methods[] = {
	{ "baseline", bench_loop_baseline },
	{ "nop5", bench_loop_nop5 },
	{ "marker", bench_loop_marker },
	{ "tracepoint", bench_loop_tracepoint },
	{ "kprobed", bench_loop_kprobed },
	{ "marker-probe", bench_loop_marker,
	  bench_marker_probe_attach, bench_marker_probe_detach },
	{ "tracepoint-probe", bench_loop_tracepoint,
	  bench_tracepoint_probe_attach, bench_tracepoint_probe_detach },
	{ "marker-args", bench_loop_marker_args },
	{ "marker-args-probe", bench_loop_marker_args,
	  bench_marker_args_probe_attach, bench_marker_args_probe_detach },
	{ "callee", bench_loop_callee },
	{ "callee-marker", bench_loop_callee_marker },
	{ "callee-tracepoint", bench_loop_callee_tracepoint },
};

/* One run at a time; the last result is what a read returns */
static DEFINE_MUTEX(bench_lock);
static char bench_result[96];
static struct dentry *bench_dir;

/* The loops' sum goes here, so that no loop is dead code */
static u32 bench_sink;

/* Whether the loop runs with interrupts off (see the top) */
static bool bench_irqs_off = true;

/*
 * The time of the loop alone, chunk by chunk with interrupts off (see the
 * top).  Sets *@cpu to the CPU the run stayed on, or to -1 if it moved.
 */
static u64 bench_run(const struct bench_method *method, u64 iterations,
		     int *cpu)
{
	u64 done = 0, ns = 0, start;
	unsigned long flags;
	u32 sum = 0;

	*cpu = raw_smp_processor_id();
	while (done < iterations) {
		u32 count = min_t(u64, iterations - done, BENCH_CHUNK);
		/* Read once per chunk: a chunk is all off or all on */
		bool irqs_off = READ_ONCE(bench_irqs_off);

		if (irqs_off)
			local_irq_save(flags);
		start = ktime_get_ns();
		sum += method->loop((u32)done, count);
		ns += ktime_get_ns() - start;
		if (irqs_off)
			local_irq_restore(flags);
		done += count;
		if (raw_smp_processor_id() != *cpu)
			*cpu = -1;
		cond_resched();
	}
	WRITE_ONCE(bench_sink, sum);
	return ns;
}

static ssize_t bench_run_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	const struct bench_method *method = NULL;
	char buf[64], *count;
	u64 iterations, ns;
	unsigned int i;
	int ret, cpu;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	count = strchr(buf, ' ');
	if (!count)
		return -EINVAL;
	*count++ = '\0';
	/* kstrtou64 refuses overflow and trailing junk, takes a newline */
	if (kstrtou64(count, 10, &iterations) || iterations == 0 ||
	    iterations > BENCH_MAX_ITERATIONS)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(bench_methods); i++)
		if (!strcmp(buf, bench_methods[i].name))
			method = &bench_methods[i];
	if (!method)
		return -EINVAL;

	if (mutex_lock_interruptible(&bench_lock))
		return -EINTR;
	if (method->attach) {
		ret = method->attach();
		if (ret)
			goto out;
	}
	ns = bench_run(method, iterations, &cpu);
	if (method->detach)
		method->detach();
	scnprintf(bench_result, sizeof(bench_result), "%s %llu %llu %d\n",
		  method->name, iterations, ns, cpu);
	ret = len;
out:
	mutex_unlock(&bench_lock);
	return ret;
}

static ssize_t bench_run_read(struct file *file, char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char result[sizeof(bench_result)];

	mutex_lock(&bench_lock);
	strscpy(result, bench_result, sizeof(result));
	mutex_unlock(&bench_lock);
	return simple_read_from_buffer(ubuf, len, ppos, result, strlen(result));
}

static const struct file_operations bench_run_fops = {
	.owner = THIS_MODULE,
	.write = bench_run_write,
	.read = bench_run_read,
	.llseek = default_llseek,
};

static int __init markers_bench_init(void)
{
	bench_dir = debugfs_create_dir("markers_bench", NULL);
	debugfs_create_file("run", 0600, bench_dir, NULL, &bench_run_fops);
	debugfs_create_u64("evaluated", 0400, bench_dir, &bench_evaluated);
	debugfs_create_bool("irqs_off", 0600, bench_dir, &bench_irqs_off);
	return 0;
}

static void __exit markers_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
}

module_init(markers_bench_init);
module_exit(markers_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers benchmark: markers against tracepoints, NOPs and kprobes");
