/*
 * Host buffer rules shared with the unit tests (pure).
 */
#ifndef NPU_RT_HOST_BUF_H
#define NPU_RT_HOST_BUF_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of the user data area of every buffer (the CANN default). */
#define NPU_RT_BUF_USER_SIZE 96

/* True when [offset, offset + size) leaves the user data area (the ACL
 * layer's check, without its size_t wrap-around). */
static inline bool npu_rt_buf_user_range_bad(size_t size, size_t offset)
{
	return size > NPU_RT_BUF_USER_SIZE || offset > NPU_RT_BUF_USER_SIZE - size;
}

#endif /* NPU_RT_HOST_BUF_H */
