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

#endif
