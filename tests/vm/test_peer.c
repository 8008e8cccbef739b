// SPDX-License-Identifier: GPL-2.0
/*
 * Several devices, each test run with the module loaded for 2 and for 4
 * devices: device count and ids, per-thread current device, the peer-access
 * calls and their codes, cross-device D2D copies (sync, async on a stream,
 * 2d) refused without peer access in that direction and done with it,
 * ranges checked before any byte moves, exact per-pair counters in debugfs
 * "peer_copies", every pair of page kinds (normal / 2 MiB / 1 GiB, P2P or
 * not), peer state per process, shareable-handle import on another device,
 * and 1 GiB pages (pool pages taken and given back exactly, 207001 when the
 * pool is empty).
 */
#include "vmtest.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>

#define DBG "/sys/kernel/debug/npu_sim"
#define SENTINEL ((void *)0x5a5a)

static const int ndevs[] = { 2, 4 };

/* Module with n devices, aclInit, every device set, device 0 current. */
static void setup_devices(int n)
{
	char params[32];
	uint32_t count = 0;

	snprintf(params, sizeof(params), "num_devices=%d", n);
	vm_mod_reload(params);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceCount(&count), ACL_SUCCESS);
	ck_assert_uint_eq(count, (uint32_t)n);
	for (int i = n - 1; i >= 0; i--)
		ck_assert_int_eq(aclrtSetDevice(i), ACL_SUCCESS);
}

static void teardown(void)
{
	aclFinalize();
	vm_mod_ensure_default();
}

static void use(int dev)
{
	ck_assert_int_eq(aclrtSetDevice(dev), ACL_SUCCESS);
}

static char *read_file(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f != NULL, "open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Rows of debugfs npu_sim<dev>/peers after the header. */
static int peer_rows(int dev)
{
	char path[96];
	const char *s;
	int rows = -1;

	snprintf(path, sizeof(path), DBG "/npu_sim%d/peers", dev);
	s = read_file(path);
	ck_assert_msg(strncmp(s, "pid peer\n", 9) == 0, "peers header: %s", s);
	for (; *s; s++)
		rows += *s == '\n';
	return rows;
}

/* Whether npu_sim<dev>/peers has the row "pid peer". */
static int peer_row(int dev, pid_t pid, int peer)
{
	char path[96], row[48];

	snprintf(path, sizeof(path), DBG "/npu_sim%d/peers", dev);
	snprintf(row, sizeof(row), "\n%d %d\n", (int)pid, peer);
	return strstr(read_file(path), row) != NULL;
}

/* Expected per-pair counters, compared with debugfs peer_copies. */
struct counters {
	unsigned long long copies[4][4], bytes[4][4];
};

static void count(struct counters *c, int src, int dst, size_t bytes)
{
	c->copies[src][dst]++;
	c->bytes[src][dst] += bytes;
}

static void counters_expect(const struct counters *c, int n)
{
	char want[2048];
	size_t len = 0;

	len += snprintf(want + len, sizeof(want) - len, "src dst copies bytes\n");
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++)
			if (c->copies[s][d])
				len += snprintf(want + len, sizeof(want) - len, "%d %d %llu %llu\n", s, d,
						c->copies[s][d], c->bytes[s][d]);
	ck_assert_str_eq(read_file(DBG "/peer_copies"), want);
}

static void *dev_alloc(int dev, size_t size, aclrtMemMallocPolicy pol)
{
	void *p = NULL;

	use(dev);
	ck_assert_int_eq(aclrtMalloc(&p, size, pol), ACL_SUCCESS);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Fill n device bytes with the pattern of seed (host copy in *host). */
static void dev_fill(void *dev, size_t n, uint32_t seed)
{
	unsigned char *h = malloc(n);

	ck_assert_ptr_nonnull(h);
	vm_fill(h, n, seed);
	ck_assert_int_eq(aclrtMemcpy(dev, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
	free(h);
}

/* Assert n device bytes at dev equal the pattern of seed from offset off. */
#define dev_expect(dev, n, seed, off) dev_expect_at(__LINE__, dev, n, seed, off)
static void dev_expect_at(int line, const void *dev, size_t n, uint32_t seed, size_t off)
{
	size_t i;

	unsigned char *want = malloc(off + n), *got = malloc(n);

	ck_assert(want && got);
	vm_fill(want, off + n, seed);
	memset(got, 0xC3, n);
	ck_assert_int_eq(aclrtMemcpy(got, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	for (i = 0; i < n && got[i] == want[off + i]; i++)
		;
	ck_assert_msg(i == n, "line %d: device bytes differ from offset %zu of %zu", line, i, n);
	free(want);
	free(got);
}

static void msg_names_enable(void)
{
	const char *m = aclGetRecentErrMsg();

	ck_assert_ptr_nonnull(m);
	ck_assert_msg(strstr(m, "aclrtDeviceEnablePeerAccess") != NULL, "message: %s", m);
}

/* ---- device ids and the peer calls ----------------------------------- */

static void *thread_no_device(void *arg)
{
	intptr_t bad = 0;
	int32_t dev = -1;

	(void)arg;
	bad |= aclrtDeviceEnablePeerAccess(1, 0) != ACL_ERROR_RT_CONTEXT_NULL;
	bad |= (aclrtDeviceEnablePeerAccess(1, 2) != ACL_ERROR_FEATURE_UNSUPPORTED) << 1;
	bad |= (aclrtDeviceDisablePeerAccess(1) != ACL_ERROR_RT_CONTEXT_NULL) << 2;
	bad |= (aclrtGetDevice(&dev) != ACL_ERROR_RT_CONTEXT_NULL) << 3;
	/* this thread's current device does not move the main thread's */
	bad |= (aclrtSetDevice(1) != ACL_SUCCESS) << 4;
	bad |= (aclrtGetDevice(&dev) != ACL_SUCCESS || dev != 1) << 5;
	bad |= (aclrtResetDevice(1) != ACL_SUCCESS) << 6;
	return (void *)bad;
}

START_TEST(test_ids_and_calls)
{
	int n = ndevs[_i];
	int32_t can = 7, dev = -1;
	pthread_t t;
	void *bad;

	setup_devices(n);
	use(0);
	/* ids outside [0, count) */
	ck_assert_int_eq(aclrtSetDevice(n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDevice(n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDeviceForce(n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 0, n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, n, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_PARAM_INVALID);	/* the runtime's */
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(n, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(n), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(can, 7);
	/* same id first, then NULL */
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(NULL, n, n), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(can, 7);
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			if (a == b)
				continue;
			can = 7;
			ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, a, b), ACL_SUCCESS);
			ck_assert_int_eq(can, 1);
		}
	/* flags first, then self, then not enabled */
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(n, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(peer_rows(0), 0);
	/* enable (twice: idempotent), one direction, one disable takes it back */
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(n - 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(n - 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(peer_rows(0), 1);
	ck_assert(peer_row(0, getpid(), n - 1));
	for (int d = 1; d < n; d++)
		ck_assert_int_eq(peer_rows(d), 0);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(n - 1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(n - 1), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(peer_rows(0), 0);
	/* every pair, from every device */
	for (int a = 0; a < n; a++) {
		use(a);
		for (int b = 0; b < n; b++)
			if (b != a)
				ck_assert_int_eq(aclrtDeviceEnablePeerAccess(b, 0), ACL_SUCCESS);
		ck_assert_int_eq(peer_rows(a), n - 1);
	}
	/* per-thread current device; a thread without one */
	use(n - 1);
	ck_assert_int_eq(pthread_create(&t, NULL, thread_no_device, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &bad), 0);
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(aclrtGetDevice(&dev), ACL_SUCCESS);
	ck_assert_int_eq(dev, n - 1);
	/* Set/Reset are reference counted: the extra sets above keep it open */
	ck_assert_int_eq(aclrtResetDevice(n - 1), ACL_SUCCESS);
	ck_assert_int_eq(vm_dbg_contexts(n - 1), 1);
	ck_assert_int_eq(peer_rows(n - 1), n - 1);
}
END_TEST

/*
 * aclrtMemP2PMap: checks, and access from dstDevId afterwards: a copy that
 * device n - 1 issues from the mapped memory into its own is refused before
 * the map and carries the bytes after it.
 */
START_TEST(test_p2p_map)
{
	int n = ndevs[_i];
	char host[64];
	void *p, *q;

	setup_devices(n);
	q = dev_alloc(n - 1, 64 * KiB, ACL_MEM_MALLOC_NORMAL_ONLY);
	p = dev_alloc(0, 64 * KiB, ACL_MEM_MALLOC_NORMAL_ONLY_P2P);
	dev_fill(p, 64 * KiB, 259);
	use(n - 1);
	ck_assert_int_eq(aclrtMemcpy(q, 64 * KiB, p, 64 * KiB, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	use(0);
	ck_assert_int_eq(aclrtMemP2PMap(p, 4096, n - 1, 1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemP2PMap(NULL, 4096, n - 1, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemP2PMap(p, 0, n - 1, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemP2PMap(p, 4096, n, 0), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtMemP2PMap(host, sizeof(host), n - 1, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemP2PMap(p, 1 * MiB, n - 1, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(peer_rows(n - 1), 0);
	ck_assert_int_eq(aclrtMemP2PMap(p, 64 * KiB, 0, 0), ACL_SUCCESS);
	ck_assert_int_eq(peer_rows(0), 0);
	ck_assert_int_eq(aclrtMemP2PMap(p, 64 * KiB, n - 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemP2PMap(p, 4096, n - 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(peer_rows(n - 1), 1);
	ck_assert(peer_row(n - 1, getpid(), 0));
	ck_assert_int_eq(peer_rows(0), 0);
	use(n - 1);
	ck_assert_int_eq(aclrtMemcpy(q, 64 * KiB, p, 64 * KiB, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
	dev_expect(q, 64 * KiB, 259, 0);
	ck_assert_int_eq(aclrtFree(q), ACL_SUCCESS);
	use(0);
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
}
END_TEST

/* ---- cross-device copies ---------------------------------------------- */

/* Every ordered pair: refused both ways without access, refused when only
 * the other device has access, done when the issuing device has it. */
START_TEST(test_copy_sync_pairs)
{
	int n = ndevs[_i];
	struct counters c = { 0 };
	void *buf[4];
	size_t sz = 256 * KiB;

	setup_devices(n);
	for (int d = 0; d < n; d++) {
		buf[d] = dev_alloc(d, sz, ACL_MEM_MALLOC_NORMAL_ONLY);
		dev_fill(buf[d], sz, 100 + d);
	}
	for (int s = 0; s < n; s++) {
		for (int d = 0; d < n; d++) {
			size_t cnt = 4096 + 64 * (s * n + d) + 1;
			aclrtMemcpyKind kind = (s + d) % 2 ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_DEVICE;

			if (s == d)
				continue;
			dev_fill(buf[s], sz, 100 + s);
			dev_fill(buf[d], sz, 100 + d);
			/* no access anywhere: refused on either device */
			use(d);
			ck_assert_int_eq(aclrtMemcpy(buf[d], sz, buf[s], cnt, kind),
					 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			msg_names_enable();
			use(s);
			ck_assert_int_eq(aclrtMemcpy(buf[d], sz, buf[s], cnt, kind),
					 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			/* the other direction is enabled: still refused on s */
			use(d);
			ck_assert_int_eq(aclrtDeviceEnablePeerAccess(s, 0), ACL_SUCCESS);
			use(s);
			ck_assert_int_eq(aclrtMemcpy(buf[d], sz, buf[s], cnt, kind),
					 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			dev_expect(buf[d], sz, 100 + d, 0);
			/* overlapping the end of the source: nothing moves */
			use(d);
			ck_assert_int_eq(aclrtMemcpy(buf[d], 64 * MiB, (char *)buf[s] + sz - 100, 64 * MiB, kind),
					 ACL_ERROR_RT_PARAM_INVALID);
			ck_assert_int_eq(aclrtMemcpy((char *)buf[d] + sz - 100, 64 * MiB, buf[s], 64 * MiB, kind),
					 ACL_ERROR_RT_PARAM_INVALID);
			dev_expect(buf[d], sz, 100 + d, 0);
			counters_expect(&c, n);
			/* on d, which has access to s */
			ck_assert_int_eq(aclrtMemcpy((char *)buf[d] + 8191, sz, (char *)buf[s] + 4093, cnt, kind),
					 ACL_SUCCESS);
			count(&c, s, d, cnt);
			dev_expect((char *)buf[d] + 8191, cnt, 100 + s, 4093);
			dev_expect(buf[d], 8191, 100 + d, 0);
			counters_expect(&c, n);
			ck_assert_int_eq(aclrtDeviceDisablePeerAccess(s), ACL_SUCCESS);
			ck_assert_int_eq(aclrtMemcpy(buf[d], sz, buf[s], cnt, kind),
					 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			counters_expect(&c, n);
		}
	}
	/* a third device issues a copy between two others (access to both) */
	if (n == 4) {
		dev_fill(buf[0], sz, 100);
		use(2);
		ck_assert_int_eq(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemcpy(buf[1], sz, buf[0], sz, ACL_MEMCPY_DEVICE_TO_DEVICE),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		ck_assert_int_eq(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
		ck_assert_int_eq(aclrtMemcpy(buf[1], sz, buf[0], sz, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
		count(&c, 0, 1, sz);
		dev_expect(buf[1], sz, 100, 0);
		counters_expect(&c, n);
	}
	for (int d = 0; d < n; d++)
		ck_assert_int_eq(aclrtFree(buf[d]), ACL_SUCCESS);
}
END_TEST

/* Async on a stream of the issuing device, around the ring of devices. */
START_TEST(test_copy_async_ring)
{
	int n = ndevs[_i];
	struct counters c = { 0 };
	aclrtStream st[4];
	void *buf[4];
	size_t sz = 3 * MiB + 17;

	setup_devices(n);
	for (int d = 0; d < n; d++) {
		buf[d] = dev_alloc(d, sz, ACL_MEM_MALLOC_HUGE_FIRST);
		dev_fill(buf[d], sz, 200 + d);
		ck_assert_int_eq(aclrtCreateStream(&st[d]), ACL_SUCCESS);
	}
	for (int s = 0; s < n; s++) {
		int d = (s + 1) % n;

		/* d's stream, d without access to s: refused at the call */
		use(d);
		ck_assert_int_eq(aclrtMemcpyAsync(buf[d], sz, buf[s], sz, ACL_MEMCPY_DEVICE_TO_DEVICE, st[d]),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		msg_names_enable();
		use(s);
		ck_assert_int_eq(aclrtDeviceEnablePeerAccess(d, 0), ACL_SUCCESS);
		/* d's stream from s's context: the runtime's stream context check */
		ck_assert_int_eq(aclrtMemcpyAsync(buf[d], sz, buf[s], sz, ACL_MEMCPY_DEFAULT, st[d]),
				 ACL_ERROR_RT_STREAM_CONTEXT);
		/* s has access now, but the stream is d's, and d has none to s */
		use(d);
		ck_assert_int_eq(aclrtMemcpyAsync(buf[d], sz, buf[s], sz, ACL_MEMCPY_DEFAULT, st[d]),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		ck_assert_int_eq(aclrtSynchronizeStream(st[d]), ACL_SUCCESS);
		use(s);
		dev_expect(buf[d], sz, 200 + d, 0);
		counters_expect(&c, n);
		/* on s's stream: queued and done */
		ck_assert_int_eq(aclrtMemcpyAsync(buf[d], sz, buf[s], sz - 5, ACL_MEMCPY_DEFAULT, st[s]),
				 ACL_SUCCESS);
		ck_assert_int_eq(aclrtSynchronizeStream(st[s]), ACL_SUCCESS);
		count(&c, s, d, sz - 5);
		counters_expect(&c, n);
		dev_expect(buf[d], sz - 5, 200 + s, 0);
		dev_fill(buf[d], sz, 200 + d);
		/* a range past the end of the destination: refused at the call */
		ck_assert_int_eq(aclrtMemcpyAsync((char *)buf[d] + 4096, 64 * MiB, buf[s], 64 * MiB,
						  ACL_MEMCPY_DEVICE_TO_DEVICE, st[s]),
				 ACL_ERROR_RT_PARAM_INVALID);
		ck_assert_int_eq(aclrtSynchronizeStream(st[s]), ACL_SUCCESS);
		dev_expect(buf[d], sz, 200 + d, 0);
		counters_expect(&c, n);
		use(s);
		ck_assert_int_eq(aclrtDeviceDisablePeerAccess(d), ACL_SUCCESS);
	}
	for (int d = 0; d < n; d++) {
		use(d);	/* a stream is destroyed from its context */
		ck_assert_int_eq(aclrtDestroyStream(st[d]), ACL_SUCCESS);
		ck_assert_int_eq(aclrtFree(buf[d]), ACL_SUCCESS);
	}
}
END_TEST

/* 2d, sync and async: rows land at their pitch, gaps untouched. */
/*
 * Assert that the sz device bytes at dev are the pattern of bg with h rows
 * of w bytes at dpitch taken from the pattern of rows at spitch.
 */
static void expect_rows(const void *dev, size_t sz, uint32_t bg, size_t dpitch, uint32_t rows,
			size_t spitch, size_t w, size_t h)
{
	unsigned char *want = malloc(sz), *srch = malloc(sz), *got = malloc(sz);

	ck_assert(want && srch && got);
	vm_fill(want, sz, bg);
	vm_fill(srch, sz, rows);
	for (size_t r = 0; r < h; r++)
		memcpy(want + r * dpitch, srch + r * spitch, w);
	ck_assert_int_eq(aclrtMemcpy(got, sz, dev, sz, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_mem_eq(got, want, sz);
	free(want);
	free(srch);
	free(got);
}

START_TEST(test_copy_2d)
{
	int n = ndevs[_i];
	struct counters c = { 0 };
	const size_t w = 1000, sp = 1536, dp = 4096, h = 37;
	const size_t sz = dp * h;
	int s = n - 1, d = 0;
	aclrtStream st;
	void *src, *dst;

	setup_devices(n);
	src = dev_alloc(s, sz, ACL_MEM_MALLOC_HUGE_FIRST_P2P);
	dst = dev_alloc(d, sz, ACL_MEM_MALLOC_NORMAL_ONLY);
	dev_fill(src, sz, 301);
	dev_fill(dst, sz, 302);
	use(d);
	ck_assert_int_eq(aclrtCreateStream(&st), ACL_SUCCESS);
	/* the synchronous 2D copy is host<->device only (the runtime's rule) */
	ck_assert_int_eq(aclrtMemcpy2d(dst, dp, src, sp, w, h, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpy2dAsync(dst, dp, src, sp, w, h, ACL_MEMCPY_DEVICE_TO_DEVICE, st),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_names_enable();
	ck_assert_int_eq(aclrtMemcpy2dAsync(dst, dp, src, sp, w, h, ACL_MEMCPY_DEFAULT, st),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	use(s);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(d, 0), ACL_SUCCESS);
	use(d);
	ck_assert_int_eq(aclrtMemcpy2dAsync(dst, dp, src, sp, w, h, ACL_MEMCPY_DEVICE_TO_DEVICE, st),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	dev_expect(dst, sz, 302, 0);
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(s, 0), ACL_SUCCESS);
	/* last row past the end of the source: nothing moves */
	ck_assert_int_eq(aclrtMemcpy2dAsync(dst, dp, (char *)src + sz - 100, sp, w, h,
					    ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStream(st), ACL_SUCCESS);
	dev_expect(dst, sz, 302, 0);
	counters_expect(&c, n);
	ck_assert_int_eq(aclrtMemcpy2dAsync(dst, dp, src, sp, w, h, ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(st), ACL_SUCCESS);
	count(&c, s, d, w * h);
	counters_expect(&c, n);
	expect_rows(dst, sz, 302, dp, 301, sp, w, h);
	/* async on d's stream, other way round (d -> s rows) */
	dev_fill(dst, sz, 302);
	dev_fill(src, sz, 301);
	ck_assert_int_eq(aclrtMemcpy2dAsync(src, sp, dst, dp, w, h, ACL_MEMCPY_DEFAULT, st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(st), ACL_SUCCESS);
	count(&c, d, s, w * h);
	counters_expect(&c, n);
	expect_rows(src, sz, 301, sp, 302, dp, w, h);
	ck_assert_int_eq(aclrtDestroyStream(st), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(src), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(dst), ACL_SUCCESS);
}
END_TEST

/* ---- page kinds -------------------------------------------------------- */

struct kind {
	aclrtMemMallocPolicy pol;
	size_t size;
	int p2p;
};

/*
 * Between devices 0 and n-1: one buffer of each kind on each (the 1 GiB
 * one P2P on the second device only: the pool has 2 pages), a copy from
 * every kind to every kind both ways, bytes checked; debugfs flags,
 * pool pages taken and given back exactly.
 */
START_TEST(test_page_kinds)
{
	int n = ndevs[_i];
	const struct kind k[2][5] = {
		{ { ACL_MEM_MALLOC_NORMAL_ONLY, 256 * KiB, 0 }, { ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 256 * KiB, 1 },
		  { ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB, 0 }, { ACL_MEM_MALLOC_HUGE_ONLY_P2P, 2 * MiB, 1 },
		  { ACL_MEM_MALLOC_HUGE1G_ONLY, 1 * GiB, 0 } },
		{ { ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 256 * KiB, 1 }, { ACL_MEM_MALLOC_NORMAL_ONLY, 256 * KiB, 0 },
		  { ACL_MEM_MALLOC_HUGE_ONLY_P2P, 2 * MiB, 1 }, { ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB, 0 },
		  { ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 1 * GiB, 1 } },
	};
	const int devs[2] = { 0, n - 1 };
	const size_t cnt = 64 * KiB + 3;
	struct counters c = { 0 };
	long long free1g, free2m;
	void *b[2][5];

	vm_set_hp2m_pool(4);
	setup_devices(n);
	free1g = vm_hp1g_free();
	free2m = vm_hp2m_free();
	ck_assert_int_eq(free1g, 2);
	for (int side = 0; side < 2; side++) {
		use(devs[side]);
		for (int i = 0; i < 5; i++) {
			struct vm_alloc a;

			b[side][i] = NULL;
			ck_assert_int_eq(aclrtMallocAlign32(&b[side][i], k[side][i].size, k[side][i].pol),
					 ACL_SUCCESS);
			ck_assert(vm_dbg_alloc_find(devs[side], (uintptr_t)b[side][i], &a));
			ck_assert_str_eq(a.flags, k[side][i].p2p ? "p2p" : "-");
		}
	}
	ck_assert_int_eq(vm_hp1g_free(), free1g - 2);
	ck_assert_int_eq(vm_hp2m_free(), free2m - 4);
	for (int side = 0; side < 2; side++) {
		use(devs[side]);
		ck_assert_int_eq(aclrtDeviceEnablePeerAccess(devs[!side], 0), ACL_SUCCESS);
	}
	for (int dir = 0; dir < 2; dir++) {
		for (int i = 0; i < 5; i++) {
			for (int j = 0; j < 5; j++) {
				char *src = (char *)b[dir][i] + 4093, *dst = (char *)b[!dir][j] + 8191;
				uint32_t seed = 1000 + dir * 100 + i * 10 + j;

				dev_fill(b[dir][i], 128 * KiB, seed);
				use(devs[(i + j) % 2 ? dir : !dir]);	/* either end issues it */
				ck_assert_int_eq(aclrtMemcpy(dst, cnt, src, cnt, ACL_MEMCPY_DEVICE_TO_DEVICE),
						 ACL_SUCCESS);
				count(&c, devs[dir], devs[!dir], cnt);
				dev_expect(dst, cnt, seed, 4093);
			}
		}
	}
	counters_expect(&c, n);
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 5; i++)
			ck_assert_int_eq(aclrtFree(b[side][i]), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), free1g);
	ck_assert_int_eq(vm_hp2m_free(), free2m);
}
END_TEST

/* ---- 1 GiB pages ------------------------------------------------------- */

static aclrtPhysicalMemProp phys_prop(int attr, int dev)
{
	return vm_phys_prop(attr, ACL_MEM_LOCATION_TYPE_DEVICE, (uint32_t)dev);
}

/* Handles of this process on dev whose flags column is exactly flags. */
static int handles_with_flags(int dev, const char *flags)
{
	char path[96], head[24], tail[24];
	const char *s;
	int n = 0;

	snprintf(path, sizeof(path), DBG "/npu_sim%d/handles", dev);
	snprintf(head, sizeof(head), "%d ", (int)getpid());
	snprintf(tail, sizeof(tail), " %s\n", flags);
	for (s = read_file(path); (s = strchr(s, '\n')) != NULL;) {
		const char *end = strchr(++s, '\n');

		if (end && !strncmp(s, head, strlen(head)) &&
		    !strncmp(end + 1 - strlen(tail), tail, strlen(tail)))
			n++;
	}
	return n;
}

START_TEST(test_huge1g)
{
	int n = ndevs[_i];
	aclrtPhysicalMemProp pa = phys_prop(ACL_HBM_MEM_HUGE1G, n - 1);
	aclrtPhysicalMemProp pb = phys_prop(ACL_MEM_P2P_HUGE1G, 1);
	aclrtPhysicalMemProp pc = phys_prop(ACL_MEM_HUGE1G, 1);
	aclrtDrvMemHandle h = NULL, h2 = SENTINEL;
	long long free1g;
	struct vm_snap s;
	void *p = NULL, *q = SENTINEL;

	setup_devices(n);
	free1g = vm_hp1g_free();
	ck_assert_int_eq(free1g, 2);
	p = dev_alloc(0, 1 * GiB, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P);
	ck_assert_int_eq(vm_hp1g_free(), 1);
	use(n - 1);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 1 * GiB, &pa, 0), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), 0);
	/* the pool is empty: 207001, nothing changes */
	use(1);
	vm_snap_take(1, &s);
	ck_assert_int_eq(aclrtMalloc(&q, 1 * GiB, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(aclrtMalloc(&q, 1, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P), ACL_ERROR_RT_MEMORY_ALLOCATION);
	/* ACL_MEM_P2P_HUGE1G is an Atlas A3 attribute: refused on A2 first */
	ck_assert_int_eq(aclrtMallocPhysical(&h2, 1 * GiB, &pb, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMallocPhysical(&h2, 1 * GiB, &pc, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_eq(q, SENTINEL);
	ck_assert_ptr_eq(h2, SENTINEL);
	vm_snap_assert_same(1, &s);
	ck_assert_int_eq(vm_hp1g_free(), 0);
	ck_assert_int_eq(handles_with_flags(n - 1, "-"), 1);
	/* given back exactly, and taken again by ACL_MEM_HUGE1G */
	ck_assert_int_eq(aclrtFree(p), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), 1);
	ck_assert_int_eq(aclrtMallocPhysical(&h2, 1 * GiB, &pc, 0), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), 0);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(vm_hp1g_free(), 2);
	/* the P2P bit of physical attributes */
	pb = phys_prop(ACL_MEM_P2P_NORMAL, 1);
	pc = phys_prop(ACL_MEM_NORMAL, 1);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MiB, &pb, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocPhysical(&h2, 2 * MiB, &pc, 0), ACL_SUCCESS);
	ck_assert_int_eq(handles_with_flags(1, "p2p"), 1);
	ck_assert_int_eq(handles_with_flags(1, "-"), 1);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
}
END_TEST

/* ---- peer state per process ------------------------------------------- */

static int child_enable(void *arg, int cmd, int rep)
{
	uint64_t v;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (aclrtDeviceEnablePeerAccess(1, 0))
		return 2;
	if (vm_put(rep, 1))
		return 3;
	vm_get(cmd, &v);	/* until told, or killed */
	return 0;
}

START_TEST(test_per_process)
{
	int n = ndevs[_i];
	struct vm_child a, b;
	void *x, *y;
	int st;

	setup_devices(n);
	x = dev_alloc(0, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);
	y = dev_alloc(1, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);
	vm_child_start(&a, child_enable, NULL);
	vm_child_start(&b, child_enable, NULL);
	ck_assert_int_eq(vm_child_get(&a), 1);
	ck_assert_int_eq(vm_child_get(&b), 1);
	ck_assert_int_eq(peer_rows(0), 2);
	ck_assert(peer_row(0, a.pid, 1));
	ck_assert(peer_row(0, b.pid, 1));
	/* their access is not ours */
	use(0);
	ck_assert_int_eq(aclrtMemcpy(x, 4096, y, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);
	vm_child_put(&a, 0);
	vm_child_wait_ok(&a);
	ck_assert_int_eq(peer_rows(0), 1);
	ck_assert(!peer_row(0, a.pid, 1));
	ck_assert_int_eq(kill(b.pid, SIGKILL), 0);
	st = vm_child_wait(&b);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(peer_rows(0), 0);
	ck_assert_int_eq(aclrtFree(x), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(y), ACL_SUCCESS);
}
END_TEST

/* ---- shareable handle imported on another device ---------------------- */

/*
 * A handle is mapped only on its own device; another device reaches the
 * memory by importing it, which (as the runtime's ImportFromShareableHandle
 * and ImportFromShareableHandleV2) gives the importing device peer access
 * to the memory's device.
 */

static int child_export(void *arg, int cmd, int rep)
{
	aclrtPhysicalMemProp p = phys_prop(ACL_MEM_NORMAL, 0);
	aclrtDrvMemHandle h;
	uint64_t key = 0, v;

	(void)arg;
	if (aclInit(NULL) || aclrtSetDevice(0))
		return 1;
	if (aclrtMallocPhysical(&h, 2 * MiB, &p, 0))
		return 2;
	if (aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE,
					    ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key))
		return 3;
	if (vm_put(rep, key))
		return 4;
	vm_get(cmd, &v);
	return 0;
}

START_TEST(test_import_other_device)
{
	int n = ndevs[_i];
	aclrtDrvMemHandle h = SENTINEL, h0 = NULL, h2 = NULL;
	void *r0 = NULL, *rd = NULL, *r2 = NULL;
	struct vm_child c;
	uint64_t key;
	int d = n - 1;

	setup_devices(n);
	vm_child_start(&c, child_export, NULL);
	key = vm_child_get(&c);
	/* same device: no peer access needed */
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(key, 0, &h0), ACL_SUCCESS);
	/* device d without access to device 0: the import enables it, d to 0 only */
	use(d);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(key + 1, d, &h), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_RT_PARAM_INVALID);	/* not on a failure */
	ck_assert_ptr_eq(h, SENTINEL);
	ck_assert_int_eq(aclrtMemImportFromShareableHandle(key, d, &h), ACL_SUCCESS);
	ck_assert_ptr_ne(h, SENTINEL);
	use(0);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(d), ACL_ERROR_RT_PARAM_INVALID);
	use(d);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS);
	/* V2 imports into the current device (d) the same way */
	ck_assert_int_eq(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h2),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtReserveMemAddress(&r2, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r2, 2 * MiB, 0, h2, 0), ACL_SUCCESS);	/* a handle of d */
	ck_assert_int_eq(aclrtUnmapMem(r2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS);	/* enabled again by V2 */
	ck_assert_int_eq(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
	/* mapped on each device: one memory, seen through both windows */
	ck_assert_int_eq(aclrtReserveMemAddress(&rd, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(rd, 2 * MiB, 0, h0, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMapMem(rd, 2 * MiB, 0, h, 0), ACL_SUCCESS);
	use(0);
	ck_assert_int_eq(aclrtReserveMemAddress(&r0, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMapMem(r0, 2 * MiB, 0, h0, 0), ACL_SUCCESS);
	dev_fill(rd, 2 * MiB, 401);
	dev_expect(r0, 2 * MiB, 401, 0);
	ck_assert_int_eq(aclrtUnmapMem(r0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(r0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtUnmapMem(rd), ACL_SUCCESS);
	ck_assert_int_eq(aclrtReleaseMemAddress(rd), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h0), ACL_SUCCESS);
	vm_child_put(&c, 0);
	vm_child_wait_ok(&c);
}
END_TEST

/* ---- the example ------------------------------------------------------- */

START_TEST(test_peer_ring_example)
{
	const unsigned long long size = 4 * MiB + 12345;
	char line[256], want[256];
	int ok = 0, stops = 0, status;
	FILE *f;

	vm_mod_reload("num_devices=4");
	f = popen("build/examples/peer_ring 2>&1", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		ok |= strcmp(line, "[INFO]  peer ring: ok\n") == 0;
		stops += strstr(line, "holds the buffer") != NULL;
	}
	status = pclose(f);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert(ok);
	ck_assert_int_eq(stops, 5);
	snprintf(want, sizeof(want), "src dst copies bytes\n0 1 1 %llu\n1 2 1 %llu\n2 3 1 %llu\n3 0 1 %llu\n",
		 size, size, size, size);
	ck_assert_str_eq(read_file(DBG "/peer_copies"), want);
	for (int d = 0; d < 4; d++)
		ck_assert_int_eq(peer_rows(d), 0);	/* gone with the process */
}
END_TEST

static Suite *peer_suite(void)
{
	Suite *s = suite_create("peer");
	TCase *tc = tcase_create("peer");
	int nn = (int)(sizeof(ndevs) / sizeof(ndevs[0]));

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, VM_TIMEOUT);
	tcase_add_loop_test(tc, test_ids_and_calls, 0, nn);
	tcase_add_loop_test(tc, test_p2p_map, 0, nn);
	tcase_add_loop_test(tc, test_copy_sync_pairs, 0, nn);
	tcase_add_loop_test(tc, test_copy_async_ring, 0, nn);
	tcase_add_loop_test(tc, test_copy_2d, 0, nn);
	tcase_add_loop_test(tc, test_page_kinds, 0, nn);
	tcase_add_loop_test(tc, test_huge1g, 0, nn);
	tcase_add_loop_test(tc, test_per_process, 0, nn);
	tcase_add_loop_test(tc, test_import_other_device, 0, nn);
	tcase_add_test(tc, test_peer_ring_example);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vm_run_suite(peer_suite());
}
