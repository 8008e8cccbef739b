/*
 * npu_sim example: virtual memory management and sharing between
 * processes, the pattern of expandable-segment and sleep-mode allocators.
 * Built against the public headers only (include/acl/acl.h) and libacl_rt.
 *
 *   reserve a VA range larger than the device -> create physical handles
 *   (aclrtMallocPhysical) -> map them back to back -> one copy across both
 *   -> unmap -> remap one handle elsewhere, data intact -> export it ->
 *   a second process (fork + its own aclInit/aclrtSetDevice) imports it,
 *   maps it, reads the data and writes an answer -> the first process sees
 *   the answer -> everything unmapped and freed, memory back to where it was.
 *
 * Needs a few free 2 MiB hugetlb pages (ACL_MEM_HUGE), e.g.
 *   tools/npu-vm --hugepages-2m 8 -- build/examples/vmm_share
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"

#define MIB (1024ul * 1024)

#define CHECK_ACL(call)                                                              \
	do {                                                                         \
		aclError e_ = (call);                                                \
		if (e_ != ACL_SUCCESS) {                                             \
			fprintf(stderr, "FAIL: %s returned %d (line %d)\n", #call, e_, __LINE__); \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed);
}

/* The second process: import, map, check, answer. */
static int importer(int rfd, int wfd)
{
	unsigned char buf[4096], want[4096];
	aclrtDrvMemHandle h;
	uint64_t key;
	char *va;

	if (read(rfd, &key, sizeof(key)) != sizeof(key))
		return 1;
	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtSetDevice(0));
	CHECK_ACL(aclrtMemImportFromShareableHandle(key, 0, &h));
	CHECK_ACL(aclrtReserveMemAddress((void **)&va, 2 * MIB, 0, NULL, 0));
	CHECK_ACL(aclrtMapMem(va, 2 * MIB, 0, h, 0));
	CHECK_ACL(aclrtMemcpy(buf, sizeof(buf), va, sizeof(buf), ACL_MEMCPY_DEVICE_TO_HOST));
	fill(want, sizeof(want), 7);
	printf("  [importer %d] imported key, data %s\n", (int)getpid(),
	       memcmp(buf, want, sizeof(buf)) ? "MISMATCH" : "as exported");
	memcpy(buf, "hello from the importer", 24);
	CHECK_ACL(aclrtMemcpy(va, 4096, buf, 24, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtUnmapMem(va));
	CHECK_ACL(aclrtReleaseMemAddress(va));
	CHECK_ACL(aclrtFreePhysical(h));	/* drops only this process's hold */
	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	if (write(wfd, "k", 1) != 1)
		return 1;
	return memcmp(buf + 24, want + 24, 100) ? 1 : 0;
}

int main(void)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h1, h2;
	size_t gran, free0, total, free1;
	unsigned char *buf = malloc(4 * MIB), *back = malloc(4 * MIB);
	int to_child[2], to_parent[2], status, failures = 0;
	uint64_t key;
	char *va, c;
	pid_t pid;

	if (!buf || !back || pipe(to_child) || pipe(to_parent))
		return 1;
	pid = fork();
	if (pid == 0)
		_exit(importer(to_child[0], to_parent[1]));

	CHECK_ACL(aclInit(NULL));
	CHECK_ACL(aclrtSetDevice(0));
	CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));

	memset(&prop, 0, sizeof(prop));
	prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop.memAttr = ACL_MEM_HUGE;
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
	printf("granularity %zu bytes\n", gran);

	/* 1. reserve more VA than the device has memory */
	CHECK_ACL(aclrtReserveMemAddress((void **)&va, total / 8 * 9, 0, NULL, 0));
	printf("reserved %zu MiB at %p (device has %zu MiB)\n", total / 8 * 9 / MIB, (void *)va, total / MIB);

	/* 2. two physical handles, mapped back to back */
	CHECK_ACL(aclrtMallocPhysical(&h1, 2 * MIB, &prop, 0));
	CHECK_ACL(aclrtMallocPhysical(&h2, 2 * MIB, &prop, 0));
	CHECK_ACL(aclrtMapMem(va, 2 * MIB, 0, h1, 0));
	CHECK_ACL(aclrtMapMem(va + 2 * MIB, 2 * MIB, 0, h2, 0));

	/* 3. one copy across both mappings */
	fill(buf, 2 * MIB, 7);
	fill(buf + 2 * MIB, 2 * MIB, 9);
	CHECK_ACL(aclrtMemcpy(va, 4 * MIB, buf, 4 * MIB, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(back, 4 * MIB, va, 4 * MIB, ACL_MEMCPY_DEVICE_TO_HOST));
	printf("copy across two mappings: %s\n", memcmp(buf, back, 4 * MIB) ? "MISMATCH" : "ok");
	failures += memcmp(buf, back, 4 * MIB) != 0;

	/* 4. unmap h2, remap it 64 MiB further: data preserved */
	CHECK_ACL(aclrtUnmapMem(va + 2 * MIB));
	CHECK_ACL(aclrtMapMem(va + 64 * MIB, 2 * MIB, 0, h2, 0));
	CHECK_ACL(aclrtMemcpy(back, 2 * MIB, va + 64 * MIB, 2 * MIB, ACL_MEMCPY_DEVICE_TO_HOST));
	printf("unmap + remap elsewhere keeps the data: %s\n",
	       memcmp(buf + 2 * MIB, back, 2 * MIB) ? "MISMATCH" : "ok");
	failures += memcmp(buf + 2 * MIB, back, 2 * MIB) != 0;

	/* 5. share h1 with the second process */
	CHECK_ACL(aclrtMemExportToShareableHandle(h1, ACL_MEM_HANDLE_TYPE_NONE,
						  ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &key));
	CHECK_ACL(aclrtMemSetPidToShareableHandle(key, &(int32_t){ pid }, 1));
	printf("exported h1, whitelisted pid %d\n", (int)pid);
	if (write(to_child[1], &key, sizeof(key)) != sizeof(key) || read(to_parent[0], &c, 1) != 1)
		return 1;
	CHECK_ACL(aclrtMemcpy(back, 64, va, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	printf("answer seen by the exporter: \"%s\"\n", (char *)back);
	failures += strcmp((char *)back, "hello from the importer") != 0;
	waitpid(pid, &status, 0);
	failures += !WIFEXITED(status) || WEXITSTATUS(status) != 0;

	/* 6. unmap + free: memory back to where it was (the sleep step) */
	CHECK_ACL(aclrtUnmapMem(va));
	CHECK_ACL(aclrtUnmapMem(va + 64 * MIB));
	CHECK_ACL(aclrtFreePhysical(h1));
	CHECK_ACL(aclrtFreePhysical(h2));
	CHECK_ACL(aclrtReleaseMemAddress(va));
	CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
	printf("free HBM before %zu MiB, after %zu MiB\n", free0 / MIB, free1 / MIB);
	failures += free1 != free0;

	CHECK_ACL(aclrtResetDevice(0));
	CHECK_ACL(aclFinalize());
	free(buf);
	free(back);
	printf("%s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
