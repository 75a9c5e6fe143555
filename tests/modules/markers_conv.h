/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formats and values of markers_conv's markers, which the tests
 * expect every tracer to report exactly (tests/events/guest/conversions.sh
 * has the same numbers as text).
 */
#ifndef MARKERS_CONV_H
#define MARKERS_CONV_H

#define MC_NARROW_FORMAT "s %hd us %hu sc %hhd uc %hhx c %c after %u"
#define MC_S		((short)-12345)
#define MC_US		((unsigned short)65535)
#define MC_SC		((signed char)-100)
#define MC_UC		((unsigned char)0xab)
#define MC_C		'Z'

#define MC_NAMED_FORMAT "sz %zu ssz %zd pd %td j %jd ju %ju L %Ld after %u"
#define MC_SZ		((size_t)0x123456789UL)
#define MC_SSZ		((ssize_t)-7)
#define MC_PD		((ptrdiff_t)-123456789012L)
#define MC_J		((__INTMAX_TYPE__)-9000000000LL)
#define MC_JU		((__UINTMAX_TYPE__)18000000000000000000ULL)
#define MC_L		(-42LL)

#define MC_PREC_FORMAT	"p %.4s w %-6.2s z %.0s after %u"
#define MC_W		"wxyz"

#define MC_PCT_FORMAT	"100%% done %u%%"

/* After every conversion: what follows a misread one shows it */
#define MC_AFTER	51966U

#endif
