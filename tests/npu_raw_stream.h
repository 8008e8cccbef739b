/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw driver calls for stream tests, shared by tests/vm and tests/stress:
 * plain ioctls returning 0 or -1 (errno set), usable in forked children
 * (no Check assertions).
 */
#ifndef NPU_RAW_STREAM_H
#define NPU_RAW_STREAM_H

#include <stdint.h>
#include <sys/ioctl.h>

#include <misc/npu_sim.h>

/* MEM_ALLOC of @bytes of normal pages; *@va set. */
static inline int raw_alloc(int fd, uint64_t bytes, uint64_t *va)
{
	struct npu_sim_mem_alloc a = {
		.size = bytes, .footprint = bytes,
		.backing = NPU_SIM_BACKING_NORMAL, .api = NPU_SIM_API_MALLOC,
	};

	if (ioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a))
		return -1;
	*va = a.va;
	return 0;
}

static inline int raw_stream(int fd, uint32_t *sid)
{
	struct npu_sim_stream_create sc = { 0 };

	if (ioctl(fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc))
		return -1;
	*sid = sc.id;
	return 0;
}

/* VALUE_WAIT on stream @sid until the 8 bytes at @va equal @operand. */
static inline int raw_value_wait(int fd, uint32_t sid, uint64_t va,
				 uint64_t operand)
{
	struct npu_sim_stream_submit sb = {
		.stream = sid, .op = NPU_SIM_OP_VALUE_WAIT, .dst = va,
		.width = 8, .operand = operand, .flags = NPU_SIM_WAIT_EQ,
	};

	return ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb) ? -1 : 0;
}

/* A COPY of @n bytes in direction @dir (enum npu_sim_copy_dir) on @sid. */
static inline int raw_copy(int fd, uint32_t sid, uint32_t dir, uint64_t dst,
			   uint64_t src, uint64_t n)
{
	struct npu_sim_stream_submit sb = {
		.stream = sid, .op = NPU_SIM_OP_COPY, .dst = dst, .dpitch = n,
		.src = src, .spitch = n, .width = n, .height = 1, .dir = dir,
	};

	return ioctl(fd, NPU_SIM_IOCTL_STREAM_SUBMIT, &sb) ? -1 : 0;
}

#endif /* NPU_RAW_STREAM_H */
