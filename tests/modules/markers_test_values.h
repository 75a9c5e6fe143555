/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values the test modules' markers carry, one per conversion kind, so
 * the tests can check exactly what a probe receives.
 */
#ifndef MARKERS_TEST_VALUES_H
#define MARKERS_TEST_VALUES_H

#define MT_FORMAT	"u %u d %d llu %llu x %x s %s c %c p %p"
#define MT_U		4000000000U
#define MT_D		(-42)
#define MT_LLU		12345678901234ULL
#define MT_X		0xdeadbeefU
#define MT_S		"hello markers"
#define MT_C		'M'
#define MT_P		((void *)0xffff888012345678UL)

/* Most firings one write to the "fire" parameter may ask for */
#define MT_FIRE_MAX	1000000U

/*
 * The module parameter "fire": writing N fires the markers @args_marker
 * (MT_FORMAT, the values above) and @noargs_marker (MARK_NOARGS) N times.
 * Both test modules use it, each with its own marker names.
 */
#define MT_DEFINE_FIRE_PARAM(args_marker, noargs_marker)			\
static int fire_set(const char *val, const struct kernel_param *kp)		\
{										\
	unsigned int times;							\
	int ret = kstrtouint(val, 0, &times);					\
										\
	if (ret)								\
		return ret;							\
	if (times > MT_FIRE_MAX)						\
		return -ERANGE;							\
	while (times--) {							\
		trace_mark(args_marker, MT_FORMAT,				\
			   MT_U, MT_D, MT_LLU, MT_X, MT_S, MT_C, MT_P);		\
		trace_mark(noargs_marker, MARK_NOARGS);				\
	}									\
	return 0;								\
}										\
static const struct kernel_param_ops fire_ops = { .set = fire_set };		\
module_param_cb(fire, &fire_ops, NULL, 0200);					\
MODULE_PARM_DESC(fire, "fire every marker of this module N times")

#endif
