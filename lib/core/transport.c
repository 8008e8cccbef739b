/*
 * The ioctl transport: open /dev/npu_simN, check the ABI version, map the
 * device VA window, issue ioctls (retried on EINTR).  The ABI is
 * include/uapi/misc/npu_sim.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl_internal.h"

int npu_rt_open_device(int index, int *fd)
{
	char path[64];
	int f;

	snprintf(path, sizeof(path), NPU_SIM_DEV_PREFIX "%d", index);
	do {
		f = open(path, O_RDWR | O_CLOEXEC);
	} while (f < 0 && errno == EINTR);
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

/* inline: a hint to the shared library's LTO (lib.mk), as in device.c;
 * every call's request goes through here. */
inline int npu_rt_ioctl(int fd, unsigned long request, void *arg)
{
	return npu_rt_ioctl_inline(fd, request, arg);
}

int npu_rt_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct npu_sim_get_param gp = { .param = param, .index = 0, .value = 0 };
	int rc = npu_rt_ioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp);

	if (rc == 0)
		*value = gp.value;
	return rc;
}

/* A newer module minor only adds; an older one may lack what we use. */
static bool abi_compatible(uint64_t major, uint64_t minor, uint64_t need_major, uint64_t need_minor)
{
	return major == need_major && minor >= need_minor;
}

int npu_rt_check_api_version(int fd)
{
	uint64_t v;
	int rc = npu_rt_get_param(fd, NPU_SIM_PARAM_API_VERSION, &v);

	if (rc == -ENOTTY || rc == -EINVAL)
		rc = -EPROTO;	/* not an npu_sim device we understand */
	if (rc != 0)
		return rc;
	if (!abi_compatible(v >> 16, v & 0xffff, NPU_SIM_API_VERSION_MAJOR, NPU_SIM_API_VERSION_MINOR)) {
		fprintf(stderr,
			"libacl_rt: npu_sim module speaks ABI %u.%u, library needs %u.%u or a newer minor\n",
			(unsigned)(v >> 16), (unsigned)(v & 0xffff), (unsigned)NPU_SIM_API_VERSION_MAJOR,
			(unsigned)NPU_SIM_API_VERSION_MINOR);
		return -EPROTO;
	}
	return 0;
}

int npu_rt_map_window(int fd, uint64_t size, uintptr_t *start)
{
	void *p;

	if (size == 0 || size > SIZE_MAX)
		return -EINVAL;
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	*start = (uintptr_t)p;
	return 0;
}

void npu_rt_unmap_window(uintptr_t start, uint64_t size)
{
	munmap((void *)start, (size_t)size);
}
