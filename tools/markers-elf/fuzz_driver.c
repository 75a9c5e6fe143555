// SPDX-License-Identifier: GPL-2.0
/*
 * Standalone fuzz driver for LLVMFuzzerTestOneInput, for hosts without
 * libFuzzer.  Build with gcc -fsanitize=address,undefined
 * -fno-sanitize-recover=all; a sanitizer report aborts the process with a
 * non-zero status after the offending input was saved.
 *
 *   fuzz-markers-elf [-runs=N] [-seed=S] [-max_total_time=SEC]
 *                    [-max_len=BYTES] [-timeout=SEC] [-artifact_prefix=P]
 *                    [-verbosity=0|1] FILE_OR_DIR...
 *
 * Every seed is run unmodified first, then mutated inputs are run until
 * -runs inputs (all runs, seeds included) or -max_total_time seconds,
 * whichever comes first (default: 20 seconds).  The sequence of inputs is
 * deterministic for a given -seed and corpus: bit flips, byte sets,
 * "interesting" values written at ELF header and section header fields,
 * edits inside __markers_strings, truncation, insertion, deletion and
 * splicing.  Inputs that produce a new coarse outcome (markers_fuzz_feature)
 * are added to the in-memory corpus.
 *
 * Exit status: 0 no finding; 2 usage; 70 an input ran longer than -timeout
 * seconds; otherwise the sanitizer's (1 for ASan, SIGABRT for UBSan).  The
 * offending input is saved as <artifact_prefix>crash-N or timeout-N.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern uint32_t markers_fuzz_feature;

/* Present when linked with a sanitizer runtime. */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

/*
 * gcc links libubsan separately from libasan, so UBSan does not run the
 * ASan death callback: make UBSan abort() instead and catch SIGABRT.
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "abort_on_error=1:print_stacktrace=1";
}

#define MAX_CORPUS	4096
#define FEAT_BITS	16

struct unit {
	uint8_t *p;
	size_t n;
};

static struct unit corpus[MAX_CORPUS];
static size_t ncorpus, nseeds;
static uint8_t feat_seen[(1U << FEAT_BITS) / 8];
static size_t nfeat;

/* State of the input being run, for the crash/timeout handlers. */
static uint8_t *cur;
static size_t cur_len;
static volatile sig_atomic_t cur_iter, last_seen_iter, stuck_ticks;
static const char *artifact_prefix = "";
static unsigned long timeout_sec = 10;

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;	/* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 2685821657736338717ULL;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Async-signal-safe: write the current input to PREFIX<kind>-<iter>. */
static void save_input(const char *kind)
{
	char path[4096], num[24];
	size_t pl = strlen(artifact_prefix), kl = strlen(kind), nl = 0, off;
	unsigned long v = (unsigned long)cur_iter;
	int fd;

	do {
		num[sizeof(num) - 1 - nl++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && nl < sizeof(num) - 1);
	if (pl + kl + nl + 2 > sizeof(path))
		return;
	memcpy(path, artifact_prefix, pl);
	memcpy(path + pl, kind, kl);
	path[pl + kl] = '-';
	memcpy(path + pl + kl + 1, num + sizeof(num) - nl, nl);
	path[pl + kl + 1 + nl] = '\0';
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	for (off = 0; off < cur_len;) {
		ssize_t w = write(fd, cur + off, cur_len - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd);
	(void)!write(2, "fuzz: input saved to ", 21);
	(void)!write(2, path, strlen(path));
	(void)!write(2, "\n", 1);
}

static void on_death(void)
{
	save_input("crash");
}

static void on_abort(int sig)
{
	save_input("crash");
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (cur_iter != last_seen_iter) {
		last_seen_iter = cur_iter;
		stuck_ticks = 0;
		return;
	}
	if ((unsigned long)++stuck_ticks < timeout_sec)
		return;
	(void)!write(2, "fuzz: ERROR: timeout\n", 21);
	save_input("timeout");
	_exit(70);
}

static int add_unit(const uint8_t *p, size_t n)
{
	uint8_t *c;

	if (ncorpus == MAX_CORPUS)
		return 0;
	c = malloc(n ? n : 1);
	if (!c)
		return -1;
	if (n)
		memcpy(c, p, n);
	corpus[ncorpus].p = c;
	corpus[ncorpus].n = n;
	ncorpus++;
	return 1;
}

static int load_file(const char *path, size_t max_len)
{
	struct stat st;
	uint8_t *buf;
	size_t n = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "fuzz: %s: cannot read seed\n", path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	buf = malloc(max_len ? max_len : 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (n < max_len) {
		ssize_t r = read(fd, buf + n, max_len - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	ret = add_unit(buf, n) < 0 ? -1 : 0;
	free(buf);
	return ret;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Load a seed file, or every regular file in a directory (sorted). */
static int load_path(const char *path, size_t max_len)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;
	DIR *d;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return load_file(path, max_len);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char **nn, *full;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&full, "%s/%s", path, de->d_name) < 0)
			break;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn) {
			free(full);
			break;
		}
		names = nn;
		names[n++] = full;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), str_cmp);
	for (i = 0; i < n; i++) {
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    load_file(names[i], max_len))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

/* ---- ELF-aware mutation helpers (everything bounds-checked) ---------- */

struct layout {
	int ok, is64, be;
	size_t shoff, shentsize, shnum;
	size_t mk_off, mk_size;		/* __markers_strings data, if found */
	size_t mk_hdr;			/* its section header offset */
};

static uint64_t get(const uint8_t *p, size_t len, size_t off, size_t w,
		    int be)
{
	uint64_t v = 0;
	size_t i;

	if (off > len || w > len - off)
		return 0;
	for (i = 0; i < w; i++)
		v |= (uint64_t)p[off + (be ? w - 1 - i : i)] << (8 * i);
	return v;
}

static void put(uint8_t *p, size_t len, size_t off, size_t w, int be,
		uint64_t v)
{
	size_t i;

	if (off > len || w > len - off)
		return;
	for (i = 0; i < w; i++)
		p[off + (be ? w - 1 - i : i)] = (uint8_t)(v >> (8 * i));
}

static void analyze(const uint8_t *p, size_t n, struct layout *l)
{
	size_t i, strhdr, stroff, strsize;
	static const char want[] = "__markers_strings";

	memset(l, 0, sizeof(*l));
	if (n < 52 || memcmp(p, "\177ELF", 4) != 0)
		return;
	l->is64 = p[4] == 2;
	l->be = p[5] == 2;
	if (l->is64 && n < 64)
		return;
	l->shoff = (size_t)get(p, n, l->is64 ? 40 : 32, l->is64 ? 8 : 4,
			       l->be);
	l->shentsize = (size_t)get(p, n, l->is64 ? 58 : 46, 2, l->be);
	l->shnum = (size_t)get(p, n, l->is64 ? 60 : 48, 2, l->be);
	if (l->shentsize != (l->is64 ? 64U : 40U) || l->shoff > n ||
	    l->shnum > (n - l->shoff) / l->shentsize)
		return;
	l->ok = 1;
	strhdr = l->shoff + l->shentsize *
		 (size_t)get(p, n, l->is64 ? 62 : 50, 2, l->be);
	stroff = (size_t)get(p, n, strhdr + (l->is64 ? 24 : 16),
			     l->is64 ? 8 : 4, l->be);
	strsize = (size_t)get(p, n, strhdr + (l->is64 ? 32 : 20),
			      l->is64 ? 8 : 4, l->be);
	if (stroff > n || strsize > n - stroff)
		return;
	for (i = 0; i < l->shnum; i++) {
		size_t h = l->shoff + i * l->shentsize;
		size_t nm = (size_t)get(p, n, h, 4, l->be);
		size_t off = (size_t)get(p, n, h + (l->is64 ? 24 : 16),
					 l->is64 ? 8 : 4, l->be);
		size_t sz = (size_t)get(p, n, h + (l->is64 ? 32 : 20),
					l->is64 ? 8 : 4, l->be);

		if (nm < strsize && strsize - nm >= sizeof(want) &&
		    memcmp(p + stroff + nm, want, sizeof(want)) == 0 &&
		    off <= n && sz <= n - off) {
			l->mk_hdr = h;
			l->mk_off = off;
			l->mk_size = sz;
			return;
		}
	}
}

static uint64_t interesting(size_t len, uint64_t oldv)
{
	static const uint64_t vals[] = {
		0, 1, 2, 3, 4, 7, 8, 16, 0x3f, 0x40, 0x7f, 0x80, 0xff, 0x100,
		0x7fff, 0x8000, 0xfeff, 0xff00, 0xfff1, 0xffff, 0x10000,
		0x7fffffffULL, 0x80000000ULL, 0xfffffffeULL, 0xffffffffULL,
		0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
		0xffffffffffffffffULL,
	};

	switch (rnd_below(5)) {
	case 0:
		return (uint64_t)len + rnd_below(3) - 1;
	case 1:
		return oldv + rnd_below(33) - 16;
	case 2:
		return rnd_below(len + 1);
	default:
		return vals[rnd_below(sizeof(vals) / sizeof(vals[0]))];
	}
}

/* Mutate buf[0..*n) in place; capacity cap. */
static void mutate(uint8_t *buf, size_t *n, size_t cap)
{
	static const uint8_t bytes[] = {
		0, 1, '\t', '\n', ' ', '-', '0', '9', 'A', '_', 'z', 0x7f,
		0x80, 0xfe, 0xff
	};
	struct layout l;
	size_t len = *n, off, k, w;

	switch (rnd_below(len ? 12 : 1)) {
	case 0:		/* insert bytes */
		k = 1 + rnd_below(16);
		if (len + k > cap)
			break;
		off = rnd_below(len + 1);
		memmove(buf + off + k, buf + off, len - off);
		for (w = 0; w < k; w++)
			buf[off + w] = rnd_below(2) ?
				bytes[rnd_below(sizeof(bytes))] : (uint8_t)rnd();
		len += k;
		break;
	case 1:		/* bit flip */
		buf[rnd_below(len)] ^= (uint8_t)(1U << rnd_below(8));
		break;
	case 2:		/* random byte */
		buf[rnd_below(len)] = (uint8_t)rnd();
		break;
	case 3:		/* interesting byte */
		buf[rnd_below(len)] = bytes[rnd_below(sizeof(bytes))];
		break;
	case 4:		/* truncate */
		len = rnd_below(2) ? rnd_below(len) : len - rnd_below(len / 8 + 1);
		break;
	case 5:		/* delete a range */
		off = rnd_below(len);
		k = 1 + rnd_below(len - off < 64 ? len - off : 64);
		memmove(buf + off, buf + off + k, len - off - k);
		len -= k;
		break;
	case 6: {	/* splice from another corpus unit */
		const struct unit *u = &corpus[rnd_below(ncorpus)];

		if (!u->n)
			break;
		k = 1 + rnd_below(u->n < 256 ? u->n : 256);
		off = rnd_below(len);
		if (off + k > cap)
			k = cap - off;
		memcpy(buf + off, u->p + rnd_below(u->n - k + 1), k);
		if (off + k > len)
			len = off + k;
		break;
	}
	case 7:		/* copy a chunk within the input */
		k = 1 + rnd_below(len < 64 ? len : 64);
		memmove(buf + rnd_below(len - k + 1),
			buf + rnd_below(len - k + 1), k);
		break;
	case 8:		/* ELF header field */
		analyze(buf, len, &l);
		if (len < 52)
			break;
		{
			static const size_t f64[][2] = {
				{ 4, 1 }, { 5, 1 }, { 6, 1 }, { 16, 2 },
				{ 40, 8 }, { 58, 2 }, { 60, 2 }, { 62, 2 },
			};
			static const size_t f32[][2] = {
				{ 4, 1 }, { 5, 1 }, { 6, 1 }, { 16, 2 },
				{ 32, 4 }, { 46, 2 }, { 48, 2 }, { 50, 2 },
			};
			size_t i = rnd_below(8);
			const size_t *f = l.is64 ? f64[i] : f32[i];
			int be = buf[5] == 2;

			put(buf, len, f[0], f[1], be,
			    interesting(len, get(buf, len, f[0], f[1], be)));
		}
		break;
	case 9:		/* section header field */
		analyze(buf, len, &l);
		if (!l.ok || !l.shnum)
			break;
		{
			/* sh_name, sh_type, sh_flags, sh_offset, sh_size,
			 * sh_link */
			static const size_t f64[][2] = {
				{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 24, 8 },
				{ 32, 8 }, { 40, 4 },
			};
			static const size_t f32[][2] = {
				{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 16, 4 },
				{ 20, 4 }, { 24, 4 },
			};
			size_t i = rnd_below(6);
			const size_t *f = l.is64 ? f64[i] : f32[i];
			size_t h = l.mk_size && rnd_below(2) ? l.mk_hdr :
				   l.shoff + rnd_below(l.shnum) * l.shentsize;

			put(buf, len, h + f[0], f[1], l.be,
			    interesting(len, get(buf, len, h + f[0], f[1],
						 l.be)));
		}
		break;
	default:	/* inside __markers_strings */
		analyze(buf, len, &l);
		if (!l.mk_size) {
			buf[rnd_below(len)] = bytes[rnd_below(sizeof(bytes))];
			break;
		}
		off = l.mk_off + rnd_below(l.mk_size);
		if (rnd_below(3) == 0) {	/* grow or shrink sh_size */
			size_t f = l.mk_hdr + (l.is64 ? 32 : 20);
			size_t fw = l.is64 ? 8 : 4;

			put(buf, len, f, fw, l.be, l.mk_size + rnd_below(5) - 2);
		} else {
			buf[off] = bytes[rnd_below(sizeof(bytes))];
		}
		break;
	}
	*n = len;
}

static void run_one(const uint8_t *p, size_t n, size_t iter)
{
	uint32_t f;

	cur_iter = (sig_atomic_t)iter;
	/* Run on an exact-size heap copy so ASan sees any overrun. */
	cur = malloc(n ? n : 1);
	if (!cur) {
		perror("fuzz: malloc");
		exit(1);
	}
	if (n)
		memcpy(cur, p, n);
	cur_len = n;
	LLVMFuzzerTestOneInput(cur, n);
	f = markers_fuzz_feature & ((1U << FEAT_BITS) - 1);
	if (!(feat_seen[f / 8] & (1U << (f % 8)))) {
		feat_seen[f / 8] |= (uint8_t)(1U << (f % 8));
		nfeat++;
		if (iter >= nseeds)
			add_unit(cur, n);
	}
	free(cur);
	cur = NULL;
	cur_len = 0;
}

static int opt(const char *arg, const char *name, const char **val)
{
	size_t l = strlen(name);

	if (strncmp(arg, name, l) == 0 && arg[l] == '=') {
		*val = arg + l + 1;
		return 1;
	}
	return 0;
}

static int parse_num(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long long runs = 0, seed = 1, max_time = 0, max_len = 1 << 20;
	unsigned long long timeout = 10, verbosity = 1, v;
	struct sigaction sa;
	struct itimerval it;
	double start, next_report;
	uint8_t *buf;
	size_t iter, i;
	const char *val;
	int nfiles = 0;

	for (i = 1; i < (size_t)argc; i++) {
		const char *a = argv[i];
		unsigned long long *dst = NULL;

		if (opt(a, "-runs", &val))
			dst = &runs;
		else if (opt(a, "-seed", &val))
			dst = &seed;
		else if (opt(a, "-max_total_time", &val))
			dst = &max_time;
		else if (opt(a, "-max_len", &val))
			dst = &max_len;
		else if (opt(a, "-timeout", &val))
			dst = &timeout;
		else if (opt(a, "-verbosity", &val))
			dst = &verbosity;
		else if (opt(a, "-artifact_prefix", &val)) {
			artifact_prefix = val;
			continue;
		} else if (a[0] == '-') {
			fprintf(stderr, "fuzz: unknown option %s\n", a);
			return 2;
		} else {
			nfiles++;
			continue;
		}
		if (parse_num(val, &v)) {
			fprintf(stderr, "fuzz: bad number in %s\n", a);
			return 2;
		}
		*dst = v;
	}
	if (max_len == 0 || max_len > (1ULL << 30) || timeout == 0) {
		fprintf(stderr, "fuzz: bad -max_len or -timeout\n");
		return 2;
	}
	if (!runs && !max_time)
		max_time = 20;	/* always bounded */
	timeout_sec = (unsigned long)timeout;
	for (i = 1; i < (size_t)argc; i++)
		if (argv[i][0] != '-' && load_path(argv[i], (size_t)max_len))
			return 1;
	if (ncorpus == 0 && add_unit((const uint8_t *)"", 0) < 0)
		return 1;
	nseeds = ncorpus;
	rng_state = (seed + 1) * 0x9e3779b97f4a7c15ULL | 1;	/* never 0 */

	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(on_death);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_abort;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGABRT, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_sec = 1;
	it.it_value.tv_sec = 1;
	setitimer(ITIMER_REAL, &it, NULL);

	buf = malloc((size_t)max_len);
	if (!buf)
		return 1;
	fprintf(stderr, "fuzz: seed=%llu files=%d seeds=%zu runs=%llu "
		"max_total_time=%llu max_len=%llu\n", seed, nfiles, nseeds,
		runs, max_time, max_len);
	start = now();
	next_report = start + 5;
	for (iter = 0;; iter++) {
		if (runs && iter >= runs)
			break;
		if ((iter & 255) == 0) {
			double t = now();

			if (max_time && t - start >= (double)max_time)
				break;
			if (verbosity && t >= next_report) {
				fprintf(stderr, "fuzz: #%zu corpus %zu features "
					"%zu %.0f exec/s\n", iter, ncorpus,
					nfeat, (double)iter / (t - start));
				next_report = t + 5;
			}
		}
		if (iter < nseeds) {
			run_one(corpus[iter].p, corpus[iter].n, iter);
		} else {
			const struct unit *u = &corpus[rnd_below(ncorpus)];
			size_t n = u->n < max_len ? u->n : (size_t)max_len;
			size_t m = 1 + rnd_below(6);

			memcpy(buf, u->p, n);
			while (m--)
				mutate(buf, &n, (size_t)max_len);
			run_one(buf, n, iter);
		}
	}
	fprintf(stderr, "fuzz: done: %zu runs in %.1f s, corpus %zu, features "
		"%zu, crashes 0\n", iter, now() - start, ncorpus, nfeat);
	free(buf);
	for (i = 0; i < ncorpus; i++)
		free(corpus[i].p);
	return 0;
}
