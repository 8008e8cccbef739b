/*
 * npu_sim example: device memory round trip, in the style of an Ascend
 * AscendCL memory sample.  Built against the public headers only
 * (include/acl/acl.h) and libacl_rt.
 *
 *   aclInit -> aclrtSetDevice(0) -> aclrtMallocHost + aclrtMalloc (several
 *   policies) -> H2D, D2D, D2H copies, verified -> aclrtMemset, verified ->
 *   aclrtGetMemInfo before / after -> free everything -> aclrtResetDevice
 *   -> aclFinalize.
 *
 * Environment: NPU_SIM_DEMO_SHOW_DEBUGFS=1 prints the driver's debugfs
 * "info" and "allocations" files of device 0 while the allocations are
 * live; NPU_SIM_DEMO_STATUS_CMD, when set, is a shell command run at that
 * moment too (the demo runs the status tool with it).  Exit status 0 when every check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define BIG_SIZE (4u << 20)	/* 4 MiB: HUGE_FIRST takes 2 MiB pages */
#define SMALL_SIZE 4096u

#define CHECK_ACL(call)                                                              \
	do {                                                                         \
		aclError e_ = (call);                                                \
		if (e_ != ACL_SUCCESS) {                                             \
			fprintf(stderr, "FAIL: %s returned %d (line %d)\n", #call, e_, __LINE__); \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

static int failures;

static void expect(int ok, const char *what)
{
	printf("  %-58s %s\n", what, ok ? "ok" : "MISMATCH");
	if (!ok)
		failures++;
}

static void print_mem_info(const char *when, size_t *free_out)
{
	size_t free_bytes = 0, total_bytes = 0;

	CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
	printf("aclrtGetMemInfo(ACL_HBM_MEM) %-18s free %zu of %zu bytes\n", when, free_bytes, total_bytes);
	*free_out = free_bytes;
}

static void cat_file(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	printf("---- %s\n", path);
	if (f == NULL) {
		printf("(cannot open; is debugfs mounted and are we root?)\n");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		fputs(line, stdout);
	fclose(f);
}

/* The hugetlb pool counters, to see the pages the device holds. */
static void print_hugepages(void)
{
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	printf("---- /proc/meminfo (HugePages_*) while the allocations are live\n");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "HugePages_", 10) == 0)
			fputs(line, stdout);
	fclose(f);
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);	/* keep order with stderr */
	unsigned char *host_src = NULL, *host_dst = NULL;
	void *dev_big = NULL, *dev_big2 = NULL, *dev_small = NULL;
	size_t free_start, free_alloc, free_end;
	uint32_t count = 0;
	const char *show = getenv("NPU_SIM_DEMO_SHOW_DEBUGFS");

	printf("== npu_sim memory demo ==\n");
	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtGetDeviceCount(&count));
	printf("devices: %u\n", count);
	CHECK_ACL(aclrtSetDevice(0));
	printf("aclrtSetDevice(0): ok\n");
	print_mem_info("at start:", &free_start);

	printf("allocating:\n");
	CHECK_ACL(aclrtMallocHost((void **)&host_src, BIG_SIZE));
	CHECK_ACL(aclrtMallocHost((void **)&host_dst, BIG_SIZE));
	printf("  host   %p, %p  aclrtMallocHost %u bytes each\n", (void *)host_src, (void *)host_dst, BIG_SIZE);
	CHECK_ACL(aclrtMalloc(&dev_big, BIG_SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	printf("  device %p  aclrtMalloc        %u bytes HUGE_FIRST\n", dev_big, BIG_SIZE);
	CHECK_ACL(aclrtMallocAlign32(&dev_big2, BIG_SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
	printf("  device %p  aclrtMallocAlign32 %u bytes HUGE_FIRST\n", dev_big2, BIG_SIZE);
	CHECK_ACL(aclrtMalloc(&dev_small, SMALL_SIZE, ACL_MEM_MALLOC_NORMAL_ONLY));
	printf("  device %p  aclrtMalloc        %u bytes NORMAL_ONLY\n", dev_small, SMALL_SIZE);
	print_mem_info("after malloc:", &free_alloc);
	printf("  device memory charged: %zu bytes\n", free_start - free_alloc);

	printf("copies:\n");
	for (size_t i = 0; i < BIG_SIZE; i++)
		host_src[i] = (unsigned char)(i * 131u + 7u);
	memset(host_dst, 0, BIG_SIZE);
	CHECK_ACL(aclrtMemcpy(dev_big, BIG_SIZE, host_src, BIG_SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
	printf("  aclrtMemcpy H2D host_src -> dev_big: ok\n");
	CHECK_ACL(aclrtMemcpy(dev_big2, BIG_SIZE, dev_big, BIG_SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE));
	printf("  aclrtMemcpy D2D dev_big -> dev_big2: ok\n");
	CHECK_ACL(aclrtMemcpy(host_dst, BIG_SIZE, dev_big2, BIG_SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	printf("  aclrtMemcpy D2H dev_big2 -> host_dst: ok\n");
	expect(memcmp(host_src, host_dst, BIG_SIZE) == 0, "host_dst equals host_src (4 MiB round trip)");

	printf("sets:\n");
	CHECK_ACL(aclrtMemset(dev_small, SMALL_SIZE, 0x5a, SMALL_SIZE));
	memset(host_dst, 0, SMALL_SIZE);
	CHECK_ACL(aclrtMemcpy(host_dst, BIG_SIZE, dev_small, SMALL_SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	expect(all_bytes(host_dst, SMALL_SIZE, 0x5a), "dev_small reads back as 0x5a after aclrtMemset");
	CHECK_ACL(aclrtMemset((char *)dev_big2 + 4096, BIG_SIZE - 4096, 0x1ff, 8192));	/* low byte 0xff */
	CHECK_ACL(aclrtMemcpy(host_dst, BIG_SIZE, dev_big2, BIG_SIZE, ACL_MEMCPY_DEFAULT));
	expect(memcmp(host_dst, host_src, 4096) == 0, "bytes before the set range unchanged");
	expect(all_bytes(host_dst + 4096, 8192, 0xff), "set range holds the low byte of 0x1ff");
	expect(memcmp(host_dst + 12288, host_src + 12288, BIG_SIZE - 12288) == 0,
	       "bytes after the set range unchanged");

	if (show != NULL && strcmp(show, "1") == 0) {
		cat_file("/sys/kernel/debug/npu_sim/npu_sim0/info");
		cat_file("/sys/kernel/debug/npu_sim/npu_sim0/allocations");
		print_hugepages();
	}
	if (getenv("NPU_SIM_DEMO_STATUS_CMD") != NULL) {
		printf("---- %s\n", getenv("NPU_SIM_DEMO_STATUS_CMD"));
		fflush(stdout);
		expect(system(getenv("NPU_SIM_DEMO_STATUS_CMD")) == 0, "status command ran");
	}

	printf("freeing:\n");
	CHECK_ACL(aclrtFree(dev_big));
	CHECK_ACL(aclrtFree(dev_big2));
	CHECK_ACL(aclrtFree(dev_small));
	CHECK_ACL(aclrtFreeHost(host_src));
	CHECK_ACL(aclrtFreeHost(host_dst));
	print_mem_info("after free:", &free_end);
	expect(free_end == free_start, "free memory back to its value at start");

	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	printf("== %s ==\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
