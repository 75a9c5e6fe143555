// SPDX-License-Identifier: GPL-2.0
/*
 * benchstat: turn the raw result lines of make bench (bench/run and
 * bench/guest.sh write them) into a report: cost per loop iteration per
 * method, ratios, verdicts against targets; optionally an SVG bar chart
 * drawn by gnuplot.
 *
 *   benchstat [--tsv] [--svg OUT.svg] RAW_FILE TARGETS_FILE
 *
 * Both files: one record per line, fields separated by blanks (spaces,
 * tabs).  Blank lines and lines whose first field starts with '#' are
 * ignored.  A line holds at most 4096 bytes; NUL, CR and the other control
 * characters except tab are rejected.
 *
 * RAW_FILE records:
 *   unit instructions | tcg-ns | ns
 *       What the guest's clock counted: instructions (QEMU -icount
 *       shift=0: one nanosecond per instruction executed), tcg-ns (QEMU
 *       TCG's emulated time: ratios only) or ns (hardware, KVM).  Exactly
 *       one.
 *   run <method> <iterations> <nanoseconds> <round>
 *       One timed run: <nanoseconds> of the guest's clock for <iterations>
 *       loop iterations.  Every run of a method has the same <iterations>
 *       (1..10^12); <nanoseconds> is 1..10^18.  <round> names the round
 *       (the methods of one round run back to back); a method has at most
 *       one run per round.  At least one run line.
 *   label <method> <text>
 *       What the method measures, shown in the report.  One per method.
 *   count <method> <expected> <counted>
 *       Events the runs fired (1..10^18) and events the tracer counted
 *       (0..10^18: a tracer that saw nothing is a finding, not bad input).
 *       Shown as counted/expected, flagged MISMATCH if they differ.  One per
 *       method.
 *   time <key> <seconds> <text>
 *       Another timing (kernel build, boot, stap compile...); <seconds> is a
 *       positive decimal such as 812 or 3.25.  Keys are unique.
 *   note [<text>]
 *       Printed verbatim in the Notes section, in order.
 * <method>, <round> and <key> are 1-40 characters of a-z, 0-9 and '-'.
 * Methods are reported in the order of their first run, label or count
 * line.  A method with a label but no runs is listed as not measured: a
 * tracer session that failed leaves one.
 *
 * TARGETS_FILE records:
 *   target <numerator> <denominator> <= | >= <value> <text>
 *       Claims that the ratio numerator/denominator (below) is <op> <value>,
 *       with <value> a positive decimal.  A method without runs makes the
 *       verdict "not measured".
 *   target <numerator> <denominator> ~ <value> <text>
 *       Claims that the two cost the same per iteration within <value> (in
 *       the unit): the difference numerator - denominator, paired or not as
 *       ratios are, lies in [-<value>, <value>].  Meant for instruction
 *       counts, where a difference of one instruction is a fact.
 *
 * Ratios between methods (targets, "x baseline", the ratios section):
 * QEMU TCG's noise is correlated within a round: the methods of a round
 * run back to back, so a slow stretch of the host slows all of them alike.
 * A run is best compared with the other method's run of the same round.
 *   PAIRED, when both methods have runs in at least 3 common rounds: per
 *       common round r, ratio_r = ns_per_iter(num, r) / ns_per_iter(den, r);
 *       the ratio is the median of the ratio_r, with their quartiles Q1
 *       and Q3 (linear interpolation between order statistics, see
 *       quantile()), min and max, and the number of pairs.  Runs in a
 *       round the other method has no run in are left out.  Verdict: "met"
 *       when the median, Q1 and Q3 all satisfy the target (the middle half
 *       of the rounds meets it), "missed by X%" when none does (X from the
 *       median), else "spread too wide to support".
 *   UNPAIRED, otherwise: guest.sh names a round after its session, so
 *       methods of different sessions (a tracer's against the baseline)
 *       share none.  median(num)/median(den) over all runs, with the range
 *       fastest(num)/slowest(den) to slowest(num)/fastest(den).  Verdict:
 *       "met" when the median and both ends of the range satisfy the
 *       target, "missed" when none does, else "spread too wide".  That
 *       range pits the luckiest run against the unluckiest, so it is far
 *       wider than the noise of a ratio: hence pairing where possible.
 *
 * --tsv prints, instead of the report, tab-separated lines ("-" where
 * there is no value), for tests/bench/10-quick.sh and the unit tests:
 *   method <name> <runs> <median> <min> <max> <x baseline>
 *       ns per iteration; <x baseline> is the ratio to the method named
 *       "baseline" (paired or not, as above).
 *   count <name> <expected> <counted> ok|MISMATCH
 *   target <num> <den> <ratio> <low> <high> <=|>=|~ <value>
 *          met|missed|too-wide|not-measured <q1> <q3> <pairs>
 *       <ratio> is the median; <low> <high> are min and max of the paired
 *       ratios, or the unpaired range; <q1> <q3> are "-" and <pairs> is 0
 *       when unpaired; all three are "-" when not measured.  For a ~
 *       target, <ratio> <low> <high> <q1> <q3> are differences.
 *
 * Limits: 256 methods, 1000 each of runs per method, targets, timings and
 * notes.
 *
 * Exit status: 0 when the report was written, even if targets were missed
 * or counts differ (those are findings); 1 on a system failure (I/O,
 * memory, gnuplot); 2 on a usage error or bad input, with the message
 * "benchstat: FILE:LINE: problem" on stderr.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LINE	4096
#define MAX_NAME	40
#define MAX_METHODS	256
#define MAX_ENTRIES	1000
#define MAX_ITERATIONS	1000000000000ULL
#define MAX_COUNT	1000000000000000000ULL
#define MAX_DECIMAL	1e9
#define REPORT_WIDTH	110
#define NAME_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789-"
#define BLANKS		" \t"
#define MIN_PAIRS	3	/* fewer in common (a session cut short): unpaired */

struct run {
	char round[MAX_NAME + 1];
	double ns_per_iter;
	unsigned long line;
};

struct method {
	char name[MAX_NAME + 1];
	char *label;
	unsigned long label_line;
	unsigned long long iterations;
	struct run *runs;	/* sorted by round once all input is read */
	size_t n_runs, runs_allocated;
	unsigned long count_line;	/* 0: no count line */
	unsigned long long expected, counted;
	double median, fastest, slowest;
};

struct timing {
	char key[MAX_NAME + 1];
	double seconds;
	char *text;
};

struct target {
	char numerator[MAX_NAME + 1], denominator[MAX_NAME + 1];
	bool at_most;		/* op "<=", else ">=" (unless difference) */
	bool difference;	/* op "~": |num - den| <= value */
	char value_text[32];	/* as written, so the report echoes it */
	double value;
	char *text;
};

/*
 * A ratio num/den.  Paired: the median, quartiles and extremes of the
 * per-round ratios over the `pairs` rounds both methods ran in.  Unpaired:
 * median(num)/median(den) and the extremes the individual runs allow
 * (q1, q3 unused, pairs 0).
 */
struct ratio {
	bool measured, paired;
	size_t pairs;
	double median, q1, q3, lo, hi;
};

enum verdict { MET, MISSED, TOO_WIDE, NOT_MEASURED };

static struct method *methods;
static size_t n_methods;
static struct timing *timings;
static size_t n_timings;
static char **notes;
static size_t n_notes;
static struct target *targets;
static size_t n_targets;

/* What the guest's clock counted; see the unit record. */
enum unit { UNIT_TCG_NS, UNIT_INSTRUCTIONS, UNIT_NS };
static enum unit unit;
static unsigned long unit_line;	/* 0: no unit line yet */
static const char *const unit_words[] = {
	[UNIT_TCG_NS] = "tcg-ns", [UNIT_INSTRUCTIONS] = "instructions",
	[UNIT_NS] = "ns",
};

/* Where input_error() points the user. */
static const char *current_file;
static unsigned long current_line;

static noreturn void input_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static noreturn void input_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "benchstat: %s:%lu: ", current_file, current_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static noreturn void system_error(const char *what)
{
	fprintf(stderr, "benchstat: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *grow(void *array, size_t *allocated, size_t used, size_t size)
{
	void *bigger;

	if (used < *allocated)
		return array;
	*allocated = *allocated ? 2 * *allocated : 8;
	bigger = realloc(array, *allocated * size);
	if (!bigger)
		system_error("out of memory");
	return bigger;
}

static char *copy_string(const char *s)
{
	char *copy = strdup(s);

	if (!copy)
		system_error("out of memory");
	return copy;
}

/*
 * Reads one line into buf (MAX_LINE + 1 bytes).  Returns false at end of
 * file.  Checks bytes here because fgets() would silently cut lines at NUL.
 */
static bool read_line(FILE *file, char *buf)
{
	size_t len = 0;
	int c;

	current_line++;
	while ((c = getc(file)) != EOF && c != '\n') {
		if (c == 0x7f || (c < 0x20 && c != '\t'))
			input_error("control character 0x%02x (binary data?)", c);
		if (len == MAX_LINE)
			input_error("line longer than %d bytes", MAX_LINE);
		buf[len++] = (char)c;
	}
	if (ferror(file))
		system_error(current_file);
	buf[len] = '\0';
	if (c == EOF && len == 0) {
		current_line--;
		return false;
	}
	return true;
}

/* Splits off the next blank-separated field; NULL when none is left. */
static char *next_field(char **cursor)
{
	char *start = *cursor + strspn(*cursor, BLANKS);
	char *end;

	if (*start == '\0')
		return NULL;
	end = start + strcspn(start, BLANKS);
	if (*end != '\0')
		*end++ = '\0';
	*cursor = end;
	return start;
}

static char *required_field(char **cursor, const char *what)
{
	char *field = next_field(cursor);

	if (!field)
		input_error("missing %s", what);
	return field;
}

/* Free text to the end of the line, without surrounding blanks. */
static char *rest_of_line(char **cursor)
{
	char *start = *cursor + strspn(*cursor, BLANKS);
	size_t len = strlen(start);

	while (len > 0 && strchr(BLANKS, start[len - 1]))
		start[--len] = '\0';
	return start;
}

static char *required_text(char **cursor, const char *what)
{
	char *text = rest_of_line(cursor);

	if (*text == '\0')
		input_error("missing %s", what);
	return text;
}

static void expect_end(char **cursor)
{
	const char *extra = next_field(cursor);

	if (extra)
		input_error("unexpected field '%.40s' at the end", extra);
}

static const char *parse_name(char **cursor, const char *what)
{
	const char *name = required_field(cursor, what);
	size_t len = strlen(name);

	if (len > MAX_NAME || strspn(name, NAME_CHARS) != len)
		input_error("%s '%.40s' is not 1-%d characters of a-z, 0-9, '-'",
			    what, name, MAX_NAME);
	return name;
}

static unsigned long long parse_integer(char **cursor, const char *what,
					unsigned long long min,
					unsigned long long max)
{
	const char *field = required_field(cursor, what);
	unsigned long long value = 0;
	const char *p;

	for (p = field; *p; p++) {
		unsigned digit = (unsigned)(*p - '0');

		if (*p < '0' || *p > '9')
			input_error("%s '%.40s' is not a whole number", what,
				    field);
		if (value > (max - digit) / 10)
			input_error("%s '%.40s' is larger than %llu", what,
				    field, max);
		value = value * 10 + digit;
	}
	if (value < min)
		input_error("%s must be at least %llu", what, min);
	return value;
}

/* Only plain decimals: strtod alone would also take "nan", "1e999", "-0". */
static double parse_decimal(char **cursor, const char *what, char *copy,
			    size_t copy_size)
{
	const char *field = required_field(cursor, what);
	size_t int_digits = strspn(field, "0123456789");
	const char *p = field + int_digits;
	double value;

	if (int_digits > 0 && *p == '.')
		p += 1 + strspn(p + 1, "0123456789");
	if (int_digits == 0 || *p != '\0' || p[-1] == '.')
		input_error("%s '%.40s' is not a decimal like 3 or 1.05", what,
			    field);
	if ((size_t)(p - field) >= copy_size)
		input_error("%s '%.40s' has too many digits", what, field);
	value = strtod(field, NULL);
	if (!(value > 0 && value <= MAX_DECIMAL))
		input_error("%s '%.40s' is not in (0, %g]", what, field,
			    MAX_DECIMAL);
	memcpy(copy, field, (size_t)(p - field) + 1);
	return value;
}

static struct method *find_method(const char *name)
{
	size_t i;

	for (i = 0; i < n_methods; i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

static struct method *find_or_add_method(const char *name)
{
	static size_t allocated;
	struct method *m = find_method(name);

	if (m)
		return m;
	if (n_methods == MAX_METHODS)
		input_error("more than %d methods", MAX_METHODS);
	methods = grow(methods, &allocated, n_methods, sizeof(*methods));
	m = &methods[n_methods++];
	memset(m, 0, sizeof(*m));
	strcpy(m->name, name);	/* parse_name() checked the length */
	return m;
}

static void parse_run(char **cursor)
{
	struct method *m = find_or_add_method(parse_name(cursor, "method"));
	unsigned long long iterations =
		parse_integer(cursor, "iterations", 1, MAX_ITERATIONS);
	unsigned long long ns =
		parse_integer(cursor, "nanoseconds", 1, MAX_COUNT);
	const char *round = parse_name(cursor, "round");
	struct run *r;
	size_t i;

	expect_end(cursor);
	/* A different loop length changes the per-iteration share of setup. */
	if (m->n_runs > 0 && iterations != m->iterations)
		input_error("%s: %llu iterations, but its run on line %lu had %llu",
			    m->name, iterations, m->runs[0].line,
			    m->iterations);
	/* A pair is one run of each method in a round: which would it be? */
	for (i = 0; i < m->n_runs; i++)
		if (strcmp(m->runs[i].round, round) == 0)
			input_error("second run of %s in round %s (first on line %lu)",
				    m->name, round, m->runs[i].line);
	if (m->n_runs == MAX_ENTRIES)
		input_error("%s: more than %d runs", m->name, MAX_ENTRIES);
	m->iterations = iterations;
	m->runs = grow(m->runs, &m->runs_allocated, m->n_runs, sizeof(*m->runs));
	r = &m->runs[m->n_runs++];
	strcpy(r->round, round);	/* parse_name() checked the length */
	r->ns_per_iter = (double)ns / (double)iterations;
	r->line = current_line;
}

static void parse_label(char **cursor)
{
	struct method *m = find_or_add_method(parse_name(cursor, "method"));
	const char *text = required_text(cursor, "label text");

	if (m->label)
		input_error("second label for %s (first on line %lu)", m->name,
			    m->label_line);
	m->label = copy_string(text);
	m->label_line = current_line;
}

static void parse_count(char **cursor)
{
	struct method *m = find_or_add_method(parse_name(cursor, "method"));
	unsigned long long expected =
		parse_integer(cursor, "expected events", 1, MAX_COUNT);
	unsigned long long counted =
		parse_integer(cursor, "counted events", 0, MAX_COUNT);

	expect_end(cursor);
	if (m->count_line)
		input_error("second count for %s (first on line %lu)", m->name,
			    m->count_line);
	m->expected = expected;
	m->counted = counted;
	m->count_line = current_line;
}

static void parse_time(char **cursor)
{
	static size_t allocated;
	const char *key = parse_name(cursor, "timing key");
	char unused[32];
	double seconds = parse_decimal(cursor, "seconds", unused,
				       sizeof(unused));
	const char *text = required_text(cursor, "timing description");
	size_t i;

	for (i = 0; i < n_timings; i++)
		if (strcmp(timings[i].key, key) == 0)
			input_error("second timing with key %s", key);
	if (n_timings == MAX_ENTRIES)
		input_error("more than %d time lines", MAX_ENTRIES);
	timings = grow(timings, &allocated, n_timings, sizeof(*timings));
	strcpy(timings[n_timings].key, key);
	timings[n_timings].seconds = seconds;
	timings[n_timings++].text = copy_string(text);
}

static void parse_note(char **cursor)
{
	static size_t allocated;

	if (n_notes == MAX_ENTRIES)
		input_error("more than %d note lines", MAX_ENTRIES);
	notes = grow(notes, &allocated, n_notes, sizeof(*notes));
	notes[n_notes++] = copy_string(rest_of_line(cursor));
}

static void parse_unit(char **cursor)
{
	const char *word = required_field(cursor, "unit");
	size_t i;

	if (unit_line)
		input_error("second unit line (the first is line %lu)",
			    unit_line);
	for (i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++)
		if (strcmp(word, unit_words[i]) == 0)
			break;
	if (i == sizeof(unit_words) / sizeof(unit_words[0]))
		input_error("unit '%.40s' is not instructions, tcg-ns or ns",
			    word);
	expect_end(cursor);
	unit = (enum unit)i;
	unit_line = current_line;
}

static void parse_raw_line(char *line)
{
	char *cursor = line;
	const char *keyword = next_field(&cursor);

	if (!keyword || keyword[0] == '#')
		return;
	if (strcmp(keyword, "run") == 0)
		parse_run(&cursor);
	else if (strcmp(keyword, "label") == 0)
		parse_label(&cursor);
	else if (strcmp(keyword, "count") == 0)
		parse_count(&cursor);
	else if (strcmp(keyword, "time") == 0)
		parse_time(&cursor);
	else if (strcmp(keyword, "note") == 0)
		parse_note(&cursor);
	else if (strcmp(keyword, "unit") == 0)
		parse_unit(&cursor);
	else
		input_error("unknown keyword '%.40s' (want run, label, count, time, note or unit)",
			    keyword);
}

static void parse_target_line(char *line)
{
	static size_t allocated;
	char *cursor = line;
	const char *keyword = next_field(&cursor);
	struct target *t;
	const char *op;

	if (!keyword || keyword[0] == '#')
		return;
	if (strcmp(keyword, "target") != 0)
		input_error("unknown keyword '%.40s' (want target)", keyword);
	if (n_targets == MAX_ENTRIES)
		input_error("more than %d targets", MAX_ENTRIES);
	targets = grow(targets, &allocated, n_targets, sizeof(*targets));
	t = &targets[n_targets];
	strcpy(t->numerator, parse_name(&cursor, "numerator method"));
	strcpy(t->denominator, parse_name(&cursor, "denominator method"));
	op = required_field(&cursor, "operator");
	if (strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0 &&
	    strcmp(op, "~") != 0)
		input_error("operator '%.40s' is not <=, >= or ~", op);
	t->difference = op[0] == '~';
	t->at_most = op[0] == '<';
	t->value = parse_decimal(&cursor, "target value", t->value_text,
				 sizeof(t->value_text));
	t->text = copy_string(required_text(&cursor, "target description"));
	n_targets++;
}

static void parse_file(const char *path, void (*parse)(char *line))
{
	static char line[MAX_LINE + 1];
	FILE *file = fopen(path, "r");

	current_file = path;
	current_line = 0;
	if (!file) {
		fprintf(stderr, "benchstat: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while (read_line(file, line))
		parse(line);
	fclose(file);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int by_cost(const void *a, const void *b)
{
	return compare_doubles(&((const struct run *)a)->ns_per_iter,
			       &((const struct run *)b)->ns_per_iter);
}

static int by_round(const void *a, const void *b)
{
	return strcmp(((const struct run *)a)->round,
		      ((const struct run *)b)->round);
}

/* By cost for the figures of each method, then by round for pairing. */
static void sort_runs(void)
{
	size_t i;

	for (i = 0; i < n_methods; i++) {
		struct method *m = &methods[i];
		const struct run *runs = m->runs;
		size_t n = m->n_runs;

		if (n == 0)
			continue;
		qsort(m->runs, n, sizeof(*runs), by_cost);
		m->fastest = runs[0].ns_per_iter;
		m->slowest = runs[n - 1].ns_per_iter;
		m->median = n % 2 ? runs[n / 2].ns_per_iter :
			(runs[n / 2 - 1].ns_per_iter + runs[n / 2].ns_per_iter) / 2;
		qsort(m->runs, n, sizeof(*runs), by_round);
	}
}

/*
 * The p-quantile of sorted x[0..n-1], n >= 1, by linear interpolation
 * between order statistics: at h = (n - 1) * p, x[floor(h)] plus
 * (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)]).  This is type 7 of
 * Hyndman and Fan (R's default, numpy's "linear"); p = 0.5 is the usual
 * median.  For 6 values: Q1 = x[1] + 0.25 (x[2] - x[1]), median halfway
 * between x[2] and x[3], Q3 = x[3] + 0.75 (x[4] - x[3]).
 */
static double quantile(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - (double)i) * (x[i + 1] - x[i]);
}

/*
 * The per-round ratios num/den over the rounds both ran in, into ratios
 * (room for the smaller of their run counts); returns how many.  Both
 * runs arrays are sorted by round and hold a round at most once.
 */
static size_t paired_ratios(const struct method *num, const struct method *den,
			    bool difference, double *ratios)
{
	size_t i = 0, j = 0, n = 0;

	while (i < num->n_runs && j < den->n_runs) {
		int order = strcmp(num->runs[i].round, den->runs[j].round);

		if (order < 0) {
			i++;
		} else if (order > 0) {
			j++;
		} else {
			double a_cost = num->runs[i++].ns_per_iter;
			double b_cost = den->runs[j++].ns_per_iter;

			ratios[n++] = difference ? a_cost - b_cost :
				a_cost / b_cost;
		}
	}
	return n;
}

/*
 * num/den, or num - den when difference (then every field of the result
 * is a difference, and the unpaired range is fastest - slowest to slowest
 * - fastest).
 */
static struct ratio compare_methods(const struct method *num,
				    const struct method *den, bool difference)
{
	struct ratio r = { false, false, 0, 0, 0, 0, 0, 0 };
	double *ratios;

	if (!num || !den || num->n_runs == 0 || den->n_runs == 0)
		return r;
	r.measured = true;
	ratios = malloc((num->n_runs < den->n_runs ? num->n_runs : den->n_runs) *
			sizeof(*ratios));
	if (!ratios)
		system_error("out of memory");
	r.pairs = paired_ratios(num, den, difference, ratios);
	if (r.pairs >= MIN_PAIRS) {
		qsort(ratios, r.pairs, sizeof(*ratios), compare_doubles);
		r.paired = true;
		r.median = quantile(ratios, r.pairs, 0.5);
		r.q1 = quantile(ratios, r.pairs, 0.25);
		r.q3 = quantile(ratios, r.pairs, 0.75);
		r.lo = ratios[0];
		r.hi = ratios[r.pairs - 1];
	}
	free(ratios);
	if (r.paired)
		return r;
	r.pairs = 0;
	if (difference) {
		r.median = num->median - den->median;
		r.lo = num->fastest - den->slowest;
		r.hi = num->slowest - den->fastest;
	} else {
		r.median = num->median / den->median;
		r.lo = num->fastest / den->slowest;
		r.hi = num->slowest / den->fastest;
	}
	return r;
}

static struct ratio ratio_between(const struct method *num,
				  const struct method *den)
{
	return compare_methods(num, den, false);
}

static struct ratio target_ratio(const struct target *t)
{
	return compare_methods(find_method(t->numerator),
			       find_method(t->denominator), t->difference);
}

static bool satisfies(const struct target *t, double ratio)
{
	if (t->difference)
		return fabs(ratio) <= t->value;
	return t->at_most ? ratio <= t->value : ratio >= t->value;
}

/*
 * Paired: the middle half of the rounds (Q1..Q3) must meet the target, or
 * miss it, for a verdict.  Unpaired: the whole range, since nothing narrower
 * can be told from runs that are not matched up.  The claim is a half-line
 * or (~) an interval around 0, so checking both ends of an interval and
 * its median covers all of it.
 */
static enum verdict judge(const struct target *t, struct ratio r)
{
	double lo = r.paired ? r.q1 : r.lo, hi = r.paired ? r.q3 : r.hi;

	if (!r.measured)
		return NOT_MEASURED;
	if (satisfies(t, r.median) && satisfies(t, lo) && satisfies(t, hi))
		return MET;
	if (!satisfies(t, r.median) && !satisfies(t, lo) && !satisfies(t, hi))
		return MISSED;
	return TOO_WIDE;
}

static bool count_mismatch(const struct method *m)
{
	return m->count_line && m->counted != m->expected;
}

/* A ratio as the report shows it: the columns ratio to pairs. */
struct ratio_text {
	char median[48], middle[100], range[100], pairs[24];
};

/* Widths of those columns, at least those of their headings. */
struct ratio_widths {
	int median, middle, range, pairs;
};

static struct ratio_text ratio_text(struct ratio r, bool difference)
{
	const char *one = difference ? "%+.3f" : "%.3f";
	const char *two = difference ? "%+.3f..%+.3f" : "%.3f-%.3f";
	struct ratio_text t;

	if (!r.measured) {
		strcpy(t.median, "-");
		strcpy(t.middle, "-");
		strcpy(t.range, "-");
		strcpy(t.pairs, "-");
		return t;
	}
	snprintf(t.median, sizeof(t.median), one, r.median);
	if (r.paired) {
		snprintf(t.middle, sizeof(t.middle), two, r.q1, r.q3);
		snprintf(t.pairs, sizeof(t.pairs), "%zu", r.pairs);
	} else {
		strcpy(t.middle, "-");
		strcpy(t.pairs, "unpaired");
	}
	snprintf(t.range, sizeof(t.range), two, r.lo, r.hi);
	return t;
}

static struct ratio_widths heading_widths(void)
{
	struct ratio_widths w = { 7, (int)strlen("middle half"),
				  (int)strlen("range"), (int)strlen("pairs") };

	return w;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void widen(struct ratio_widths *w, struct ratio r, bool difference)
{
	struct ratio_text t = ratio_text(r, difference);

	w->median = max_int(w->median, (int)strlen(t.median));
	w->middle = max_int(w->middle, (int)strlen(t.middle));
	w->range = max_int(w->range, (int)strlen(t.range));
	w->pairs = max_int(w->pairs, (int)strlen(t.pairs));
}

/*
 * Prints the columns ratio to pairs, with a leading blank; pads pairs too
 * unless it ends the line.  Returns the width printed.
 */
static int print_ratio_columns(const struct ratio_widths *w, struct ratio r,
			       bool difference, bool last)
{
	struct ratio_text t = ratio_text(r, difference);

	return printf(" %*s  %-*s  %-*s  %-*s", w->median, t.median, w->middle,
		      t.middle, w->range, t.range, last ? 0 : w->pairs, t.pairs);
}

static void print_ratio_headings(const struct ratio_widths *w, bool last)
{
	printf(" %*s  %-*s  %-*s  %-*s", w->median, "ratio", w->middle,
	       "middle half", w->range, "range", last ? 0 : w->pairs, "pairs");
}

/*
 * Prints text starting at column col, breaking between words before
 * REPORT_WIDTH; continuation lines start at column indent.
 */
static void print_wrapped(const char *text, int col, int indent)
{
	bool word_on_line = false;
	const char *p = text + strspn(text, BLANKS);

	while (*p) {
		int len = (int)strcspn(p, BLANKS);	/* <= MAX_LINE */

		if (word_on_line && col + 1 + len > REPORT_WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
			word_on_line = false;
		}
		col += printf("%s%.*s", word_on_line ? " " : "", len, p);
		word_on_line = true;
		p += len;
		p += strspn(p, BLANKS);
	}
	putchar('\n');
}

/* Width of the "num/den" column; the ratios section adds method/baseline. */
static int pair_width(bool with_baseline_pairs)
{
	int width = (int)strlen("target");
	size_t i;

	for (i = 0; i < n_targets; i++) {
		int w = (int)(strlen(targets[i].numerator) +
			      strlen(targets[i].denominator) + 1);

		if (w > width)
			width = w;
	}
	for (i = 0; with_baseline_pairs && i < n_methods; i++) {
		int w = (int)strlen(methods[i].name) + (int)strlen("/baseline");

		if (w > width)
			width = w;
	}
	return width;
}

/*
 * The description goes on its own line under each row: beside the numbers
 * and the event counts it would push the table past REPORT_WIDTH.
 */
static void print_method_table(void)
{
	const struct method *baseline = find_method("baseline");
	int name_width = (int)strlen("method");
	size_t i;

	for (i = 0; i < n_methods; i++)
		if ((int)strlen(methods[i].name) > name_width)
			name_width = (int)strlen(methods[i].name);
	printf("%-*s %5s %10s %8s %8s %8s %7s %11s  events\n", name_width,
	       "method", "runs", "iterations", "median", "min", "max",
	       "spread", "x baseline");
	for (i = 0; i < n_methods; i++) {
		const struct method *m = &methods[i];
		struct ratio r = ratio_between(m, baseline);

		printf("%-*s %5zu", name_width, m->name, m->n_runs);
		if (m->n_runs)
			printf(" %10llu %8.2f %8.2f %8.2f %6.1f%%", m->iterations,
			       m->median, m->fastest, m->slowest,
			       100 * (m->slowest - m->fastest) / m->median);
		else
			printf(" %10s %8s %8s %8s %7s", "-", "-", "-", "-", "-");
		if (r.measured)
			printf(" %11.3f", r.median);
		else
			printf(" %11s", "-");
		if (m->count_line)
			printf("  %llu/%llu%s\n", m->counted, m->expected,
			       count_mismatch(m) ? " MISMATCH" : "");
		else
			printf("  -\n");
		if (m->label) {
			printf("    ");
			print_wrapped(m->label, 4, 4);
		}
	}
}

static void describe_verdict(char *buf, size_t size, const struct target *t,
			     struct ratio r)
{
	const struct method *num = find_method(t->numerator);

	switch (judge(t, r)) {
	case MET:
		snprintf(buf, size, "met");
		break;
	case MISSED:
		if (t->difference)
			snprintf(buf, size, "missed: %+.2f %s per iteration",
				 r.median, unit_words[unit]);
		else
			snprintf(buf, size, "missed by %.1f%%",
				 100 * fabs(r.median - t->value) / t->value);
		break;
	case TOO_WIDE:
		snprintf(buf, size, "spread too wide to support (median %s it)",
			 satisfies(t, r.median) ? "meets" : "misses");
		break;
	case NOT_MEASURED:
		snprintf(buf, size, "not measured (no runs of %s)",
			 num && num->n_runs ? t->denominator : t->numerator);
		break;
	}
}

/* Columns sized to their content: the verdict text needs the room. */
static void print_targets(void)
{
	struct ratio_widths widths = heading_widths();
	int width = pair_width(false), want_width = 4;
	char pair[2 * MAX_NAME + 2], want[40], verdict[80];
	size_t i;

	printf("\nTargets (paired: met when the middle half of the rounds meets it; unpaired: the whole range;\n"
	       "  ~: the same cost per iteration within the value, the columns then differences in %s)\n",
	       unit_words[unit]);
	if (n_targets == 0) {
		printf("(none)\n");
		return;
	}
	for (i = 0; i < n_targets; i++) {
		widen(&widths, target_ratio(&targets[i]), targets[i].difference);
		want_width = max_int(want_width,
				     (int)strlen(targets[i].value_text) + 3);
	}
	printf("%-*s", width, "target");
	print_ratio_headings(&widths, false);
	printf("  %-*s  verdict\n", want_width, "want");
	for (i = 0; i < n_targets; i++) {
		const struct target *t = &targets[i];
		struct ratio r = target_ratio(t);
		int col;

		snprintf(pair, sizeof(pair), "%s/%s", t->numerator,
			 t->denominator);
		snprintf(want, sizeof(want), "%s %s",
			 t->difference ? "~" : t->at_most ? "<=" : ">=",
			 t->value_text);
		describe_verdict(verdict, sizeof(verdict), t, r);
		col = printf("%-*s", width, pair);
		col += print_ratio_columns(&widths, r, t->difference, false);
		col += printf("  %-*s  ", want_width, want);
		print_wrapped(verdict, col, col);
		printf("    ");
		print_wrapped(t->text, 4, 4);
	}
}

/*
 * The rows of the ratios section: every method to baseline, then the
 * targets' ratios not shown yet.  Only widens the columns unless print.
 */
static void ratio_rows(bool print, int width, struct ratio_widths *widths)
{
	const struct method *baseline = find_method("baseline");
	char pair[2 * MAX_NAME + 2];
	size_t i, j;

	for (i = 0; i < n_methods; i++) {
		struct ratio r = ratio_between(&methods[i], baseline);

		if (!r.measured)
			continue;
		if (!print) {
			widen(widths, r, false);
			continue;
		}
		snprintf(pair, sizeof(pair), "%s/baseline", methods[i].name);
		printf("%-*s", width, pair);
		print_ratio_columns(widths, r, false, true);
		putchar('\n');
	}
	for (i = 0; i < n_targets; i++) {
		const struct target *t = &targets[i];
		struct ratio r = target_ratio(t);
		bool shown = strcmp(t->denominator, "baseline") == 0;

		for (j = 0; j < i && !shown; j++)
			shown = strcmp(targets[j].numerator, t->numerator) == 0 &&
				strcmp(targets[j].denominator, t->denominator) == 0;
		if (!r.measured || shown || t->difference)
			continue;
		if (!print) {
			widen(widths, r, false);
			continue;
		}
		snprintf(pair, sizeof(pair), "%s/%s", t->numerator,
			 t->denominator);
		printf("%-*s", width, pair);
		print_ratio_columns(widths, r, false, true);
		putchar('\n');
	}
}

static void print_ratios(void)
{
	struct ratio_widths widths = heading_widths();
	int width = pair_width(true);

	ratio_rows(false, width, &widths);
	printf("\nRatios between methods\n"
	       "  paired (3 or more rounds in common): ratio = median of the per-round ratios,\n"
	       "      middle half = their quartiles Q1-Q3, range = their min-max, pairs = rounds in common\n"
	       "  unpaired: ratio = median/median, range = fastest/slowest run to slowest/fastest run\n");
	printf("%-*s", width, "methods");
	print_ratio_headings(&widths, true);
	putchar('\n');
	ratio_rows(true, width, &widths);
}

static void print_timings_and_notes(void)
{
	int width = (int)strlen("what");
	size_t i;

	if (n_timings) {
		for (i = 0; i < n_timings; i++)
			if ((int)strlen(timings[i].text) > width)
				width = (int)strlen(timings[i].text);
		if (width > REPORT_WIDTH - 11)
			width = REPORT_WIDTH - 11;
		printf("\nOther timings\n%-*s %10s\n", width, "what", "seconds");
		for (i = 0; i < n_timings; i++) {
			if ((int)strlen(timings[i].text) > width) {
				print_wrapped(timings[i].text, 0, 0);
				printf("%-*s", width, "");
			} else {
				printf("%-*s", width, timings[i].text);
			}
			printf(" %10.2f\n", timings[i].seconds);
		}
	}
	if (n_notes) {
		printf("\nNotes\n");
		for (i = 0; i < n_notes; i++)
			printf("%s\n", notes[i]);
	}
}

/* The report's first line and the chart's title and axis: what was counted */
static const char *const unit_headings[] = {
	[UNIT_TCG_NS] = "ns per loop iteration (QEMU TCG: only ratios are claimed, not absolute times)",
	[UNIT_INSTRUCTIONS] = "instructions per loop iteration (QEMU -icount shift=0: the guest's clock counts executed instructions)",
	[UNIT_NS] = "ns per loop iteration (hardware virtualization: absolute times of this machine)",
};
static const char *const unit_axes[] = {
	[UNIT_TCG_NS] = "ns per loop iteration (TCG, log scale)",
	[UNIT_INSTRUCTIONS] = "instructions per loop iteration (log scale)",
	[UNIT_NS] = "ns per loop iteration (log scale)",
};
static const char *const unit_chart_titles[] = {
	[UNIT_TCG_NS] = "Markers benchmark (QEMU TCG): ns per iteration, median with min-max",
	[UNIT_INSTRUCTIONS] = "Markers benchmark (QEMU icount): instructions per iteration, median with min-max",
	[UNIT_NS] = "Markers benchmark (KVM): ns per iteration, median with min-max",
};

static void print_report(void)
{
	printf("Markers benchmark: %s\n\n", unit_headings[unit]);
	print_method_table();
	print_targets();
	print_ratios();
	print_timings_and_notes();
}

static void print_tsv(void)
{
	static const char *const verdict_words[] = {
		[MET] = "met", [MISSED] = "missed", [TOO_WIDE] = "too-wide",
		[NOT_MEASURED] = "not-measured",
	};
	const struct method *baseline = find_method("baseline");
	size_t i;

	for (i = 0; i < n_methods; i++) {
		const struct method *m = &methods[i];
		struct ratio r = ratio_between(m, baseline);

		if (m->n_runs == 0) {
			printf("method\t%s\t0\t-\t-\t-\t-\n", m->name);
			continue;
		}
		printf("method\t%s\t%zu\t%.6f\t%.6f\t%.6f\t", m->name,
		       m->n_runs, m->median, m->fastest, m->slowest);
		if (r.measured)
			printf("%.6f\n", r.median);
		else
			printf("-\n");
	}
	for (i = 0; i < n_methods; i++)
		if (methods[i].count_line)
			printf("count\t%s\t%llu\t%llu\t%s\n", methods[i].name,
			       methods[i].expected, methods[i].counted,
			       count_mismatch(&methods[i]) ? "MISMATCH" : "ok");
	for (i = 0; i < n_targets; i++) {
		const struct target *t = &targets[i];
		struct ratio r = target_ratio(t);

		printf("target\t%s\t%s\t", t->numerator, t->denominator);
		if (r.measured)
			printf("%.6f\t%.6f\t%.6f\t", r.median, r.lo, r.hi);
		else
			printf("-\t-\t-\t");
		printf("%s\t%s\t%s\t",
		       t->difference ? "~" : t->at_most ? "<=" : ">=",
		       t->value_text, verdict_words[judge(t, r)]);
		if (r.paired)
			printf("%.6f\t%.6f\t%zu\n", r.q1, r.q3, r.pairs);
		else if (r.measured)
			printf("-\t-\t0\n");
		else
			printf("-\t-\t-\n");
	}
}

static bool write_chart_files(const char *data_path, const char *script_path)
{
	FILE *data = fopen(data_path, "w");
	FILE *script = data ? fopen(script_path, "w") : NULL;
	double low = INFINITY, high = 0;
	size_t i, bars = 0;
	bool ok;

	if (!script) {
		if (data)
			fclose(data);
		return false;
	}
	for (i = 0; i < n_methods; i++) {
		const struct method *m = &methods[i];

		if (m->n_runs == 0)
			continue;
		fprintf(data, "%s %.9g %.9g %.9g\n", m->name, m->median,
			m->fastest, m->slowest);
		low = fmin(low, m->fastest);
		high = fmax(high, m->slowest);
		bars++;
	}
	/* Log scale: kprobe-based methods can be 100x the baseline. */
	fprintf(script,
		"set terminal svg size 1000,600 noenhanced font 'sans,11' background '#ffffff'\n"
		"set title '%s'\n"
		"set logscale y\nset yrange [%.9g:%.9g]\n"
		"set ylabel '%s'\n"
		"set xrange [-0.6:%.1f]\nset xtics rotate by 40 right nomirror\n"
		"set grid ytics\nset key off\nset boxwidth 0.7\n"
		"set style fill solid 0.5 border -1\n"
		"plot 'bars.dat' using 0:2:xtic(1) with boxes notitle lc rgb '#4c72b0', \\\n"
		"     '' using 0:2:3:4 with yerrorbars notitle ps 0 lw 1.5 lc rgb '#000000', \\\n"
		"     '' using 0:4:(sprintf('%%.1f', $2)) with labels notitle offset 0,0.8 font ',9'\n",
		unit_chart_titles[unit], low / 2, high * 4, unit_axes[unit],
		(double)bars - 0.6);
	ok = !ferror(data) && !ferror(script);
	ok = (fclose(data) == 0) && ok;
	ok = (fclose(script) == 0) && ok;
	return ok;
}

/* Runs gnuplot in dir with stdout redirected to svg_fd; true on success. */
static bool run_gnuplot(const char *dir, int svg_fd)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if (dup2(svg_fd, STDOUT_FILENO) < 0 || chdir(dir) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", "chart.gp", (char *)NULL);
		fprintf(stderr, "benchstat: cannot run gnuplot: %s\n",
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int write_chart(const char *svg_path)
{
	const char *tmp = getenv("TMPDIR");
	char dir[MAX_LINE], data_path[MAX_LINE + 16], script_path[MAX_LINE + 16];
	int svg_fd;
	bool ok;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(dir, sizeof(dir), "%s/benchstat.XXXXXX", tmp) >=
	    sizeof(dir)) {
		fprintf(stderr, "benchstat: TMPDIR is too long\n");
		return 1;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "benchstat: cannot create a directory in %s: %s\n",
			tmp, strerror(errno));
		return 1;
	}
	snprintf(data_path, sizeof(data_path), "%s/bars.dat", dir);
	snprintf(script_path, sizeof(script_path), "%s/chart.gp", dir);
	ok = write_chart_files(data_path, script_path);
	if (!ok)
		fprintf(stderr, "benchstat: cannot write gnuplot input in %s: %s\n",
			dir, strerror(errno));
	svg_fd = ok ? open(svg_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			   0644) : -1;
	if (ok && svg_fd < 0) {
		fprintf(stderr, "benchstat: %s: %s\n", svg_path, strerror(errno));
		ok = false;
	}
	if (ok) {
		ok = run_gnuplot(dir, svg_fd);
		ok = (close(svg_fd) == 0) && ok;
		if (!ok) {
			fprintf(stderr, "benchstat: gnuplot failed; no chart written to %s\n",
				svg_path);
			unlink(svg_path);
		}
	}
	unlink(data_path);
	unlink(script_path);
	rmdir(dir);
	return ok ? 0 : 1;
}

static void free_everything(void)
{
	size_t i;

	for (i = 0; i < n_methods; i++) {
		free(methods[i].label);
		free(methods[i].runs);
	}
	for (i = 0; i < n_timings; i++)
		free(timings[i].text);
	for (i = 0; i < n_notes; i++)
		free(notes[i]);
	for (i = 0; i < n_targets; i++)
		free(targets[i].text);
	free(methods);
	free(timings);
	free(notes);
	free(targets);
}

static noreturn void usage(const char *problem)
{
	fprintf(stderr, "benchstat: %s\n"
		"usage: benchstat [--tsv] [--svg OUT.svg] RAW_FILE TARGETS_FILE\n",
		problem);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *svg_path = NULL;
	bool tsv = false;
	size_t i;
	int argi, status = 0;

	for (argi = 1; argi < argc && argv[argi][0] == '-' && argv[argi][1]; argi++) {
		const char *opt = argv[argi];

		if (strcmp(opt, "--") == 0) {
			argi++;
			break;
		} else if (strcmp(opt, "--tsv") == 0) {
			tsv = true;
		} else if (strcmp(opt, "--svg") == 0 && argi + 1 < argc) {
			svg_path = argv[++argi];
		} else if (strcmp(opt, "--help") == 0) {
			printf("usage: benchstat [--tsv] [--svg OUT.svg] RAW_FILE TARGETS_FILE\n"
			       "The input formats are described at the top of benchstat.c.\n");
			return 0;
		} else {
			usage("unknown option or missing argument");
		}
	}
	if (argc - argi != 2)
		usage("need exactly two files: RAW_FILE TARGETS_FILE");

	parse_file(argv[argi], parse_raw_line);
	if (current_line == 0)
		current_line = 1;	/* an empty file */
	for (i = 0; i < n_methods && methods[i].n_runs == 0; i++)
		;
	if (i == n_methods)
		input_error("no 'run' line: nothing was measured");
	if (!unit_line)
		input_error("no 'unit' line: what did the guest's clock count?");
	parse_file(argv[argi + 1], parse_target_line);
	sort_runs();

	if (tsv)
		print_tsv();
	else
		print_report();
	if (svg_path)
		status = write_chart(svg_path);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "benchstat: writing the report: %s\n", strerror(errno));
		status = 1;
	}
	free_everything();
	return status;
}
