// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-ctx-read EVENT_ID OFFSET: attach to the trace event EVENT_ID a BPF
 * tracepoint program that reads 8 bytes of its context (the event's
 * record) at OFFSET, as bpftrace's args->field does, and say whether the
 * kernel took it:
 *   attached
 *   refused: <errno name>
 * The kernel checks such reads against the end of the event's last field
 * when the program is attached (PERF_EVENT_IOC_SET_BPF): a read past the
 * record must be refused, a read of its common fields taken.
 * Exit status: 0 when it could ask, 1 on a usage or set-up error.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int parse_number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	return errno || end == s || *end || *out > max ? -1 : 0;
}

static int load_program(int16_t offset)
{
	/* r0 = *(u64 *)(r1 + offset); r0 = 0; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1, .off = offset },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		fprintf(stderr, "bpf-ctx-read: BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	return fd;
}

static int open_event(unsigned long id)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0)
		fprintf(stderr, "bpf-ctx-read: perf_event_open of event %lu: %s\n", id, strerror(errno));
	return fd;
}

int main(int argc, char **argv)
{
	unsigned long id, offset;
	int prog, event;

	if (argc != 3 || parse_number(argv[1], UINT32_MAX, &id) ||
	    parse_number(argv[2], INT16_MAX, &offset)) {
		fprintf(stderr, "usage: bpf-ctx-read EVENT_ID OFFSET\n");
		return 1;
	}
	prog = load_program((int16_t)offset);
	if (prog < 0)
		return 1;
	event = open_event(id);
	if (event < 0) {
		close(prog);
		return 1;
	}
	if (ioctl(event, PERF_EVENT_IOC_SET_BPF, prog) == 0)
		printf("attached\n");
	else
		printf("refused: %s\n", errno == EACCES ? "EACCES" : strerror(errno));
	close(event);
	close(prog);
	return 0;
}
