// SPDX-License-Identifier: LicenseRef-Acme-Proprietary
/*
 * acmectl: user-space tool of the Acme XA-1 accelerator (/dev/acme_xa0).
 *
 * Copyright (c) Acme Corporation. All rights reserved.
 *
 * Exit status: 0 success; 1 an operation failed (a command did not
 * complete with status 0, an ioctl failed); 2 usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "acme_xa_ioctl.h"

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

#define MAX_THREADS	64
#define MAX_LIST	16
#define DEFAULT_WINDOW	16
#define DEFAULT_WAIT_MS	30000U
#define MAX_FAILED_IDS	100000

static const char *device_path = ACME_XA_DEVICE_PATH;

static void usage(FILE *out)
{
	fprintf(out,
"usage: acmectl [--device PATH] COMMAND [OPTIONS]\n"
"\n"
"The tool of the Acme XA-1 accelerator.\n"
"\n"
"Options, before the command:\n"
"  -d, --device PATH   the device (default %s)\n"
"  -h, --help          this text\n"
"\n"
"Commands:\n"
"  run --count N [OPTIONS]\n"
"        Submit exactly N commands from T threads, each thread on its own\n"
"        file with up to W commands outstanding, wait for all of them and\n"
"        print a summary (key=value lines). Its options:\n"
"    -n, --count N       how many commands, 1..1000000000 (required)\n"
"    -o, --opcodes LIST  comma-separated opcodes of read,write,crypt\n"
"                        (default all three)\n"
"    -s, --sizes LIST    comma-separated sizes in bytes, 1..%u\n"
"                        (default 512,4096,65536)\n"
"    -t, --threads T     threads, 1..%d (default 1)\n"
"    -S, --seed S        the seed that picks the opcode and size of each\n"
"                        command (default 1)\n"
"    -w, --window W      commands outstanding per thread, 1..%d\n"
"                        (default %d)\n"
"    -W, --wait-ms MS    the bound of each wait, 1..%u ms (default %u)\n"
"    -B, --nonblock      open the device O_NONBLOCK (a full ring gives\n"
"                        EAGAIN: wait and submit again)\n"
"    -v, --verbose       list every command that failed\n"
"  submit [OPTIONS]\n"
"        Submit N commands and exit without waiting: closing the device\n"
"        cancels them. For testing. Its options:\n"
"    -n, --count N       how many commands, 1..1000000 (default 1)\n"
"    -o, --opcode OP     read, write or crypt (default read)\n"
"    -s, --size BYTES    1..%u (default 4096)\n"
"    -B, --nonblock      open the device O_NONBLOCK\n"
"  stats     print the driver's counters (key=value lines)\n"
"  info      print the driver, firmware and ABI versions (key=value lines)\n"
"  reset     reset the device; returns once it is ready again\n"
"  help      this text\n"
"\n"
"Examples:\n"
"  acmectl run --count 1000 --threads 4 --opcodes read,crypt\n"
"  acmectl stats\n"
"\n"
"Exit status: 0 success, 1 an operation failed, 2 usage error.\n",
		ACME_XA_DEVICE_PATH, ACME_XA_MAX_LENGTH, MAX_THREADS,
		ACME_XA_MAX_UNREAPED, DEFAULT_WINDOW, ACME_XA_MAX_WAIT_MS,
		DEFAULT_WAIT_MS, ACME_XA_MAX_LENGTH);
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("acmectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(acmectl --help for usage)\n", stderr);
	return EXIT_USAGE;
}

static int open_device(int flags)
{
	int fd = open(device_path, O_RDWR | O_CLOEXEC | flags);

	if (fd < 0)
		fprintf(stderr, "acmectl: %s: %s\n", device_path, strerror(errno));
	return fd;
}

/* Whole number in [min, max], decimal or 0x-hex */
static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static const char *const opcode_names[] = {
	[ACME_XA_OP_READ] = "read",
	[ACME_XA_OP_WRITE] = "write",
	[ACME_XA_OP_CRYPT] = "crypt",
};

static unsigned int parse_opcode(const char *s)
{
	unsigned int op;

	for (op = ACME_XA_OP_READ; op <= ACME_XA_OP_MAX; op++)
		if (!strcmp(s, opcode_names[op]))
			return op;
	return 0;
}

static const char *state_name(uint32_t s)
{
	static const char *const names[] = {
		"booting", "ready", "busy", "stalled", "resetting", "failed",
	};

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

/* Split a comma-separated list; each item through parse(). */
static int parse_list(const char *arg, const char *what, uint32_t *items,
		      int max, bool opcodes)
{
	char buf[256];
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (n == max) {
			usage_error("too many %s (at most %d)", what, max);
			return -1;
		}
		if (opcodes) {
			v = parse_opcode(tok);
			if (!v) {
				usage_error("unknown opcode '%s' (read, write, crypt)", tok);
				return -1;
			}
		} else if (!parse_u64(tok, 1, ACME_XA_MAX_LENGTH, &v)) {
			usage_error("bad size '%s' (1..%u bytes)", tok,
				    ACME_XA_MAX_LENGTH);
			return -1;
		}
		items[n++] = (uint32_t)v;
	}
	if (!n) {
		usage_error("empty %s list", what);
		return -1;
	}
	return n;
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* A well-mixed per-thread seed from the user's seed */
static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* run                                                                 */

struct run_cfg {
	uint32_t opcodes[MAX_LIST];
	uint32_t sizes[MAX_LIST];
	int nopcodes, nsizes;
	uint64_t seed;
	unsigned int window;
	unsigned int wait_ms;
	bool nonblock;
};

struct run_result {
	uint64_t submitted, completed, errors, timeouts, cancelled, other;
	uint64_t wait_expired, eagain;
	uint64_t lat_min, lat_max, lat_sum;
	int failed;			/* an ioctl failed unexpectedly */
};

struct run_thread {
	pthread_t tid;
	const struct run_cfg *cfg;
	unsigned int index;
	uint64_t count;
	struct run_result res;
};

static pthread_mutex_t failed_lock = PTHREAD_MUTEX_INITIALIZER;
static struct failed_cmd {
	uint32_t id;
	int32_t status;
	uint32_t attempts;
} *failed_cmds;
static size_t nfailed;

static void note_failed(const struct acme_xa_wait *w)
{
	pthread_mutex_lock(&failed_lock);
	if (failed_cmds && nfailed < MAX_FAILED_IDS) {
		failed_cmds[nfailed].id = w->id;
		failed_cmds[nfailed].status = w->status;
		failed_cmds[nfailed].attempts = w->attempts;
		nfailed++;
	}
	pthread_mutex_unlock(&failed_lock);
}

static int cmp_failed(const void *a, const void *b)
{
	const struct failed_cmd *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Wait for one command; false when the thread must stop. */
static bool run_wait(int fd, struct run_thread *t, uint32_t id)
{
	struct acme_xa_wait w;

	memset(&w, 0, sizeof(w));
	w.size = sizeof(w);
	w.id = id;
	w.timeout_ms = t->cfg->wait_ms;
	while (ioctl(fd, ACME_XA_IOC_WAIT, &w) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == ETIMEDOUT) {
			t->res.wait_expired++;
			return true;	/* given up: cancelled when we close */
		}
		fprintf(stderr, "acmectl: WAIT id %u: %s\n", id, strerror(errno));
		t->res.failed = 1;
		return false;
	}
	switch (w.status) {
	case 0:
		t->res.completed++;
		if (!t->res.lat_min || w.latency_ns < t->res.lat_min)
			t->res.lat_min = w.latency_ns;
		if (w.latency_ns > t->res.lat_max)
			t->res.lat_max = w.latency_ns;
		t->res.lat_sum += w.latency_ns;
		return true;
	case -ETIMEDOUT:
		t->res.timeouts++;
		break;
	case -EIO:
		t->res.errors++;
		break;
	case -ECANCELED:
		t->res.cancelled++;
		break;
	default:
		t->res.other++;
		break;
	}
	note_failed(&w);
	return true;
}

static void *run_thread_fn(void *arg)
{
	struct run_thread *t = arg;
	const struct run_cfg *cfg = t->cfg;
	uint32_t *pending;
	unsigned int first = 0, npending = 0;
	uint64_t rng = splitmix64(cfg->seed + t->index);
	uint64_t i = 0;
	int fd;

	if (!rng)		/* xorshift needs a non-zero state */
		rng = 1;
	pending = calloc(cfg->window, sizeof(*pending));
	if (!pending) {
		t->res.failed = 1;
		return NULL;
	}
	fd = open_device(cfg->nonblock ? O_NONBLOCK : 0);
	if (fd < 0) {
		t->res.failed = 1;
		free(pending);
		return NULL;
	}
	while (i < t->count) {
		struct acme_xa_submit s;

		if (npending == cfg->window) {
			if (!run_wait(fd, t, pending[first]))
				goto out;
			first = (first + 1) % cfg->window;
			npending--;
		}
		memset(&s, 0, sizeof(s));
		s.size = sizeof(s);
		s.opcode = cfg->opcodes[xorshift64(&rng) % (uint64_t)cfg->nopcodes];
		s.length = cfg->sizes[xorshift64(&rng) % (uint64_t)cfg->nsizes];
		s.user_tag = ((uint64_t)t->index << 32) | (i & 0xffffffffULL);
		while (ioctl(fd, ACME_XA_IOC_SUBMIT, &s) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				const struct timespec pause = { 0, 100000 };

				/* Ring full: make room with our oldest, or let others */
				t->res.eagain++;
				if (npending) {
					if (!run_wait(fd, t, pending[first]))
						goto out;
					first = (first + 1) % cfg->window;
					npending--;
				} else {
					nanosleep(&pause, NULL);
				}
				continue;
			}
			fprintf(stderr, "acmectl: SUBMIT: %s\n", strerror(errno));
			t->res.failed = 1;
			goto out;
		}
		t->res.submitted++;
		pending[(first + npending) % cfg->window] = s.id;
		npending++;
		i++;
	}
	while (npending) {
		if (!run_wait(fd, t, pending[first]))
			goto out;
		first = (first + 1) % cfg->window;
		npending--;
	}
out:
	close(fd);
	free(pending);
	return NULL;
}

static const char *status_name(int32_t st)
{
	switch (st) {
	case -EIO: return "EIO";
	case -ETIMEDOUT: return "ETIMEDOUT";
	case -ECANCELED: return "ECANCELED";
	default: return "other";
	}
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "opcodes", required_argument, NULL, 'o' },
		{ "sizes", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "window", required_argument, NULL, 'w' },
		{ "wait-ms", required_argument, NULL, 'W' },
		{ "nonblock", no_argument, NULL, 'B' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_cfg cfg;
	struct run_thread *th;
	struct run_result tot;
	uint64_t count = 0, v, t0, elapsed;
	unsigned int nthreads = 1, k;
	bool have_count = false, verbose = false;
	int c, ret = EXIT_OK;

	memset(&cfg, 0, sizeof(cfg));
	cfg.opcodes[0] = ACME_XA_OP_READ;
	cfg.opcodes[1] = ACME_XA_OP_WRITE;
	cfg.opcodes[2] = ACME_XA_OP_CRYPT;
	cfg.nopcodes = 3;
	cfg.sizes[0] = 512;
	cfg.sizes[1] = 4096;
	cfg.sizes[2] = 65536;
	cfg.nsizes = 3;
	cfg.seed = 1;
	cfg.window = DEFAULT_WINDOW;
	cfg.wait_ms = DEFAULT_WAIT_MS;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:o:s:t:S:w:W:Bv", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_u64(optarg, 1, 1000000000ULL, &count))
				return usage_error("bad --count '%s' (1..1000000000)", optarg);
			have_count = true;
			break;
		case 'o':
			cfg.nopcodes = parse_list(optarg, "opcodes", cfg.opcodes, MAX_LIST, true);
			if (cfg.nopcodes < 0)
				return EXIT_USAGE;
			break;
		case 's':
			cfg.nsizes = parse_list(optarg, "sizes", cfg.sizes, MAX_LIST, false);
			if (cfg.nsizes < 0)
				return EXIT_USAGE;
			break;
		case 't':
			if (!parse_u64(optarg, 1, MAX_THREADS, &v))
				return usage_error("bad --threads '%s' (1..%d)", optarg, MAX_THREADS);
			nthreads = (unsigned int)v;
			break;
		case 'S':
			if (!parse_u64(optarg, 0, UINT64_MAX, &cfg.seed))
				return usage_error("bad --seed '%s'", optarg);
			break;
		case 'w':
			if (!parse_u64(optarg, 1, ACME_XA_MAX_UNREAPED, &v))
				return usage_error("bad --window '%s' (1..%d)", optarg,
						   ACME_XA_MAX_UNREAPED);
			cfg.window = (unsigned int)v;
			break;
		case 'W':
			if (!parse_u64(optarg, 1, ACME_XA_MAX_WAIT_MS, &v))
				return usage_error("bad --wait-ms '%s' (1..%u)", optarg,
						   ACME_XA_MAX_WAIT_MS);
			cfg.wait_ms = (unsigned int)v;
			break;
		case 'B':
			cfg.nonblock = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			return usage_error("run: bad option");
		}
	}
	if (optind != argc)
		return usage_error("run: unexpected argument '%s'", argv[optind]);
	if (!have_count)
		return usage_error("run: --count N is required");

	th = calloc(nthreads, sizeof(*th));
	failed_cmds = calloc(MAX_FAILED_IDS, sizeof(*failed_cmds));
	if (!th || !failed_cmds) {
		fprintf(stderr, "acmectl: out of memory\n");
		free(th);
		free(failed_cmds);
		return EXIT_FAIL;
	}
	t0 = now_ns();
	for (k = 0; k < nthreads; k++) {
		th[k].cfg = &cfg;
		th[k].index = k;
		th[k].count = count / nthreads + (k < count % nthreads);
		if (pthread_create(&th[k].tid, NULL, run_thread_fn, &th[k])) {
			fprintf(stderr, "acmectl: cannot start thread %u\n", k);
			th[k].res.failed = 1;
			th[k].count = 0;
			th[k].tid = 0;
		}
	}
	memset(&tot, 0, sizeof(tot));
	for (k = 0; k < nthreads; k++) {
		const struct run_result *r = &th[k].res;

		if (th[k].tid)
			pthread_join(th[k].tid, NULL);
		tot.submitted += r->submitted;
		tot.completed += r->completed;
		tot.errors += r->errors;
		tot.timeouts += r->timeouts;
		tot.cancelled += r->cancelled;
		tot.other += r->other;
		tot.wait_expired += r->wait_expired;
		tot.eagain += r->eagain;
		tot.lat_sum += r->lat_sum;
		if (r->lat_min && (!tot.lat_min || r->lat_min < tot.lat_min))
			tot.lat_min = r->lat_min;
		if (r->lat_max > tot.lat_max)
			tot.lat_max = r->lat_max;
		tot.failed |= r->failed;
	}
	elapsed = now_ns() - t0;

	printf("commands=%" PRIu64 "\nthreads=%u\n", count, nthreads);
	printf("submitted=%" PRIu64 "\ncompleted=%" PRIu64 "\nerrors=%" PRIu64
	       "\ntimeouts=%" PRIu64 "\ncancelled=%" PRIu64 "\nother_failures=%" PRIu64
	       "\nwait_expired=%" PRIu64 "\nring_full_eagain=%" PRIu64 "\n",
	       tot.submitted, tot.completed, tot.errors, tot.timeouts,
	       tot.cancelled, tot.other, tot.wait_expired, tot.eagain);
	printf("latency_min_ns=%" PRIu64 "\nlatency_avg_ns=%" PRIu64
	       "\nlatency_max_ns=%" PRIu64 "\nlatency_sum_ns=%" PRIu64 "\n",
	       tot.lat_min, tot.completed ? tot.lat_sum / tot.completed : 0,
	       tot.lat_max, tot.lat_sum);
	printf("elapsed_ms=%" PRIu64 "\n", elapsed / 1000000);

	qsort(failed_cmds, nfailed, sizeof(*failed_cmds), cmp_failed);
	printf("failed_ids=");
	for (v = 0; v < nfailed; v++)
		printf("%s%u", v ? "," : "", failed_cmds[v].id);
	printf("\n");
	if (verbose)
		for (v = 0; v < nfailed; v++)
			printf("failed id=%u status=%s attempts=%u\n",
			       failed_cmds[v].id, status_name(failed_cmds[v].status),
			       failed_cmds[v].attempts);

	if (tot.failed || tot.completed != count)
		ret = EXIT_FAIL;
	free(th);
	free(failed_cmds);
	failed_cmds = NULL;
	return ret;
}

/* ------------------------------------------------------------------ */
/* submit, stats, info, reset                                          */

static int cmd_submit(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "opcode", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "nonblock", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t count = 1, size = 4096, i;
	unsigned int opcode = ACME_XA_OP_READ;
	bool nonblock = false;
	int c, fd, ret = EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:o:s:B", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_u64(optarg, 1, 1000000, &count))
				return usage_error("bad --count '%s' (1..1000000)", optarg);
			break;
		case 'o':
			opcode = parse_opcode(optarg);
			if (!opcode)
				return usage_error("unknown opcode '%s'", optarg);
			break;
		case 's':
			if (!parse_u64(optarg, 1, ACME_XA_MAX_LENGTH, &size))
				return usage_error("bad --size '%s'", optarg);
			break;
		case 'B':
			nonblock = true;
			break;
		default:
			return usage_error("submit: bad option");
		}
	}
	if (optind != argc)
		return usage_error("submit: unexpected argument '%s'", argv[optind]);
	fd = open_device(nonblock ? O_NONBLOCK : 0);
	if (fd < 0)
		return EXIT_FAIL;
	for (i = 0; i < count; i++) {
		struct acme_xa_submit s;

		memset(&s, 0, sizeof(s));
		s.size = sizeof(s);
		s.opcode = opcode;
		s.length = (uint32_t)size;
		if (ioctl(fd, ACME_XA_IOC_SUBMIT, &s) < 0) {
			fprintf(stderr, "acmectl: SUBMIT %" PRIu64 ": %s\n", i + 1,
				strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		printf("submitted id=%u\n", s.id);
	}
	close(fd);
	return ret;
}

static int get_stats(int fd, struct acme_xa_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, ACME_XA_IOC_STATS, st) < 0) {
		fprintf(stderr, "acmectl: STATS: %s\n", strerror(errno));
		return -1;
	}
	if (st->size != sizeof(*st)) {
		fprintf(stderr, "acmectl: STATS: ABI mismatch (size %u, expected %zu)\n",
			st->size, sizeof(*st));
		return -1;
	}
	return 0;
}

static int cmd_stats(void)
{
	struct acme_xa_stats st;
	int fd = open_device(0), ret;

	if (fd < 0)
		return EXIT_FAIL;
	ret = get_stats(fd, &st);
	close(fd);
	if (ret)
		return EXIT_FAIL;
	printf("submitted=%llu\ncompleted=%llu\nerrors=%llu\ntimeouts=%llu\n"
	       "retries=%llu\nresets=%llu\nring_full=%llu\nrejected=%llu\n"
	       "cancelled=%llu\nfw_errors=%llu\nirqs=%llu\nring_wraps=%llu\n"
	       "in_flight=%u\nring_depth=%u\nfw_state=%s\n",
	       (unsigned long long)st.submitted, (unsigned long long)st.completed,
	       (unsigned long long)st.errors, (unsigned long long)st.timeouts,
	       (unsigned long long)st.retries, (unsigned long long)st.resets,
	       (unsigned long long)st.ring_full, (unsigned long long)st.rejected,
	       (unsigned long long)st.cancelled, (unsigned long long)st.fw_errors,
	       (unsigned long long)st.irqs, (unsigned long long)st.ring_wraps,
	       st.in_flight, st.ring_depth, state_name(st.fw_state));
	return EXIT_OK;
}

static int cmd_info(void)
{
	struct acme_xa_fw_info info;
	int fd = open_device(0), ret;

	if (fd < 0)
		return EXIT_FAIL;
	memset(&info, 0, sizeof(info));
	ret = ioctl(fd, ACME_XA_IOC_FW_INFO, &info);
	close(fd);
	if (ret < 0) {
		fprintf(stderr, "acmectl: FW_INFO: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (info.size != sizeof(info) || info.abi_version != ACME_XA_ABI_VERSION) {
		fprintf(stderr, "acmectl: driver ABI %u (size %u) is not this tool's ABI %d\n",
			info.abi_version, info.size, ACME_XA_ABI_VERSION);
		return EXIT_FAIL;
	}
	info.driver_version[sizeof(info.driver_version) - 1] = '\0';
	info.fw_version[sizeof(info.fw_version) - 1] = '\0';
	info.fw_state_name[sizeof(info.fw_state_name) - 1] = '\0';
	printf("device=Acme XA-1 accelerator\npath=%s\ndriver_version=%s\n"
	       "fw_version=%s\nabi_version=%u\nfw_state=%s\nring_depth=%u\n"
	       "max_length=%u\n", device_path, info.driver_version,
	       info.fw_version, info.abi_version, info.fw_state_name,
	       info.ring_depth, info.max_length);
	return EXIT_OK;
}

static int cmd_reset(void)
{
	struct acme_xa_stats st;
	int fd = open_device(0);

	if (fd < 0)
		return EXIT_FAIL;
	if (ioctl(fd, ACME_XA_IOC_RESET) < 0) {
		fprintf(stderr, "acmectl: RESET: %s\n", strerror(errno));
		close(fd);
		return EXIT_FAIL;
	}
	if (get_stats(fd, &st)) {
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	printf("reset=ok\nfw_state=%s\nresets=%llu\n", state_name(st.fw_state),
	       (unsigned long long)st.resets);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c;

	/* Options before the command only; the command parses its own */
	while ((c = getopt_long(argc, argv, "+d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return usage_error("bad option");
		}
	}
	if (optind >= argc)
		return usage_error("no command");
	cmd = argv[optind];
	argc -= optind;
	argv += optind;
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "submit"))
		return cmd_submit(argc, argv);
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return usage_error("%s: unexpected argument '%s'", cmd, argv[1]);
	if (!strcmp(cmd, "stats"))
		return cmd_stats();
	if (!strcmp(cmd, "info"))
		return cmd_info();
	if (!strcmp(cmd, "reset"))
		return cmd_reset();
	return usage_error("unknown command '%s'", cmd);
}
