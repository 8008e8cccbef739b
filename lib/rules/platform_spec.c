/*
 * The platform specification table (lib/rules/platform_spec.h): one row
 * per SoC version a CANN install ships a platform file for (hicann/runtime
 * src/platform/platform_config at 681ef76), the figures as those files
 * give them.
 */
#include <stddef.h>
#include <string.h>

#include "platform_spec.h"

static const struct npu_rt_platform_spec specs[] = {
	{ "Ascend031", 3004, 1, 0, 1, 4194304 },
	{ "Ascend035A", 3505, 1, 0, 0, 0 },
	{ "Ascend035B", 3505, 1, 0, 0, 0 },
	{ "Ascend035", 3505, 1, 0, 0, 0 },
	{ "Ascend310B1", 3002, 1, 1, 1, 4194304 },
	{ "Ascend310B2", 3002, 1, 1, 1, 4194304 },
	{ "Ascend310B3", 3002, 1, 1, 1, 4194304 },
	{ "Ascend310B4", 3002, 1, 1, 1, 4194304 },
	{ "Ascend310P1", 2002, 10, 0, 8, 16777216 },
	{ "Ascend310P3", 2002, 8, 0, 7, 16777216 },
	{ "Ascend310P5", 2002, 8, 0, 7, 16777216 },
	{ "Ascend310P7", 2002, 8, 0, 7, 16777216 },
	{ "Ascend350_354f", 3510, 14, 14, 28, 58720256 },
	{ "Ascend350_355e", 3510, 16, 16, 32, 67108864 },
	{ "Ascend910A", 1001, 32, 0, 0, 33554432 },
	{ "Ascend910B1", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910B2C", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910B2", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910B3", 2201, 20, 20, 40, 201326592 },
	{ "Ascend910B4-1", 2201, 20, 20, 40, 176160768 },
	{ "Ascend910B4", 2201, 20, 20, 40, 100663296 },
	{ "Ascend910B", 1001, 30, 0, 0, 33554432 },
	{ "Ascend910PremiumA", 1001, 32, 0, 0, 33554432 },
	{ "Ascend910ProA", 1001, 32, 0, 0, 33554432 },
	{ "Ascend910ProB", 1001, 30, 0, 0, 33554432 },
	{ "Ascend910_9362", 2201, 20, 20, 40, 176160768 },
	{ "Ascend910_9363", 2201, 20, 20, 40, 176160768 },
	{ "Ascend910_9372", 2201, 20, 20, 40, 201326592 },
	{ "Ascend910_9381", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910_9382", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910_9391", 2201, 24, 24, 48, 201326592 },
	{ "Ascend910_9392", 2201, 24, 24, 48, 201326592 },
	{ "Ascend950DT_950x", 3510, 8, 8, 16, 33554432 },
	{ "Ascend950DT_950y", 3510, 8, 8, 16, 33554432 },
	{ "Ascend950DT_9571", 3510, 28, 28, 56, 134217728 },
	{ "Ascend950DT_9572", 3510, 28, 28, 56, 134217728 },
	{ "Ascend950DT_9573", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950DT_9574", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950DT_9575", 3510, 28, 28, 56, 134217728 },
	{ "Ascend950DT_9576", 3510, 28, 28, 56, 134217728 },
	{ "Ascend950DT_9577", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950DT_9578", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950DT_9581x", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9581", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9582x", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9582", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9583", 3510, 32, 32, 64, 117440512 },
	{ "Ascend950DT_9584", 3510, 32, 32, 64, 117440512 },
	{ "Ascend950DT_9585", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9586", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950DT_9587", 3510, 32, 32, 64, 117440512 },
	{ "Ascend950DT_9588", 3510, 32, 32, 64, 117440512 },
	{ "Ascend950DT_9591", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950DT_9592", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950DT_9595", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950DT_9596", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950DT_95A1", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950DT_95A2", 3510, 36, 36, 72, 134217728 },
	{ "Ascend950PR_950z", 3510, 4, 4, 8, 16777216 },
	{ "Ascend950PR_9579", 3510, 28, 28, 56, 134217728 },
	{ "Ascend950PR_957bx", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950PR_957b", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950PR_957c", 3510, 28, 28, 56, 117440512 },
	{ "Ascend950PR_957d", 3510, 28, 28, 56, 100663296 },
	{ "Ascend950PR_9589", 3510, 32, 32, 64, 134217728 },
	{ "Ascend950PR_958b", 3510, 32, 32, 64, 117440512 },
	{ "Ascend950PR_9599", 3510, 36, 36, 72, 134217728 },
	{ "Kirin9030", 3113, 1, 0, 1, 0 },
	{ "KirinDev0000", 5101, 4, 0, 4, 0 },
	{ "KirinDev0001", 5161, 5, 0, 5, 0 },
	{ "KirinDev0002", 5165, 1, 0, 1, 0 },
	{ "KirinDev0003", 5163, 5, 0, 5, 0 },
	{ "KirinX90", 3003, 1, 0, 1, 0 },
};

const struct npu_rt_platform_spec *npu_rt_platform_spec(const char *soc)
{
	if (soc == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (strcmp(specs[i].soc, soc) == 0)
			return &specs[i];
	return NULL;
}

int npu_rt_platform_npu_arch(const char *soc, int32_t *arch)
{
	const struct npu_rt_platform_spec *s = npu_rt_platform_spec(soc);

	if (s == NULL)
		return -1;
	*arch = s->npu_arch;
	return 0;
}
