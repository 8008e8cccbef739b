/*
 * Per-process device memory limits: NPU_SIM_MEM_LIMIT and the MEM_LIMIT
 * ioctl (docs/driver-interface.md "UAPI 1.6", "Limits").  The driver enforces
 * the limit; the library only passes the variable down and reports.
 */
#include "limits.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

int npu_rt_limit_parse(const char *s, uint64_t *bytes)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;

	if (s == NULL || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (toupper((unsigned char)*p)) {
	case 'K':
		mul = 1ULL << 10;
		p++;
		break;
	case 'M':
		mul = 1ULL << 20;
		p++;
		break;
	case 'G':
		mul = 1ULL << 30;
		p++;
		break;
	case 'T':
		mul = 1ULL << 40;
		p++;
		break;
	default:
		break;
	}
	if (*p != '\0' || v == 0 || v > UINT64_MAX / mul)
		return -1;
	*bytes = v * mul;
	return 0;
}

int npu_rt_limit_get(int fd, struct npu_sim_mem_limit *req)
{
	memset(req, 0, sizeof(*req));
	req->op = NPU_SIM_LIMIT_GET;
	return npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, req);
}

int npu_rt_limits_apply(int fd)
{
	const char *env = getenv("NPU_SIM_MEM_LIMIT");
	struct npu_sim_mem_limit req;
	uint64_t bytes;

	if (env == NULL || *env == '\0')
		return 0;
	if (npu_rt_limit_parse(env, &bytes) != 0) {
		npu_rt_msg_detail("NPU_SIM_MEM_LIMIT=\"%s\" is not a size in bytes > 0 "
				  "(digits with an optional K, M, G or T suffix)", env);
		return -EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.op = NPU_SIM_LIMIT_SET;
	req.limit = bytes;
	return npu_rt_ioctl(fd, NPU_SIM_IOCTL_MEM_LIMIT, &req);
}

bool npu_rt_limit_diagnose(int fd, uint64_t charge)
{
	struct npu_sim_mem_limit req;

	if (npu_rt_limit_get(fd, &req) != 0 || req.effective == 0 ||
	    (req.used <= req.effective && charge <= req.effective - req.used))
		return false;
	npu_rt_msg_detail("%llu bytes would take this process past its device memory limit: "
			  "%llu of %llu bytes in use (%s)",
			  (unsigned long long)charge, (unsigned long long)req.used,
			  (unsigned long long)req.effective,
			  req.effective == req.own_limit ? "NPU_SIM_MEM_LIMIT" :
							   "sysfs proc_mem_limit_bytes");
	return true;
}
