/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint markers_bench compares a marker with: same argument, same
 * place in the loop.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM markers_bench

#if !defined(_MARKERS_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MARKERS_BENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(bench_tracepoint,
	TP_PROTO(int i),
	TP_ARGS(i),
	TP_STRUCT__entry(
		__field(int, i)
	),
	TP_fast_assign(
		__entry->i = i;
	),
	TP_printk("i %d", __entry->i)
);

#endif /* _MARKERS_BENCH_TRACE_H */

/* This header lives beside the module, not in include/trace/events */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE markers_bench_trace
#include <trace/define_trace.h>
