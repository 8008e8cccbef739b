/*
 * Fault injection: NPU_SIM_FAULTS and the FAULT_INJECT ioctl
 * (docs/driver-interface.md "UAPI 1.6", "Fault injection").  The driver
 * decides which calls fail; the library passes the setting down and prints
 * the seed so that a failing run can be replayed.
 */
#include "faults.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"
#include "err_msg.h"

static const struct {
	const char *name;
	uint32_t mask;
} op_names[] = {
	{ "alloc", 1U << NPU_SIM_FAULT_ALLOC },
	{ "map", 1U << NPU_SIM_FAULT_MAP },
	{ "import", 1U << NPU_SIM_FAULT_IMPORT },
	{ "copy", 1U << NPU_SIM_FAULT_COPY },
	{ "stream", 1U << NPU_SIM_FAULT_STREAM },
	{ "all", NPU_SIM_FAULT_OPS_MASK },
};

static int parse_rate(const char *s, size_t len, uint32_t *ppm)
{
	char buf[64], *end;
	double v, scale = 1e6;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[len - 1] == '%') {
		buf[--len] = '\0';
		scale = 1e4;
	}
	if (len == 0 || !((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '.'))
		return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (errno != 0 || *end != '\0' || !(v > 0) || v * scale > 1e6 + 0.5)
		return -1;
	v = v * scale + 0.5;
	*ppm = v < 1 ? 1 : (uint32_t)v;
	return 0;
}

static int parse_ops(const char *s, uint32_t *ops)
{
	uint32_t mask = 0;

	while (*s != '\0') {
		size_t n = strcspn(s, ",+"), i;

		for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
			if (strlen(op_names[i].name) == n && strncmp(s, op_names[i].name, n) == 0)
				break;
		if (i == sizeof(op_names) / sizeof(op_names[0]))
			return -1;
		mask |= op_names[i].mask;
		s += n;
		if (*s != '\0' && *++s == '\0')
			return -1;	/* trailing separator */
	}
	if (mask == 0)
		return -1;
	*ops = mask;
	return 0;
}

int npu_rt_faults_parse(const char *s, struct npu_rt_faults *f)
{
	const char *c1, *c2;
	char *end;
	struct npu_rt_faults r;

	if (s == NULL || !(*s >= '0' && *s <= '9'))
		return -1;
	c1 = strchr(s, ':');
	if (c1 == NULL)
		return -1;
	errno = 0;
	r.seed = strtoull(s, &end, 0);
	if (errno != 0 || end != c1)
		return -1;
	c2 = strchr(c1 + 1, ':');
	if (parse_rate(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), &r.rate_ppm) != 0)
		return -1;
	r.ops = NPU_SIM_FAULT_OPS_MASK;
	if (c2 != NULL && parse_ops(c2 + 1, &r.ops) != 0)
		return -1;
	*f = r;
	return 0;
}

static void ops_text(uint32_t ops, char *buf, size_t size)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i + 1 < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (ops & op_names[i].mask)
			used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
						 used ? "," : "", op_names[i].name);
}

static pthread_once_t announce_once = PTHREAD_ONCE_INIT;
static struct npu_rt_faults announced;

static void announce(void)
{
	char ops[64];

	ops_text(announced.ops, ops, sizeof(ops));
	fprintf(stderr, "npu_sim: fault injection seed=%llu rate=%u.%06u ops=%s\n",
		(unsigned long long)announced.seed, announced.rate_ppm / 1000000,
		announced.rate_ppm % 1000000, ops);
}

int npu_rt_faults_apply(int fd)
{
	const char *env = getenv("NPU_SIM_FAULTS");
	struct npu_sim_fault_inject req;
	struct npu_rt_faults f;
	int rc;

	if (env == NULL || *env == '\0')
		return 0;
	if (npu_rt_faults_parse(env, &f) != 0) {
		npu_rt_msg_detail("NPU_SIM_FAULTS=\"%s\" is not seed:rate[:ops] (rate a fraction "
				  "like 0.1 or a percentage like 10%%; ops from alloc, map, import, "
				  "copy, stream, all joined by ',' or '+')", env);
		return -EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.seed = f.seed;
	req.rate = f.rate_ppm;
	req.ops = f.ops;
	rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_FAULT_INJECT, &req);
	if (rc == 0) {
		announced = f;
		pthread_once(&announce_once, announce);
	}
	return rc;
}
