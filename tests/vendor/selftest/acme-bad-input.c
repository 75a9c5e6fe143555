// SPDX-License-Identifier: GPL-2.0
/*
 * acme-bad-input: the bad-input self-test of the Acme XA-1 driver, on the
 * kernel's kselftest harness (tools/testing/selftests/kselftest_harness.h).
 * A test tool of ours, never part of the vendor drop: it was once the
 * "acmectl bad-input" command of the customer's binary.
 *
 * Sends every kind of invalid request to /dev/acme_xa0 and checks each
 * errno, then that the driver still works and counted every refusal. One
 * TEST_F per case; they run in this file's order, each in a process of its
 * own, and print KTAP ("ok N acme.NAME"). Needs the driver loaded with its
 * default module parameters, and nothing else using the device meanwhile.
 *
 * Built 64- and 32-bit (the compat_ioctl path): see the Makefile beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "acme_xa_ioctl.h"
#include "kselftest_harness.h"

#define DEVICE ACME_XA_DEVICE_PATH

/*
 * What the tests share across their processes: the driver's counters at
 * the start of the run, and the number of refusals the driver must have
 * counted since (each test that sends one adds it).
 */
static struct run_state {
	bool have_baseline;
	struct acme_xa_stats st0;
	uint64_t expect_rejected;
} *run;

static int get_stats(int fd, struct acme_xa_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, ACME_XA_IOC_STATS, st) < 0)
		return -1;
	if (st->size != sizeof(*st)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* Before the harness forks the first test: the shared state, the baseline */
static void __attribute__((constructor)) run_state_init(void)
{
	void *p = mmap(NULL, sizeof(*run), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fd;

	if (p == MAP_FAILED)
		return;		/* the tests that need it say so */
	run = p;
	fd = open(DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	run->have_baseline = get_stats(fd, &run->st0) == 0;
	close(fd);
}

static void count_rejection(void)
{
	if (run)
		__atomic_fetch_add(&run->expect_rejected, 1, __ATOMIC_SEQ_CST);
}

static void init_submit(struct acme_xa_submit *s, uint32_t opcode, uint32_t len)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->opcode = opcode;
	s->length = len;
}

static void init_wait(struct acme_xa_wait *w, uint32_t id, uint32_t timeout_ms)
{
	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->id = id;
	w->timeout_ms = timeout_ms;
}

/* Submit one small command and reap it; true when it completed with 0 */
static bool round_trip(int fd, uint32_t *id_out)
{
	struct acme_xa_submit s;
	struct acme_xa_wait w;

	init_submit(&s, ACME_XA_OP_READ, 512);
	if (ioctl(fd, ACME_XA_IOC_SUBMIT, &s) < 0)
		return false;
	init_wait(&w, s.id, 10000);
	if (ioctl(fd, ACME_XA_IOC_WAIT, &w) < 0)
		return false;
	if (id_out)
		*id_out = s.id;
	return w.status == 0 && w.id == s.id;
}

/* Poll until no command is in flight; false after @ms */
static bool wait_idle(int fd, unsigned int ms, struct acme_xa_stats *st)
{
	const struct timespec pause = { 0, 10000000 };
	unsigned int waited;

	for (waited = 0; waited <= ms; waited += 10) {
		if (get_stats(fd, st))
			return false;
		if (!st->in_flight)
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

/*
 * One request that must fail with @want. @rejected: the driver counts it
 * as a refusal (its rejected counter and the acme_rejected marker).
 */
static void expect_errno(struct __test_metadata *_metadata, const char *what,
			 long ret, int err, int want, bool rejected)
{
	if (rejected)
		count_rejection();
	ASSERT_GT(0, ret) {
		TH_LOG("%s: succeeded, expected %s", what, strerror(want));
	}
	ASSERT_EQ(want, err) {
		TH_LOG("%s: %s, expected %s", what, strerror(err), strerror(want));
	}
	ksft_print_msg("%s: %s\n", what, strerror(err));
}

#define EXPECT_ERRNO(what, call, want, rejected)			\
	do {								\
		long r_;						\
									\
		errno = 0;						\
		r_ = (long)(call);					\
		expect_errno(_metadata, (what), r_, errno, (want), (rejected)); \
	} while (0)

static int open_device(struct __test_metadata *_metadata, int flags)
{
	int fd = open(DEVICE, O_RDWR | O_CLOEXEC | flags);

	ASSERT_LE(0, fd) {
		TH_LOG("%s: %s", DEVICE, strerror(errno));
	}
	return fd;
}

/* Two open files, and two pages: "ro" (read-only once a test makes it so), then a hole at "gone" */
FIXTURE(acme) {
	int fd, fd2;
	long page;
	char *ro;
	void *gone;
};

FIXTURE_SETUP(acme)
{
	void *p;

	self->fd = -1;
	self->fd2 = -1;
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_LT(0, self->page);
	p = mmap(NULL, 2 * (size_t)self->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p) {
		TH_LOG("mmap: %s", strerror(errno));
	}
	self->ro = p;
	self->gone = self->ro + self->page;
	ASSERT_EQ(0, munmap(self->gone, (size_t)self->page));
	self->fd = open_device(_metadata, 0);
	self->fd2 = open_device(_metadata, 0);
}

FIXTURE_TEARDOWN(acme)
{
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->fd >= 0)
		close(self->fd);
	if (self->ro)
		munmap(self->ro, (size_t)self->page);
}

TEST_F(acme, valid_command_before_bad_input)
{
	ASSERT_TRUE(round_trip(self->fd, NULL)) {
		TH_LOG("a valid command did not complete: %s", strerror(errno));
	}
}

/* Unknown and mis-sized ioctls */

TEST_F(acme, unknown_ioctl_number)
{
	EXPECT_ERRNO("unknown ioctl number", ioctl(self->fd, _IO(ACME_XA_IOC_MAGIC, 0x42)), ENOTTY, true);
}

TEST_F(acme, unknown_ioctl_number_0)
{
	EXPECT_ERRNO("unknown ioctl number 0", ioctl(self->fd, _IO(ACME_XA_IOC_MAGIC, 0)), ENOTTY, true);
}

TEST_F(acme, other_drivers_ioctl_tcgets)
{
	struct termios tio;

	EXPECT_ERRNO("another driver's ioctl (TCGETS)", ioctl(self->fd, TCGETS, &tio), ENOTTY, true);
}

TEST_F(acme, submit_number_with_smaller_struct_size)
{
	struct acme_xa_stats st;

	memset(&st, 0, sizeof(st));
	EXPECT_ERRNO("SUBMIT number with a smaller struct size",
		     ioctl(self->fd, _IOWR(ACME_XA_IOC_MAGIC, 1, struct acme_xa_stats), &st), EINVAL, true);
}

TEST_F(acme, submit_number_with_bigger_struct_size)
{
	struct acme_xa_stats st;

	memset(&st, 0, sizeof(st));
	EXPECT_ERRNO("SUBMIT number with a bigger struct size",
		     ioctl(self->fd, _IOWR(ACME_XA_IOC_MAGIC, 1, char[48]), &st), EINVAL, true);
}

TEST_F(acme, submit_number_as_iow)
{
	struct acme_xa_submit s;

	init_submit(&s, ACME_XA_OP_READ, 512);
	EXPECT_ERRNO("SUBMIT number as _IOW",
		     ioctl(self->fd, _IOW(ACME_XA_IOC_MAGIC, 1, struct acme_xa_submit), &s), EINVAL, true);
}

TEST_F(acme, stats_number_as_iowr)
{
	struct acme_xa_stats st;

	memset(&st, 0, sizeof(st));
	EXPECT_ERRNO("STATS number as _IOWR",
		     ioctl(self->fd, _IOWR(ACME_XA_IOC_MAGIC, 3, struct acme_xa_stats), &st), EINVAL, true);
}

TEST_F(acme, reset_number_with_argument_size)
{
	int arg = 0;

	EXPECT_ERRNO("RESET number with an argument size",
		     ioctl(self->fd, _IOW(ACME_XA_IOC_MAGIC, 4, int), &arg), EINVAL, true);
}

/* SUBMIT contents */

static void submit_with_size(struct __test_metadata *_metadata, int fd,
			     const char *what, uint32_t size)
{
	struct acme_xa_submit s;

	init_submit(&s, ACME_XA_OP_READ, 512);
	s.size = size;
	EXPECT_ERRNO(what, ioctl(fd, ACME_XA_IOC_SUBMIT, &s), EINVAL, true);
}

TEST_F(acme, submit_size_too_small)
{
	submit_with_size(_metadata, self->fd, "SUBMIT with .size too small",
			 sizeof(struct acme_xa_submit) - 8);
}

TEST_F(acme, submit_size_too_big)
{
	submit_with_size(_metadata, self->fd, "SUBMIT with .size too big",
			 sizeof(struct acme_xa_submit) + 8);
}

TEST_F(acme, submit_size_0)
{
	submit_with_size(_metadata, self->fd, "SUBMIT with .size 0", 0);
}

static void submit_bad(struct __test_metadata *_metadata, int fd,
		       uint32_t opcode, uint32_t len, const char *what)
{
	struct acme_xa_submit s;

	init_submit(&s, opcode, len);
	EXPECT_ERRNO(what, ioctl(fd, ACME_XA_IOC_SUBMIT, &s), EINVAL, true);
}

TEST_F(acme, submit_opcode_0)
{
	submit_bad(_metadata, self->fd, 0, 512, "SUBMIT with opcode 0");
}

TEST_F(acme, submit_opcode_max_plus_1)
{
	submit_bad(_metadata, self->fd, ACME_XA_OP_MAX + 1, 512, "SUBMIT with opcode ACME_XA_OP_MAX + 1");
}

TEST_F(acme, submit_opcode_0x80000000)
{
	submit_bad(_metadata, self->fd, 0x80000000u, 512, "SUBMIT with opcode 2147483648");
}

TEST_F(acme, submit_opcode_0xffffffff)
{
	submit_bad(_metadata, self->fd, 0xffffffffu, 512, "SUBMIT with opcode 4294967295");
}

TEST_F(acme, submit_length_0)
{
	submit_bad(_metadata, self->fd, ACME_XA_OP_WRITE, 0, "SUBMIT with length 0");
}

TEST_F(acme, submit_length_max_plus_1)
{
	submit_bad(_metadata, self->fd, ACME_XA_OP_WRITE, ACME_XA_MAX_LENGTH + 1,
		   "SUBMIT with length ACME_XA_MAX_LENGTH + 1");
}

TEST_F(acme, submit_length_0xffffffff)
{
	submit_bad(_metadata, self->fd, ACME_XA_OP_WRITE, 0xffffffffu, "SUBMIT with length 4294967295");
}

TEST_F(acme, submit_unknown_flags)
{
	struct acme_xa_submit s;

	init_submit(&s, ACME_XA_OP_READ, 512);
	s.flags = 1;
	EXPECT_ERRNO("SUBMIT with unknown flags", ioctl(self->fd, ACME_XA_IOC_SUBMIT, &s), EINVAL, true);
}

/* Bad pointers */

TEST_F(acme, submit_null_pointer)
{
	EXPECT_ERRNO("SUBMIT with a NULL pointer", ioctl(self->fd, ACME_XA_IOC_SUBMIT, NULL), EFAULT, true);
}

TEST_F(acme, submit_unmapped_pointer)
{
	EXPECT_ERRNO("SUBMIT with an unmapped pointer", ioctl(self->fd, ACME_XA_IOC_SUBMIT, self->gone),
		     EFAULT, true);
}

TEST_F(acme, submit_kernel_address)
{
	EXPECT_ERRNO("SUBMIT with a kernel address",
		     ioctl(self->fd, ACME_XA_IOC_SUBMIT, (void *)(uintptr_t)0xffff888000000000ULL),
		     EFAULT, true);
}

TEST_F(acme, submit_pointer_across_mapping_end)
{
	EXPECT_ERRNO("SUBMIT with a pointer across the end of a mapping",
		     ioctl(self->fd, ACME_XA_IOC_SUBMIT, self->ro + self->page - 8), EFAULT, true);
}

TEST_F(acme, submit_read_only_struct)
{
	struct acme_xa_submit s;

	init_submit(&s, ACME_XA_OP_READ, 512);
	memcpy(self->ro, &s, sizeof(s));
	ASSERT_EQ(0, mprotect(self->ro, (size_t)self->page, PROT_READ));
	EXPECT_ERRNO("SUBMIT with a read-only struct (the id cannot be returned)",
		     ioctl(self->fd, ACME_XA_IOC_SUBMIT, self->ro), EFAULT, true);
}

TEST_F(acme, wait_null_pointer)
{
	EXPECT_ERRNO("WAIT with a NULL pointer", ioctl(self->fd, ACME_XA_IOC_WAIT, NULL), EFAULT, true);
}

TEST_F(acme, stats_null_pointer)
{
	EXPECT_ERRNO("STATS with a NULL pointer", ioctl(self->fd, ACME_XA_IOC_STATS, NULL), EFAULT, true);
}

TEST_F(acme, stats_into_read_only_memory)
{
	ASSERT_EQ(0, mprotect(self->ro, (size_t)self->page, PROT_READ));
	EXPECT_ERRNO("STATS into read-only memory", ioctl(self->fd, ACME_XA_IOC_STATS, self->ro), EFAULT, true);
}

TEST_F(acme, fw_info_null_pointer)
{
	EXPECT_ERRNO("FW_INFO with a NULL pointer", ioctl(self->fd, ACME_XA_IOC_FW_INFO, NULL), EFAULT, true);
}

TEST_F(acme, fw_info_unmapped_pointer)
{
	EXPECT_ERRNO("FW_INFO into an unmapped pointer", ioctl(self->fd, ACME_XA_IOC_FW_INFO, self->gone),
		     EFAULT, true);
}

/* WAIT contents */

TEST_F(acme, wait_for_id_0)
{
	struct acme_xa_wait w;

	init_wait(&w, 0, 0);
	EXPECT_ERRNO("WAIT for id 0", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), ENOENT, true);
}

TEST_F(acme, wait_for_id_never_given_out)
{
	struct acme_xa_wait w;

	init_wait(&w, 0xfffffff0u, 0);
	EXPECT_ERRNO("WAIT for an id never given out", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), ENOENT, true);
}

TEST_F(acme, wait_timeout_over_maximum)
{
	struct acme_xa_wait w;

	init_wait(&w, 1, ACME_XA_MAX_WAIT_MS + 1);
	EXPECT_ERRNO("WAIT with a timeout over the maximum", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), EINVAL, true);
}

TEST_F(acme, wait_unknown_flags)
{
	struct acme_xa_wait w;

	init_wait(&w, 1, 0);
	w.flags = 0x10;
	EXPECT_ERRNO("WAIT with unknown flags", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), EINVAL, true);
}

TEST_F(acme, wait_size_wrong)
{
	struct acme_xa_wait w;

	init_wait(&w, 1, 0);
	w.size = 8;
	EXPECT_ERRNO("WAIT with .size wrong", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), EINVAL, true);
}

/* A command of the second file: the first cannot wait for it */

static uint32_t submit_on_fd2(struct __test_metadata *_metadata, FIXTURE_DATA(acme) *self)
{
	struct acme_xa_submit s;

	init_submit(&s, ACME_XA_OP_CRYPT, 4096);
	ASSERT_EQ(0, ioctl(self->fd2, ACME_XA_IOC_SUBMIT, &s)) {
		TH_LOG("SUBMIT on a second file: %s", strerror(errno));
	}
	return s.id;
}

static void reap_on_fd2(struct __test_metadata *_metadata, FIXTURE_DATA(acme) *self, uint32_t id)
{
	struct acme_xa_wait w;
	int ret;

	init_wait(&w, id, 10000);
	ret = ioctl(self->fd2, ACME_XA_IOC_WAIT, &w);
	ASSERT_EQ(0, ret) {
		TH_LOG("WAIT on its own file: %s", strerror(errno));
	}
	ASSERT_EQ(0, w.status) {
		TH_LOG("its own file reaps it: status %d", w.status);
	}
}

TEST_F(acme, submit_on_second_file)
{
	reap_on_fd2(_metadata, self, submit_on_fd2(_metadata, self));
}

TEST_F(acme, wait_for_other_files_command)
{
	uint32_t id = submit_on_fd2(_metadata, self);
	struct acme_xa_wait w;

	init_wait(&w, id, 100);
	EXPECT_ERRNO("WAIT for another file's command", ioctl(self->fd, ACME_XA_IOC_WAIT, &w), ENOENT, true);
	reap_on_fd2(_metadata, self, id);
}

TEST_F(acme, own_file_reaps_its_command)
{
	uint32_t id = submit_on_fd2(_metadata, self);

	reap_on_fd2(_metadata, self, id);
}

TEST_F(acme, wait_again_for_reaped_command)
{
	uint32_t id = submit_on_fd2(_metadata, self);
	struct acme_xa_wait w;

	reap_on_fd2(_metadata, self, id);
	init_wait(&w, id, 10000);
	EXPECT_ERRNO("WAIT again for a reaped command", ioctl(self->fd2, ACME_XA_IOC_WAIT, &w), ENOENT, true);
}

/* Not ioctls */

TEST_F(acme, read_from_device)
{
	char byte = 0;

	EXPECT_ERRNO("read() from the device", read(self->fd, &byte, 1), EINVAL, false);
}

TEST_F(acme, write_to_device)
{
	char byte = 0;

	EXPECT_ERRNO("write() to the device", write(self->fd, &byte, 1), EINVAL, false);
}

TEST_F(acme, lseek_on_device)
{
	EXPECT_ERRNO("lseek() on the device", lseek(self->fd, 0, SEEK_SET), ESPIPE, false);
}

/*
 * Back-pressure: fill the ring with long commands on a new non-blocking
 * file. Returns the file; *n: the commands submitted, *eagain: whether the
 * submit that stopped it failed with EAGAIN.
 */
static int fill_ring(struct __test_metadata *_metadata, unsigned int *n, bool *eagain)
{
	int fdnb = open_device(_metadata, O_NONBLOCK);

	*eagain = false;
	for (*n = 0; *n < 1000; (*n)++) {
		struct acme_xa_submit s;

		init_submit(&s, ACME_XA_OP_CRYPT, ACME_XA_MAX_LENGTH);
		if (ioctl(fdnb, ACME_XA_IOC_SUBMIT, &s) < 0) {
			*eagain = errno == EAGAIN;
			break;
		}
	}
	return fdnb;
}

/* Close @fdnb with its commands in flight: the driver cancels the ones not started */
static bool close_and_drain(int fd, int fdnb, struct acme_xa_stats *st)
{
	close(fdnb);
	return wait_idle(fd, 20000, st);
}

TEST_F_TIMEOUT(acme, nonblock_submit_on_full_ring_eagain, 60)
{
	struct acme_xa_stats st;
	unsigned int n;
	bool eagain;
	int fdnb = fill_ring(_metadata, &n, &eagain);

	close_and_drain(self->fd, fdnb, &st);
	ASSERT_TRUE(eagain && n >= ACME_XA_RING_DEPTH) {
		TH_LOG("O_NONBLOCK SUBMIT on a full ring: %s after %u commands",
		       eagain ? "EAGAIN" : "no EAGAIN", n);
	}
	ksft_print_msg("O_NONBLOCK SUBMIT on a full ring: EAGAIN after %u commands\n", n);
}

TEST_F_TIMEOUT(acme, ring_full_counted, 60)
{
	struct acme_xa_stats st0, st, idle;
	unsigned int n;
	bool eagain;
	int fdnb;

	ASSERT_EQ(0, get_stats(self->fd, &st0));
	fdnb = fill_ring(_metadata, &n, &eagain);
	ASSERT_EQ(0, get_stats(self->fd, &st));
	close_and_drain(self->fd, fdnb, &idle);
	ASSERT_GT(st.ring_full, st0.ring_full) {
		TH_LOG("ring_full not counted (%llu)", (unsigned long long)st.ring_full);
	}
}

TEST_F_TIMEOUT(acme, close_with_commands_in_flight_drains, 60)
{
	struct acme_xa_stats st;
	unsigned int n;
	bool eagain;
	int fdnb = fill_ring(_metadata, &n, &eagain);

	ASSERT_TRUE(close_and_drain(self->fd, fdnb, &st)) {
		TH_LOG("closing a file with %u commands in flight: in_flight still %u after 20 s",
		       n, st.in_flight);
	}
}

TEST_F_TIMEOUT(acme, close_cancels_commands_in_flight, 60)
{
	struct acme_xa_stats st0, st;
	unsigned int n;
	bool eagain;
	int fdnb;

	ASSERT_EQ(0, get_stats(self->fd, &st0));
	fdnb = fill_ring(_metadata, &n, &eagain);
	ASSERT_TRUE(close_and_drain(self->fd, fdnb, &st));
	ASSERT_LE((uint64_t)(ACME_XA_RING_DEPTH - 4), st.cancelled - st0.cancelled) {
		TH_LOG("only %llu of the %u commands in flight were cancelled",
		       (unsigned long long)(st.cancelled - st0.cancelled), n);
	}
}

/* Too many unreaped commands on one file */

static int leave_unreaped(struct __test_metadata *_metadata, unsigned int *n)
{
	int fdu = open_device(_metadata, 0);

	for (*n = 0; *n < ACME_XA_MAX_UNREAPED; (*n)++) {
		struct acme_xa_submit s;

		init_submit(&s, ACME_XA_OP_READ, 1);
		if (ioctl(fdu, ACME_XA_IOC_SUBMIT, &s) < 0)
			break;
	}
	return fdu;
}

TEST_F_TIMEOUT(acme, max_unreaped_commands_on_one_file, 60)
{
	struct acme_xa_stats st;
	unsigned int n;
	int fdu = leave_unreaped(_metadata, &n);

	close_and_drain(self->fd, fdu, &st);
	ASSERT_EQ((unsigned int)ACME_XA_MAX_UNREAPED, n) {
		TH_LOG("only %u commands left unreaped on one file: %s", n, strerror(errno));
	}
}

TEST_F_TIMEOUT(acme, one_more_submit_past_max_unreaped, 60)
{
	struct acme_xa_submit s;
	struct acme_xa_stats st;
	unsigned int n;
	int fdu = leave_unreaped(_metadata, &n);
	long ret;
	int err;

	init_submit(&s, ACME_XA_OP_READ, 1);
	errno = 0;
	ret = ioctl(fdu, ACME_XA_IOC_SUBMIT, &s);
	err = errno;
	close_and_drain(self->fd, fdu, &st);
	expect_errno(_metadata, "one more SUBMIT on that file", ret, err, ENOSPC, true);
}

TEST_F_TIMEOUT(acme, closing_frees_unreaped_commands, 60)
{
	struct acme_xa_stats st;
	unsigned int n;
	int fdu = leave_unreaped(_metadata, &n);

	ASSERT_TRUE(close_and_drain(self->fd, fdu, &st)) {
		TH_LOG("closing a file with %u unreaped commands: in_flight still %u after 20 s",
		       n, st.in_flight);
	}
}

/* The driver is still fine, and counted every refusal */

TEST_F(acme, fw_info_still_answers)
{
	struct acme_xa_fw_info info;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, ACME_XA_IOC_FW_INFO, &info)) {
		TH_LOG("FW_INFO: %s", strerror(errno));
	}
	ASSERT_EQ(sizeof(info), info.size);
	ASSERT_EQ((uint32_t)ACME_XA_ABI_VERSION, info.abi_version);
	info.fw_state_name[sizeof(info.fw_state_name) - 1] = '\0';
	ksft_print_msg("FW_INFO still answers (abi %u, state %s)\n", info.abi_version, info.fw_state_name);
}

TEST_F(acme, valid_command_still_completes)
{
	uint32_t id = 0;

	ASSERT_TRUE(round_trip(self->fd, &id)) {
		TH_LOG("a valid command did not complete: %s", strerror(errno));
	}
	ksft_print_msg("a valid command still completes (id %u)\n", id);
}

TEST_F(acme, driver_counted_every_rejection)
{
	struct acme_xa_stats st;

	ASSERT_TRUE(run && run->have_baseline) {
		TH_LOG("no STATS of %s from the start of the run", DEVICE);
	}
	ASSERT_EQ(0, get_stats(self->fd, &st)) {
		TH_LOG("STATS: %s", strerror(errno));
	}
	ASSERT_EQ(run->expect_rejected, st.rejected - run->st0.rejected) {
		TH_LOG("the driver counted %llu rejections, expected %llu",
		       (unsigned long long)(st.rejected - run->st0.rejected),
		       (unsigned long long)run->expect_rejected);
	}
	ksft_print_msg("the driver counted %llu rejections\n", (unsigned long long)run->expect_rejected);
}

TEST_F(acme, no_command_error_or_timeout)
{
	struct acme_xa_stats st;

	ASSERT_TRUE(run && run->have_baseline) {
		TH_LOG("no STATS of %s from the start of the run", DEVICE);
	}
	ASSERT_EQ(0, get_stats(self->fd, &st)) {
		TH_LOG("STATS: %s", strerror(errno));
	}
	ASSERT_EQ(run->st0.errors, st.errors);
	ASSERT_EQ(run->st0.timeouts, st.timeouts);
}

TEST_HARNESS_MAIN
