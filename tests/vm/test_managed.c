// SPDX-License-Identifier: GPL-2.0
/*
 * Managed (UVM) memory (docs/design.md 4.6, seed aclrtMemManagedAdviseType):
 * allocation rounding, host access through the pointer in strict mode,
 * device accesses (the test-only MANAGED_TOUCH ioctl and copies through the
 * API), migration counters after each step from debugfs "managed",
 * READ_MOSTLY duplication, PREFERRED_LOCATION conflicts and pre-population,
 * prefetch on a stream in order with other work, aclrtMemManagedGetAttr(s),
 * bad input to the raw ioctls, free and kill -9.
 */
#include "vmtest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define MANAGED_PATH "/sys/kernel/debug/npu_sim/npu_sim0/managed"
#define HOLD_PATH "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"

struct mrow {
	unsigned long long id, va, size, blocks, res_host, res_dev, res_both, dev_bytes, rm;
	char pref[8], acc[8];
	unsigned long long cpu, dev, h2d, d2h, dup_c, dup_i;
	int pid;
};

/* The debugfs row of the managed range at @va; 0 if found. */
static int mrow_find(uint64_t va, struct mrow *r)
{
	FILE *f = fopen(MANAGED_PATH, "r");
	char line[512];
	int found = -1;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "id pid va size blocks res_host res_dev res_both dev_bytes read_mostly "
			 "preferred accessed_by cpu_faults dev_faults h2d d2h dup_creates dup_invalidations\n");
	while (fgets(line, sizeof(line), f)) {
		struct mrow t;

		ck_assert_int_eq(sscanf(line, "%llu %d %llx %llu %llu %llu %llu %llu %llu %llu %7s %7s "
					"%llu %llu %llu %llu %llu %llu",
					&t.id, &t.pid, &t.va, &t.size, &t.blocks, &t.res_host, &t.res_dev,
					&t.res_both, &t.dev_bytes, &t.rm, t.pref, t.acc, &t.cpu, &t.dev,
					&t.h2d, &t.d2h, &t.dup_c, &t.dup_i), 18);
		if (t.va == va) {
			*r = t;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static long mrows_of(pid_t pid)
{
	FILE *f = fopen(MANAGED_PATH, "r");
	char line[512];
	long n = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long id;
		int p;

		if (sscanf(line, "%llu %d", &id, &p) == 2 && p == pid)
			n++;
	}
	fclose(f);
	return n;
}

static struct mrow row(const volatile void *p)
{
	struct mrow r;

	ck_assert_int_eq(mrow_find((uintptr_t)p, &r), 0);
	return r;
}

/* Counters of the range: cpu_faults dev_faults h2d d2h dup_creates dup_invalidations. */
#define ck_counts(p, c, d, hd, dh, dc, di) do {				\
		struct mrow r_ = row(p);					\
		ck_assert_uint_eq(r_.cpu, c);					\
		ck_assert_uint_eq(r_.dev, d);					\
		ck_assert_uint_eq(r_.h2d, hd);					\
		ck_assert_uint_eq(r_.d2h, dh);					\
		ck_assert_uint_eq(r_.dup_c, dc);				\
		ck_assert_uint_eq(r_.dup_i, di);				\
	} while (0)

/* The library's descriptor of /dev/npu_sim0 (for the test-only ioctl). */
static int dev_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fd = -1;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[300], target[64];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, "/dev/npu_sim0") == 0) {
			fd = atoi(e->d_name);
			break;
		}
	}
	closedir(d);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static int touch(void *p, uint64_t size, int write)
{
	struct npu_sim_managed_touch t;

	memset(&t, 0, sizeof(t));
	t.va = (uintptr_t)p;
	t.size = size;
	t.flags = write ? NPU_SIM_TOUCH_WRITE : 0;
	return ioctl(dev_fd(), NPU_SIM_IOCTL_MANAGED_TOUCH, &t) ? -errno : 0;
}

static size_t hbm_free(void)
{
	size_t f, t;

	vm_hbm_info(&f, &t);
	return f;
}

static void *managed(uint64_t size)
{
	void *p = NULL;

	ck_assert_int_eq(aclrtMemAllocManaged(&p, size, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % (2 * MiB), 0);
	return p;
}

static aclError advise(void *p, uint64_t size, aclrtMemManagedAdviseType a, int type, int id)
{
	aclrtMemManagedLocation loc = { .type = (aclrtMemManagedLocationType)type, .id = id };

	return aclrtMemManagedAdvise(p, size, a, loc);
}

#define DEV ACL_MEM_LOCATIONTYPE_DEVICE
#define HOST ACL_MEM_LOCATIONTYPE_HOST

START_TEST(test_alloc_rounding_and_errors)
{
	size_t f0 = hbm_free();
	void *p = NULL;
	struct mrow r;

	ck_assert_int_eq(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemAllocManaged(&p, 4096, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemAllocManaged(&p, 4096, 2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemAllocManaged(NULL, 4096, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemAllocManaged(&p, (3ULL << 40) + 1, ACL_RT_MEM_ATTACH_GLOBAL),
			 ACL_ERROR_RT_PARAM_INVALID);

	p = managed(3 * MiB);
	r = row(p);
	ck_assert_int_eq(r.pid, getpid());
	ck_assert_uint_eq(r.size, 4 * MiB);
	ck_assert_uint_eq(r.blocks, 2);
	ck_assert_uint_eq(r.res_host + r.res_dev + r.res_both + r.dev_bytes + r.rm, 0);
	ck_assert_str_eq(r.pref, "-");
	ck_assert_str_eq(r.acc, "-");
	ck_counts(p, 0, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(hbm_free(), f0);	/* no device memory yet */
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(mrow_find((uintptr_t)p, &r), -1);
	ck_assert_int_eq(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

START_TEST(test_host_access_strict)
{
	long long f0 = vm_dbg_stat(0, "host_access_faults");
	unsigned char *p = managed(4 * MiB);

	ck_assert_uint_eq(p[0], 0);		/* zeroed; read fault on block 0 */
	ck_counts(p, 1, 0, 0, 0, 0, 0);
	memset(p, 0x5a, 4 * MiB);		/* write fault on block 1 only */
	ck_counts(p, 2, 0, 0, 0, 0, 0);
	for (size_t i = 0; i < 4 * MiB; i += 4096)
		ck_assert_uint_eq(p[i], 0x5a);
	ck_counts(p, 2, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(row(p).res_host, 2);
	ck_assert_int_eq(vm_dbg_stat(0, "host_access_faults"), f0);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_device_touch_migrates)
{
	size_t f0 = hbm_free();
	unsigned char *p = managed(2 * MiB);

	memset(p, 0x11, 2 * MiB);
	ck_counts(p, 1, 0, 0, 0, 0, 0);
	ck_assert_int_eq(touch(p, 1, 0), 0);
	ck_counts(p, 1, 1, 1, 0, 0, 0);
	ck_assert_uint_eq(row(p).res_dev, 1);
	ck_assert_uint_eq(row(p).dev_bytes, 2 * MiB);
	ck_assert_uint_eq(hbm_free(), f0 - 2 * MiB);
	ck_assert_int_eq(touch(p, 2 * MiB, 1), 0);	/* mapped: no new fault */
	ck_counts(p, 1, 1, 1, 0, 0, 0);
	ck_assert_uint_eq(p[4095], 0x11);		/* back to the host */
	ck_counts(p, 2, 1, 1, 1, 0, 0);
	ck_assert_uint_eq(row(p).res_host, 1);
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(touch(p, 4 * MiB, 0), -EINVAL);	/* past the range */
	ck_assert_int_eq(touch(p, 0, 0), -EINVAL);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_copies_are_device_accesses)
{
	size_t f0 = hbm_free();
	unsigned char *p = managed(2 * MiB);
	unsigned char buf[256], back[256];

	vm_fill(buf, sizeof(buf), 7);
	ck_assert_int_eq(aclrtMemcpy(p + 100, sizeof(buf), buf, sizeof(buf), ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	ck_counts(p, 0, 1, 0, 0, 0, 0);		/* first touch on the device */
	ck_assert_uint_eq(hbm_free(), f0 - 2 * MiB);
	ck_assert_int_eq(aclrtMemcpy(back, sizeof(back), p + 100, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_SUCCESS);
	ck_counts(p, 0, 1, 0, 0, 0, 0);
	ck_assert_int_eq(memcmp(back, buf, sizeof(buf)), 0);
	ck_assert_int_eq(memcmp(p + 100, buf, sizeof(buf)), 0);	/* host fault: d2h */
	ck_counts(p, 1, 1, 0, 1, 0, 0);
	ck_assert_int_eq(aclrtMemset(p, 2 * MiB, 0x33, 4096), ACL_SUCCESS);
	ck_counts(p, 1, 2, 1, 1, 0, 0);
	ck_assert_uint_eq(p[4095], 0x33);
	ck_counts(p, 2, 2, 1, 2, 0, 0);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_uint_eq(hbm_free(), f0);
}
END_TEST

/*
 * The bytes live in the copy the state says is valid: a device write lands
 * in the device copy (filled from the host pages when the block migrated),
 * the API reads it back from there, and a host fault copies it back before
 * the host sees the block.
 */
START_TEST(test_bytes_follow_the_valid_copy)
{
	const size_t sz = 4 * MiB;
	size_t f0 = hbm_free();
	volatile unsigned char *p = managed(sz);
	unsigned char *pat = malloc(sz), *back = malloc(sz), *h = malloc(MiB);
	void *d = NULL;

	ck_assert_ptr_nonnull(pat);
	ck_assert_ptr_nonnull(back);
	ck_assert_ptr_nonnull(h);
	vm_fill(pat, sz, 3);
	memcpy((void *)p, pat, sz);				/* host copy valid */
	ck_assert_uint_eq(row(p).res_host, 2);

	/* device write: block 0 migrates with its bytes, then 8 KiB change */
	ck_assert_int_eq(aclrtMemset((void *)(p + 4096), 8192, 0xa5, 8192), ACL_SUCCESS);
	memset(pat + 4096, 0xa5, 8192);
	ck_assert_uint_eq(row(p).res_dev, 1);
	ck_assert_uint_eq(row(p).res_host, 1);
	/* device read of both blocks: block 1 migrates too */
	memset(back, 0, sz);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_assert_uint_eq(row(p).res_dev, 2);
	ck_assert_uint_eq(row(p).dev_bytes, sz);
	ck_assert_uint_eq(hbm_free(), f0 - sz);

	/* device writes through H2D and D2D land in the device copies */
	vm_fill(h, MiB, 11);
	ck_assert_int_eq(aclrtMemcpy((void *)(p + 2 * MiB + 512 * 1024), MiB, h, MiB,
				     ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	memcpy(pat + 2 * MiB + 512 * 1024, h, MiB);
	ck_assert_int_eq(aclrtMalloc(&d, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(d, 2 * MiB, (void *)(p + 2 * MiB), 2 * MiB,
				     ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy((void *)(p + 100), 4096, (char *)d + 700 * 1024, 4096,
				     ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
	memcpy(pat + 100, pat + 2 * MiB + 700 * 1024, 4096);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_counts(p, 2, 2, 2, 0, 0, 0);

	/* host read: both blocks fault and come back with the device bytes */
	memcpy(back, (void *)p, sz);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_counts(p, 4, 2, 2, 2, 0, 0);
	ck_assert_uint_eq(row(p).res_host, 2);
	ck_assert_uint_eq(row(p).dev_bytes, 0);

	/* a device write that moves no byte still round-trips the block */
	ck_assert_int_eq(touch((void *)p, sz, 1), 0);
	ck_assert_uint_eq(row(p).res_dev, 2);
	ck_assert_int_eq(memcmp((void *)p, pat, sz), 0);
	ck_counts(p, 6, 4, 4, 4, 0, 0);

	/* host write, device read, host write again: no stale device bytes */
	memset((void *)p, 0x3c, 2 * MiB);
	memset(pat, 0x3c, 2 * MiB);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	p[5] = 0x42;
	pat[5] = 0x42;
	ck_assert_int_eq(aclrtMemcpy(back, 4096, (void *)p, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, 4096), 0);

	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	ck_assert_uint_eq(hbm_free(), f0);
	free(h);
	free(back);
	free(pat);
}
END_TEST

/* READ_MOSTLY duplicates hold the same bytes on both sides. */
START_TEST(test_read_mostly_duplicates_hold_the_bytes)
{
	const size_t sz = 2 * MiB;
	volatile unsigned char *p = managed(sz);
	unsigned char *pat = malloc(sz), *back = malloc(sz);
	struct mrow r;

	ck_assert_ptr_nonnull(pat);
	ck_assert_ptr_nonnull(back);
	vm_fill(pat, sz, 5);
	memcpy((void *)p, pat, sz);
	ck_assert_int_eq(advise((void *)p, sz, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);

	/* host copy first: the device duplicate is filled from it */
	ck_assert_int_eq(touch((void *)p, sz, 0), 0);
	ck_assert_uint_eq(row(p).res_both, 1);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_assert_int_eq(memcmp((void *)p, pat, sz), 0);
	ck_assert_uint_eq(row(p).res_both, 1);

	/* keep the device copy: it has the bytes, and they come back */
	ck_assert_int_eq(advise((void *)p, sz, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, DEV, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row(p).res_dev, 1);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);

	/* device copy first: a device write, then the host duplicate */
	ck_assert_int_eq(aclrtMemset((void *)(p + 100), 1000, 0x77, 1000), ACL_SUCCESS);
	memset(pat + 100, 0x77, 1000);
	ck_assert_int_eq(advise((void *)p, sz, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row(p).res_both, 1);
	r = row(p);
	memcpy(back, (void *)p, sz);			/* host read of the duplicate */
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_assert_uint_eq(row(p).d2h, r.d2h);		/* no migration */
	ck_assert_uint_eq(row(p).res_both, 1);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);

	/* a host write drops the device duplicate; the device sees the write */
	p[9] = 0x99;
	pat[9] = 0x99;
	ck_assert_uint_eq(row(p).res_host, 1);
	ck_assert_int_eq(aclrtMemcpy(back, sz, (void *)p, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_int_eq(memcmp(back, pat, sz), 0);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	free(back);
	free(pat);
}
END_TEST

START_TEST(test_read_mostly)
{
	size_t f0 = hbm_free();
	volatile unsigned char *p = managed(2 * MiB);

	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 99, 99), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).rm, 1);
	ck_assert_uint_eq(p[0], 0);				/* host first: no copy */
	ck_counts(p, 1, 0, 0, 0, 0, 0);
	ck_assert_int_eq(touch((void *)p, 2 * MiB, 0), 0);	/* device read: duplicate */
	ck_counts(p, 1, 1, 0, 0, 1, 0);
	ck_assert_uint_eq(row((void *)p).res_both, 1);
	ck_assert_uint_eq(hbm_free(), f0 - 2 * MiB);
	for (int i = 0; i < 3; i++) {				/* no more faults */
		ck_assert_uint_eq(p[i * 4096], 0);
		ck_assert_int_eq(touch((void *)p, 2 * MiB, 0), 0);
	}
	ck_counts(p, 1, 1, 0, 0, 1, 0);
	p[10] = 1;						/* write: invalidate */
	ck_counts(p, 2, 1, 0, 0, 1, 1);
	ck_assert_uint_eq(row((void *)p).rm, 0);
	ck_assert_uint_eq(row((void *)p).res_host, 1);
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(touch((void *)p, 1, 0), 0);		/* plain migration again */
	ck_counts(p, 2, 2, 1, 0, 1, 1);

	/* device first, then host read: host copy; device write invalidates it */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_both, 1);		/* read-only host copy made */
	ck_counts(p, 2, 2, 1, 0, 2, 1);
	ck_assert_uint_eq(p[10], 1);
	ck_counts(p, 3, 2, 1, 0, 2, 1);
	ck_assert_int_eq(touch((void *)p, 1, 1), 0);		/* write to a read-only copy */
	ck_counts(p, 3, 3, 1, 0, 2, 2);
	ck_assert_uint_eq(row((void *)p).rm, 0);
	ck_assert_uint_eq(row((void *)p).res_dev, 1);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	ck_assert_uint_eq(hbm_free(), f0);
}
END_TEST

START_TEST(test_unset_read_mostly)
{
	volatile unsigned char *p = managed(2 * MiB);
	size_t f0 = hbm_free();

	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_uint_eq(p[0], 0);
	ck_assert_int_eq(touch((void *)p, 1, 0), 0);
	ck_assert_uint_eq(row((void *)p).res_both, 1);
	/* keep the device copy */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, DEV, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_dev, 1);
	ck_counts(p, 1, 1, 0, 0, 1, 1);
	ck_assert_uint_eq(p[0], 0);					/* migrates back */
	ck_counts(p, 2, 1, 0, 1, 1, 1);
	/* invalid location: the host copy stays */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_int_eq(touch((void *)p, 1, 0), 0);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_host, 1);
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_advise_errors_and_conflicts)
{
	volatile unsigned char *p = managed(4 * MiB);

	/* the ACL layer checks NULL and size 0 (100000); the runtime and the driver the rest (107000) */
	ck_assert_int_eq(advise((void *)p, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(advise((void *)p, MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, (aclrtMemManagedAdviseType)6, HOST, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(advise(NULL, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, 0, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DEV, 1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(advise((void *)p, 6 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0),
			 ACL_ERROR_RT_PARAM_INVALID);	/* past the range */

	p[0] = 1;					/* block 0 mapped on the host */
	ck_assert_int_eq(advise((void *)p, 4 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DEV, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(row((void *)p).res_dev, 0);	/* nothing changed */
	ck_assert_str_eq(row((void *)p).pref, "-");
	ck_assert_int_eq(touch((void *)(p + 2 * MiB), 1, 0), 0);	/* block 1 on the device */
	ck_assert_int_eq(advise((void *)(p + 2 * MiB), 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
				HOST, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* no conflict: host preferred where the host maps it */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, HOST, 0),
			 ACL_SUCCESS);
	ck_assert_str_eq(row((void *)p).pref, "host");
	/* read-mostly: no conflict, a read-only device copy */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DEV, 0),
			 ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_both, 1);
	ck_assert_int_eq(advise((void *)p, 4 * MiB, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 0, 0),
			 ACL_SUCCESS);
	ck_assert_str_eq(row((void *)p).pref, "-");
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_preferred_accessed_by_prepopulate)
{
	size_t f0 = hbm_free();
	volatile unsigned char *p = managed(4 * MiB);

	ck_assert_int_eq(advise((void *)p, 4 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DEV, 0), ACL_SUCCESS);
	ck_assert_int_eq(advise((void *)p, 4 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, DEV, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_dev, 2);
	ck_assert_str_eq(row((void *)p).pref, "dev");
	ck_assert_str_eq(row((void *)p).acc, "dev");
	ck_assert_uint_eq(hbm_free(), f0 - 4 * MiB);	/* allocated up front */
	ck_assert_int_eq(touch((void *)p, 4 * MiB, 1), 0);
	ck_counts(p, 0, 0, 0, 0, 0, 0);			/* no fault on first access */
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	ck_assert_uint_eq(hbm_free(), f0);

	p = managed(2 * MiB);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, HOST, 0), ACL_SUCCESS);
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, HOST, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row((void *)p).res_host, 1);
	p[0] = 7;
	ck_assert_uint_eq(p[2 * MiB - 1], 0);
	ck_counts(p, 0, 0, 0, 0, 0, 0);			/* mapped read-write up front */
	ck_assert_int_eq(advise((void *)p, 2 * MiB, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, HOST, 0), ACL_SUCCESS);
	ck_assert_str_eq(row((void *)p).acc, "-");
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
}
END_TEST

START_TEST(test_prefetch_in_stream_order)
{
	size_t f0 = hbm_free();
	volatile unsigned char *p = managed(4 * MiB);
	aclrtMemManagedLocation dev = { .type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0 };
	aclrtMemManagedLocation host = { .type = ACL_MEM_LOCATIONTYPE_HOST, .id = 0 };
	aclrtStream s = NULL;
	aclrtEvent e = NULL;
	void *d = NULL;
	aclrtEventRecordedStatus st;

	memset((void *)p, 0x42, 4 * MiB);
	ck_counts(p, 2, 0, 0, 0, 0, 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
	f0 = hbm_free();
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync((void *)p, 4 * MiB, dev, 1, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync((void *)p, MiB, dev, 0, s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync(d, 2 * MiB, dev, 0, s), ACL_ERROR_RT_PARAM_INVALID);

	ck_assert_int_eq(vm_write_str(HOLD_PATH, "1"), 0);
	ck_assert_int_eq(aclrtMemsetAsync(d, 2 * MiB, 1, 2 * MiB, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemManagedPrefetchAsync((void *)p, 4 * MiB, dev, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_counts(p, 2, 0, 0, 0, 0, 0);			/* queued, not run */
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(vm_write_str(HOLD_PATH, "0"), 0);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	ck_counts(p, 2, 0, 2, 0, 0, 0);
	ck_assert_uint_eq(row((void *)p).res_dev, 2);
	ck_assert_uint_eq(hbm_free(), f0 - 4 * MiB);
	ck_assert_int_eq(touch((void *)p, 4 * MiB, 0), 0);
	ck_counts(p, 2, 0, 2, 0, 0, 0);			/* prefetched: no device fault */

	ck_assert_int_eq(aclrtMemManagedPrefetchAsync((void *)p, 2 * MiB, host, 0, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_counts(p, 2, 0, 2, 1, 0, 0);
	ck_assert_uint_eq(row((void *)p).res_host, 1);
	ck_assert_uint_eq(p[0], 0x42);
	ck_assert_uint_eq(p[2 * MiB], 0x42);
	ck_counts(p, 4, 0, 2, 2, 0, 0);
	ck_assert_uint_eq(hbm_free(), f0);		/* both blocks back on the host */
	ck_assert_int_eq(aclrtFree((void *)p), ACL_SUCCESS);
	ck_assert_uint_eq(hbm_free(), f0);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

START_TEST(test_get_attr)
{
	void *p = managed(4 * MiB);
	aclrtMemManagedLocation l[2], one;
	int32_t v = -5;
	aclrtMemManagedRangeAttribute attrs[2] = { ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
						   ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE };
	int32_t rm = -1, type = -1;
	void *data[2] = { &rm, &type };
	size_t sizes[2] = { 4, 4 };

	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 4 * MiB, &v, 4),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(advise(p, 4 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, 0, 0), ACL_SUCCESS);
	ck_assert_int_eq(advise(p, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DEV, 0), ACL_SUCCESS);
	ck_assert_int_eq(advise(p, 4 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, DEV, 0), ACL_SUCCESS);
	ck_assert_uint_eq(row(p).res_dev, 1);		/* block 0: preferred = accessed-by */

	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 4 * MiB, &v, 4),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 4 * MiB,
						&one, sizeof(one)), ACL_SUCCESS);
	ck_assert_int_eq(one.type, ACL_MEM_LOCATIONTYPE_INVALID);	/* blocks differ */
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 2 * MiB,
						&one, sizeof(one)), ACL_SUCCESS);
	ck_assert_int_eq(one.type, ACL_MEM_LOCATIONTYPE_DEVICE);
	ck_assert_int_eq(one.id, 0);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 1, &v, 4),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_MEM_LOCATIONTYPE_DEVICE);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 4 * MiB, l, sizeof(l)),
			 ACL_SUCCESS);
	ck_assert_int_eq(l[0].type, ACL_MEM_LOCATIONTYPE_DEVICE);
	ck_assert_int_eq(l[1].type, ACL_MEM_LOCATIONTYPE_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p,
						4 * MiB, &v, 4), ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_MEM_LOCATIONTYPE_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttrs(attrs, 2, p, 2 * MiB, data, sizes), ACL_SUCCESS);
	ck_assert_int_eq(rm, 1);
	ck_assert_int_eq(type, ACL_MEM_LOCATIONTYPE_DEVICE);

	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 4 * MiB, &v, 2),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)9, p, 4 * MiB, &v, 4),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 4 * MiB, l, 12),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 6 * MiB, &v, 4),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, NULL, 4, &v, 4),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

static int raw(unsigned long cmd, void *arg)
{
	return ioctl(dev_fd(), cmd, arg) ? -errno : 0;
}

START_TEST(test_raw_bad_input)
{
	struct npu_sim_managed_alloc a = { .size = 2 * MiB };
	struct npu_sim_managed_advise adv;
	struct npu_sim_managed_touch t;
	struct npu_sim_managed_query q;
	void *p = managed(2 * MiB);

	a.flags = 1;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ALLOC, &a), -EINVAL);
	a.flags = 0;
	a.pad = 1;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ALLOC, &a), -EINVAL);
	a.pad = 0;
	a.size = (3ULL << 40) + 1;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ALLOC, &a), -EINVAL);

	memset(&adv, 0, sizeof(adv));
	adv.va = (uintptr_t)p;
	adv.size = 2 * MiB;
	adv.advise = NPU_SIM_ADVISE_SET_PREFERRED;
	adv.loc = NPU_SIM_MLOC_DEVICE;
	adv.reserved = 1;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ADVISE, &adv), -EINVAL);
	adv.reserved = 0;
	adv.loc_id = 1;					/* not this device */
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ADVISE, &adv), -EINVAL);
	adv.loc_id = 0;
	adv.advise = 7;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ADVISE, &adv), -EINVAL);
	adv.advise = NPU_SIM_ADVISE_SET_PREFERRED;
	adv.loc = 3;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_ADVISE, &adv), -EINVAL);

	memset(&t, 0, sizeof(t));
	t.va = (uintptr_t)p;
	t.size = 1;
	t.flags = 2;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_TOUCH, &t), -EINVAL);

	memset(&q, 0, sizeof(q));
	q.va = (uintptr_t)p;
	q.size = 1;
	q.reserved = 1;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_QUERY, &q), -EINVAL);
	q.reserved = 0;
	ck_assert_int_eq(raw(NPU_SIM_IOCTL_MANAGED_QUERY, &q), 0);
	ck_counts(p, 0, 0, 0, 0, 0, 0);		/* nothing happened */
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

static int child_managed(void *arg, int cmd, int rep)
{
	aclrtMemManagedLocation dev = { .type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0 };
	unsigned char *p = NULL;
	uint64_t c;

	(void)arg;
	if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
		return 1;
	if (aclrtMemAllocManaged((void **)&p, 8 * MiB, ACL_RT_MEM_ATTACH_GLOBAL) != ACL_SUCCESS)
		return 2;
	memset(p, 1, 8 * MiB);
	if (aclrtMemManagedAdvise(p, 4 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev) != ACL_SUCCESS ||
	    aclrtMemcpy(p + 4 * MiB, 16, p, 16, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS)
		return 3;
	if (vm_put(rep, 1) || vm_get(cmd, &c))
		return 4;
	_exit(0);	/* no free */
}

START_TEST(test_kill_leaves_nothing)
{
	for (int kill9 = 0; kill9 < 2; kill9++) {
		struct vm_snap snap;
		struct vm_child c;
		size_t f0 = hbm_free();

		vm_snap_take(0, &snap);
		vm_child_start(&c, child_managed, NULL);
		ck_assert_uint_eq(vm_child_get(&c), 1);
		ck_assert_int_eq(mrows_of(c.pid), 1);
		ck_assert_uint_eq(hbm_free(), f0 - 4 * MiB);	/* dup + migrated block */
		if (kill9) {
			kill(c.pid, SIGKILL);
			ck_assert(WIFSIGNALED(vm_child_wait(&c)));
		} else {
			vm_child_put(&c, 1);
			vm_child_wait_ok(&c);
		}
		ck_assert_int_eq(mrows_of(c.pid), 0);
		ck_assert_uint_eq(hbm_free(), f0);
		vm_snap_assert_same(0, &snap);
	}
}
END_TEST

#define TEST_HOOKS "/sys/module/npu_sim/parameters/test_hooks"

static uint64_t caps(void)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_CAPABILITIES };

	ck_assert_int_eq(raw(NPU_SIM_IOCTL_GET_PARAM, &gp), 0);
	return gp.value;
}

/* MANAGED_TOUCH is a test hook: -ENOTTY and no capability bit unless on. */
START_TEST(test_touch_needs_test_hooks)
{
	void *p = managed(2 * MiB);

	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "0"), 0);
	ck_assert_uint_eq(caps() & NPU_SIM_CAP_TEST_HOOKS, 0);
	ck_assert_int_eq(touch(p, 2 * MiB, 1), -ENOTTY);
	ck_counts(p, 0, 0, 0, 0, 0, 0);		/* nothing happened */
	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "1"), 0);
	ck_assert_uint_eq(caps() & NPU_SIM_CAP_TEST_HOOKS, NPU_SIM_CAP_TEST_HOOKS);
	ck_assert_int_eq(touch(p, 2 * MiB, 1), 0);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

static void managed_setup(void)
{
	vm_acl_setup();
	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "1"), 0);
}

static void managed_teardown(void)
{
	ck_assert_int_eq(vm_write_str(TEST_HOOKS, "0"), 0);
	vm_acl_teardown();
}

static Suite *managed_suite(void)
{
	Suite *s = suite_create("managed");
	TCase *tc = tcase_create("managed");

	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_checked_fixture(tc, managed_setup, managed_teardown);
	tcase_add_test(tc, test_touch_needs_test_hooks);
	tcase_add_test(tc, test_alloc_rounding_and_errors);
	tcase_add_test(tc, test_host_access_strict);
	tcase_add_test(tc, test_device_touch_migrates);
	tcase_add_test(tc, test_copies_are_device_accesses);
	tcase_add_test(tc, test_bytes_follow_the_valid_copy);
	tcase_add_test(tc, test_read_mostly_duplicates_hold_the_bytes);
	tcase_add_test(tc, test_read_mostly);
	tcase_add_test(tc, test_unset_read_mostly);
	tcase_add_test(tc, test_advise_errors_and_conflicts);
	tcase_add_test(tc, test_preferred_accessed_by_prepopulate);
	tcase_add_test(tc, test_prefetch_in_stream_order);
	tcase_add_test(tc, test_get_attr);
	tcase_add_test(tc, test_raw_bad_input);
	tcase_add_test(tc, test_kill_leaves_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(managed_suite());
}
