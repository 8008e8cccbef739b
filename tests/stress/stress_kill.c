// SPDX-License-Identifier: GPL-2.0
/*
 * SIGKILL at random points: each round forks a worker (its own process
 * group) that runs seeded random loops of allocation, copy, VMM map,
 * IPC export/import (with a partner process of its own exporting to it),
 * managed memory and streams with queued work, then kills the whole group
 * after a random delay and reaps it.  A kill that a driver wait does not
 * end hangs the test (the runner's timeout catches it).  After all rounds:
 * the after-checks of stress.h (nothing charged, no pool page held, no
 * context, kernel log clean).
 *
 * Rounds: NPU_SIM_KILLS (20; 100 with NPU_SIM_STRESS=1); the seed is
 * printed and NPU_SIM_FUZZ_SEED reproduces the sequence of operations.
 */
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

#define KEYLEN 65

/* Partner: exports allocations to anyone and writes the keys to @wfd. */
static int partner(uint64_t seed, int wfd)
{
	struct st_rng r;
	char key[KEYLEN];

	st_rng_init(&r, seed ^ 0xabcdef);
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	for (;;) {
		void *p = NULL;
		size_t n = 4096 + st_below(&r, 4 * MiB);

		if (aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
			continue;
		(void)aclrtMemset(p, n, 0x33, n);
		if (aclrtIpcMemGetExportKey(p, n, key, sizeof(key), ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) ==
		    ACL_SUCCESS) {
			if (write(wfd, key, KEYLEN) != KEYLEN)
				return 2;
		}
		if (st_below(&r, 2))
			(void)aclrtFree(p);
	}
}

static void step(struct st_rng *r, int rfd, unsigned char *host)
{
	void *p = NULL, *q = NULL;
	size_t n = 1 + st_below(r, 8 * MiB);
	aclrtStream s = NULL;

	switch (st_below(r, 6)) {
	case 0:	/* alloc, copy both ways, free (or keep) */
		if (aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
			(void)aclrtMemcpy(p, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
			(void)aclrtMemcpy(host, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST);
			if (st_below(r, 4))
				(void)aclrtFree(p);
		}
		break;
	case 1: {	/* VMM: reserve, physical, map, maybe unmap */
		aclrtPhysicalMemProp prop;
		aclrtDrvMemHandle h;

		memset(&prop, 0, sizeof(prop));
		prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
		prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
		prop.memAttr = st_below(r, 2) ? ACL_MEM_NORMAL : ACL_HBM_MEM_HUGE;
		prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		if (aclrtReserveMemAddress(&p, 4 * MiB, 0, NULL, 0) != ACL_SUCCESS)
			break;
		if (aclrtMallocPhysical(&h, 2 * MiB, &prop, 0) == ACL_SUCCESS &&
		    aclrtMapMem(p, 2 * MiB, 0, h, 0) == ACL_SUCCESS) {
			(void)aclrtMemcpy(p, 2 * MiB, host, 2 * MiB, ACL_MEMCPY_HOST_TO_DEVICE);
			if (st_below(r, 2)) {
				(void)aclrtUnmapMem(p);
				(void)aclrtFreePhysical(h);
				(void)aclrtReleaseMemAddress(p);
			}
		}
		break;
	}
	case 2: {	/* import the partner's memory */
		char key[KEYLEN];

		if (read(rfd, key, KEYLEN) == KEYLEN &&
		    aclrtIpcMemImportByKey(&q, key, 0) == ACL_SUCCESS) {
			(void)aclrtMemcpy(host, 4096, q, 4096, ACL_MEMCPY_DEVICE_TO_HOST);
			if (st_below(r, 2))
				(void)aclrtIpcMemClose(key);
		}
		break;
	}
	case 3:	/* managed memory, touched from both sides */
		if (aclrtMemAllocManaged(&p, n, ACL_RT_MEM_ATTACH_GLOBAL) == ACL_SUCCESS) {
			memset(p, 0x11, n < 65536 ? n : 65536);
			(void)aclrtMemcpy(host, 4096 < n ? 4096 : n, p, 4096 < n ? 4096 : n,
					  ACL_MEMCPY_DEVICE_TO_HOST);
			if (st_below(r, 2))
				(void)aclrtFree(p);
		}
		break;
	case 4:	/* a stream with a queue of copies, synchronized or not */
		if (aclrtCreateStream(&s) != ACL_SUCCESS)
			break;
		if (aclrtMalloc(&p, 8 * MiB, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
		    aclrtMalloc(&q, 8 * MiB, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS) {
			for (int i = 0; i < 16; i++)
				(void)aclrtMemcpyAsync(q, 8 * MiB, p, 8 * MiB, ACL_MEMCPY_DEVICE_TO_DEVICE, s);
			if (st_below(r, 2))
				(void)aclrtSynchronizeStream(s);
		}
		if (st_below(r, 2))
			(void)aclrtDestroyStreamForce(s);
		break;
	default:	/* export own memory to nobody in particular */
		if (aclrtMalloc(&p, 65536, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS) {
			char key[KEYLEN];

			(void)aclrtIpcMemGetExportKey(p, 65536, key, sizeof(key), 0);
		}
		break;
	}
}

static int worker(uint64_t seed)
{
	unsigned char *host = malloc(8 * MiB);
	struct st_rng r;
	int pfd[2];
	pid_t pp;

	if (host == NULL || pipe2(pfd, O_CLOEXEC))
		return 1;
	memset(host, 0x42, 8 * MiB);
	fflush(NULL);
	pp = fork();
	if (pp == 0) {
		close(pfd[0]);
		_exit(partner(seed, pfd[1]));
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	st_rng_init(&r, seed);
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 2;
	for (;;)
		step(&r, pfd[0], host);
}

int main(void)
{
	uint64_t seed = st_seed("stress_kill");
	unsigned long kills = st_env("NPU_SIM_KILLS", 20, 100), k;
	struct st_rng r;
	struct st_base base;
	double t0 = st_now(), worst = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	st_base_take(&base);
	st_rng_init(&r, seed);
	/* the partners are grandchildren: reap them here when their parent dies */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (k = 0; k < kills; k++) {
		uint64_t wseed = st_rand(&r);
		unsigned int delay = (unsigned int)st_below(&r, 400000);
		double tk;
		pid_t pid, w;
		int st;

		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			setpgid(0, 0);
			_exit(worker(wseed));
		}
		setpgid(pid, pid);
		usleep(delay);
		tk = st_now();
		st_check(kill(-pid, SIGKILL) == 0, "kill round %lu", k);
		st_check(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
			 "round %lu: worker killed by SIGKILL (status 0x%x)", k, st);
		while ((w = waitpid(-1, &st, 0)) > 0)	/* the partner */
			;
		if (st_now() - tk > worst)
			worst = st_now() - tk;
	}
	printf("stress_kill: %lu kills in %.1f s, slowest kill-to-reap %.2f s\n", kills, st_now() - t0, worst);
	st_base_check(&base, "after the kills");
	return st_summary("stress_kill");
}
