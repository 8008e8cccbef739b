// SPDX-License-Identifier: GPL-2.0
/*
 * Load/unload cycles with use in between: each cycle unloads and loads the
 * module, has a process allocate, copy (verified) and free, and then holds
 * the module one way in turn - a device file open, only the window mapped
 * (fd closed), memory shared to a second process whose exporter is gone,
 * a debugfs file open - while rmmod must be refused with EAGAIN
 * (EWOULDBLOCK); once the holder lets go, the next unload works.
 *
 * Cycles: NPU_SIM_CYCLES (5; 100 with NPU_SIM_STRESS=1).  Ends with the
 * module loaded with its defaults and the after-checks of stress.h.
 */
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

static const char *const holds[] = { "an open device file", "a mapped window", "shared memory",
				     "an open debugfs file" };

/* A process that allocates, round-trips 1 MiB through the device, frees. */
static int use_device(void)
{
	unsigned char *a = malloc(MiB), *b = malloc(MiB);
	void *d = NULL;

	if (a == NULL || b == NULL || aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	for (size_t i = 0; i < MiB; i++)
		a[i] = (unsigned char)(i * 7 + 3);
	if (aclrtMalloc(&d, MiB, ACL_MEM_MALLOC_NORMAL_ONLY) ||
	    aclrtMemcpy(d, MiB, a, MiB, ACL_MEMCPY_HOST_TO_DEVICE) ||
	    aclrtMemcpy(b, MiB, d, MiB, ACL_MEMCPY_DEVICE_TO_HOST))
		return 2;
	if (memcmp(a, b, MiB) != 0)
		return 3;
	return aclrtFree(d) || aclrtResetDevice(0) || aclFinalize() ? 4 : 0;
}

static int run_child(int (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Exporter: a 2 MiB handle any process may import; key to @wfd; waits. */
static int exporter(int wfd, int rfd)
{
	aclrtPhysicalMemProp prop;
	aclrtDrvMemHandle h;
	uint64_t key = 0;
	char c;

	memset(&prop, 0, sizeof(prop));
	prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop.memAttr = ACL_MEM_NORMAL;
	prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	if (aclInit(NULL) || aclrtSetDevice(0) || aclrtMallocPhysical(&h, 2 * MiB, &prop, 0) ||
	    aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
					    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key))
		key = 0;
	if (write(wfd, &key, sizeof(key)) != sizeof(key))
		return 1;
	return read(rfd, &c, 1) == 1 ? 0 : 0;	/* until told (or the pipe closes) */
}

/* Importer: imports the key from @rfd, reports, holds until @rfd closes. */
static int importer(int rfd, int wfd)
{
	aclrtDrvMemHandle h;
	uint64_t key;
	int32_t ok;
	char c;

	if (read(rfd, &key, sizeof(key)) != sizeof(key) || aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	ok = aclrtMemImportFromShareableHandle(key, 0, &h);
	if (write(wfd, &ok, sizeof(ok)) != sizeof(ok))
		return 2;
	return read(rfd, &c, 1) >= 0 ? 0 : 0;
}

/* Holds the module one way; returns a token release() undoes. */
struct hold {
	int fd;
	void *map;
	size_t len;
	pid_t imp;
	int imp_cmd;
};

static int hold_shared(struct hold *h)
{
	int e2p[2], p2e[2], i2p[2], p2i[2], st;
	uint64_t key = 0;
	int32_t code = -1;
	pid_t exp;

	if (pipe(e2p) || pipe(p2e) || pipe(i2p) || pipe(p2i))
		return -1;
	fflush(NULL);
	exp = fork();
	if (exp == 0) {
		close(e2p[0]);
		close(p2e[1]);
		close(i2p[0]);
		close(p2i[1]);
		_exit(exporter(e2p[1], p2e[0]));
	}
	h->imp = fork();
	if (h->imp == 0) {
		close(e2p[0]);
		close(p2e[1]);
		close(i2p[0]);
		close(p2i[1]);
		_exit(importer(p2i[0], i2p[1]));
	}
	close(e2p[1]);
	close(p2e[0]);
	close(i2p[1]);
	close(p2i[0]);
	if (read(e2p[0], &key, sizeof(key)) != sizeof(key) || key == 0)
		return -2;
	if (write(p2i[1], &key, sizeof(key)) != sizeof(key) || read(i2p[0], &code, sizeof(code)) != sizeof(code))
		return -3;
	/* the exporter goes; its memory stays with the importer */
	close(p2e[1]);
	waitpid(exp, &st, 0);
	close(e2p[0]);
	close(i2p[0]);
	h->imp_cmd = p2i[1];
	return code == ACL_SUCCESS ? 0 : -4;
}

static int take_hold(int kind, struct hold *h)
{
	uint64_t win, len;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	switch (kind) {
	case 0:
		h->fd = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);
		return h->fd >= 0 ? 0 : -1;
	case 1:
		h->fd = st_open_mapped(0, &win, &len);
		if (h->fd < 0)
			return -1;
		close(h->fd);	/* the mapping alone holds the file */
		h->fd = -1;
		h->map = (void *)(uintptr_t)win;
		h->len = len;
		return 0;
	case 2:
		return hold_shared(h);
	default:
		h->fd = open("/sys/kernel/debug/npu_sim/npu_sim0/allocations", O_RDONLY | O_CLOEXEC);
		return h->fd >= 0 ? 0 : -1;
	}
}

static void release_hold(struct hold *h)
{
	int st;

	if (h->fd >= 0)
		close(h->fd);
	if (h->map)
		munmap(h->map, h->len);
	if (h->imp > 0) {
		close(h->imp_cmd);
		waitpid(h->imp, &st, 0);
	}
}

int main(void)
{
	unsigned long cycles = st_env("NPU_SIM_CYCLES", 5, 100), c, refused = 0;
	struct st_base base;
	double t0 = st_now();

	setvbuf(stdout, NULL, _IOLBF, 0);
	st_base_take(&base);
	for (c = 0; c < cycles; c++) {
		int kind = (int)(c % 4), rc;
		struct hold h;

		rc = st_unload();
		st_check(rc == 0, "cycle %lu: unload: %s", c, strerror(rc));
		rc = st_load("");
		st_check(rc == 0, "cycle %lu: load: %s", c, strerror(rc));
		if (rc)
			break;
		rc = run_child(use_device);
		st_check(rc == 0, "cycle %lu: use of the device: step %d", c, rc);
		rc = take_hold(kind, &h);
		st_check(rc == 0, "cycle %lu: hold the module with %s (%d)", c, holds[kind], rc);
		if (rc == 0) {
			rc = st_unload();
			st_check(rc == EAGAIN, "cycle %lu: rmmod with %s: %s, want EAGAIN", c, holds[kind],
				 strerror(rc));
			refused += rc == EAGAIN;
		}
		release_hold(&h);
	}
	/* the last holder is gone: unloading works, then the defaults again */
	st_check(st_unload() == 0, "unload after the last cycle");
	st_check(st_load("") == 0, "load with the defaults");
	printf("stress_cycle: %lu cycles, %lu refused unloads, %.1f s\n", c, refused, st_now() - t0);
	st_base_check(&base, "after the cycles");
	return st_summary("stress_cycle");
}
