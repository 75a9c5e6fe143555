/* SPDX-License-Identifier: LicenseRef-Acme-Proprietary */
/*
 * Acme XA-1 accelerator: the ioctl ABI of /dev/acme_xa0.
 *
 * Copyright (c) Acme Corporation. All rights reserved.
 *
 * Shared by the kernel module (acme_xa.ko) and user space (acmectl). Only
 * fixed-width types with explicit padding, so the layout is the same for
 * 32-bit and 64-bit callers (the driver has a compat_ioctl).
 *
 * Every struct starts with its size. For the _IOW/_IOWR commands the
 * caller sets .size = sizeof(struct); for the _IOR ones the driver sets it.
 * A struct whose .size is wrong, or a command whose encoded size is not the
 * one below, fails with EINVAL; a command number the driver does not know
 * fails with ENOTTY. A later ABI adds new command numbers (with new sizes)
 * and keeps these.
 */
#ifndef ACME_XA_IOCTL_H
#define ACME_XA_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define ACME_XA_ABI_VERSION	1
#define ACME_XA_IOC_MAGIC	0xA7
#define ACME_XA_DEVICE_PATH	"/dev/acme_xa0"

/* Command opcodes */
#define ACME_XA_OP_READ		1
#define ACME_XA_OP_WRITE	2
#define ACME_XA_OP_CRYPT	3
#define ACME_XA_OP_MAX		ACME_XA_OP_CRYPT

/* Transfer length: 1 byte .. 1 MiB */
#define ACME_XA_MAX_LENGTH	(1U << 20)

/* Commands the device holds at once (in flight: submitted, not finished) */
#define ACME_XA_RING_DEPTH	64

/* Finished commands a file may leave unreaped; SUBMIT fails with ENOSPC past it */
#define ACME_XA_MAX_UNREAPED	1024

/* Longest ACME_XA_IOC_WAIT timeout, ms */
#define ACME_XA_MAX_WAIT_MS	600000U

/*
 * ACME_XA_IOC_SUBMIT: queue one command. Blocks while the ring is full
 * (EAGAIN instead with O_NONBLOCK); EINTR/restart on a signal.
 * Errors: EINVAL (size, opcode, length, flags), EFAULT, ENOSPC (too many
 * unreaped commands on this file), EIO (firmware failed: reset it).
 */
struct acme_xa_submit {
	__u32 size;		/* in: sizeof(struct acme_xa_submit) */
	__u32 opcode;		/* in: ACME_XA_OP_* */
	__u32 length;		/* in: bytes, 1..ACME_XA_MAX_LENGTH */
	__u32 flags;		/* in: 0 */
	__u64 user_tag;		/* in: returned by WAIT */
	__u32 id;		/* out: command id (non-zero) */
	__u32 reserved;		/* out: 0 */
};

/*
 * ACME_XA_IOC_WAIT: wait for command @id of this file to finish and reap
 * it. @timeout_ms 0 polls. Returns 0 with the result filled in; EAGAIN
 * (poll) or ETIMEDOUT (timeout_ms elapsed) when it has not finished;
 * ENOENT for an id that this file did not submit or already reaped;
 * EINVAL (size, flags, timeout_ms > ACME_XA_MAX_WAIT_MS); EFAULT.
 */
struct acme_xa_wait {
	__u32 size;		/* in: sizeof(struct acme_xa_wait) */
	__u32 id;		/* in */
	__u32 timeout_ms;	/* in: 0 = poll */
	__u32 flags;		/* in: 0 */
	__s32 status;		/* out: 0, -EIO, -ETIMEDOUT (device timeout), -ECANCELED */
	__u32 attempts;		/* out: times the device ran it (1 + retries) */
	__u64 user_tag;		/* out: as submitted */
	__u64 latency_ns;	/* out: submit to completion */
};

/* Firmware states (acme_xa_stats.fw_state, acme_xa_fw_info.fw_state) */
enum acme_xa_fw_state {
	ACME_XA_FW_BOOTING = 0,
	ACME_XA_FW_READY = 1,
	ACME_XA_FW_BUSY = 2,
	ACME_XA_FW_STALLED = 3,
	ACME_XA_FW_RESETTING = 4,
	ACME_XA_FW_FAILED = 5,
};

/* ACME_XA_IOC_STATS: the counters, since the module was loaded */
struct acme_xa_stats {
	__u32 size;		/* out: sizeof(struct acme_xa_stats) */
	__u32 fw_state;		/* out: enum acme_xa_fw_state */
	__u64 submitted;	/* commands accepted */
	__u64 completed;	/* commands finished with status 0 */
	__u64 errors;		/* commands finished with an error status */
	__u64 timeouts;		/* device timeouts (per attempt) */
	__u64 retries;		/* attempts repeated after an error or a timeout */
	__u64 resets;		/* device resets (automatic and ACME_XA_IOC_RESET) */
	__u64 ring_full;	/* SUBMITs that found the ring full */
	__u64 rejected;		/* requests refused as invalid */
	__u64 cancelled;	/* commands dropped because their file was closed */
	__u64 fw_errors;	/* error completions reported by the firmware */
	__u64 irqs;		/* completion interrupts */
	__u64 ring_wraps;	/* ring wraps since the last reset */
	__u32 in_flight;	/* commands in the ring now */
	__u32 ring_depth;	/* ACME_XA_RING_DEPTH */
};

/* ACME_XA_IOC_FW_INFO: what the driver and the firmware are */
struct acme_xa_fw_info {
	__u32 size;		/* out: sizeof(struct acme_xa_fw_info) */
	__u32 abi_version;	/* out: ACME_XA_ABI_VERSION */
	__u32 fw_state;		/* out: enum acme_xa_fw_state */
	__u32 ring_depth;	/* out */
	__u32 max_length;	/* out */
	__u32 reserved;		/* out: 0 */
	char driver_version[16];	/* out: NUL-terminated, e.g. "1.4.2" */
	char fw_version[32];		/* out: NUL-terminated */
	char fw_state_name[16];		/* out: NUL-terminated */
};

#define ACME_XA_IOC_SUBMIT	_IOWR(ACME_XA_IOC_MAGIC, 1, struct acme_xa_submit)
#define ACME_XA_IOC_WAIT	_IOWR(ACME_XA_IOC_MAGIC, 2, struct acme_xa_wait)
#define ACME_XA_IOC_STATS	_IOR(ACME_XA_IOC_MAGIC, 3, struct acme_xa_stats)
/*
 * ACME_XA_IOC_RESET: reset the device; running and queued commands run
 * again afterwards. Also the way out of the failed state. Returns once the
 * device is ready again (ETIMEDOUT after 5 s).
 */
#define ACME_XA_IOC_RESET	_IO(ACME_XA_IOC_MAGIC, 4)
#define ACME_XA_IOC_FW_INFO	_IOR(ACME_XA_IOC_MAGIC, 5, struct acme_xa_fw_info)

#endif /* ACME_XA_IOCTL_H */
