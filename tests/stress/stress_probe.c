// SPDX-License-Identifier: GPL-2.0
/*
 * Security probes, as an attacker on the same machine would try them, each
 * with the exact refusal the driver documents:
 * - guessed keys (random, and next to a live one) name nothing: ENOENT;
 *   the live key from a process not on its whitelist: EACCES;
 * - a device fd received over a unix socket (SCM_RIGHTS) is the sender's
 *   context: the receiver's ioctls get EACCES, its mmap EACCES;
 * - odd mmaps of the window: a second one EBUSY, wrong size or offset
 *   EINVAL, private EINVAL, executable EPERM; mremap growing EFAULT, moving
 *   EINVAL; munmap of a part EINVAL; mprotect(PROT_WRITE) over read-only
 *   memory EACCES, PROT_EXEC EACCES - and the window still works after;
 * - read-only device memory (host-access mode) cannot be written through
 *   /proc/self/mem nor process_vm_writev: the bytes stay;
 * - debugfs is root-only (uid 65534 gets EACCES) and shows no kernel
 *   pointer.
 * Then the after-checks of stress.h.  Seeded (NPU_SIM_FUZZ_SEED); the
 * number of guesses: NPU_SIM_PROBE_GUESSES (20000; 200000 long).
 */
#include "stress.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <misc/npu_sim.h>

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) == 0 ? 0 : errno;
}

static uint64_t mem_alloc(int fd, uint64_t size, uint32_t flags)
{
	struct npu_sim_mem_alloc a = { .size = size, .footprint = size, .backing = NPU_SIM_BACKING_NORMAL,
				       .flags = flags, .api = NPU_SIM_API_MALLOC };

	return xioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a) ? 0 : a.va;
}

/* H2D then D2H of 4 KiB at @va: 0 when the bytes came back. */
static int roundtrip(int fd, uint64_t va)
{
	unsigned char a[4096], b[4096];
	struct npu_sim_memcpy c = { .dst = va, .src = (uintptr_t)a, .count = 4096, .dir = NPU_SIM_COPY_H2D,
				    .src_fd = -1 };

	for (int i = 0; i < 4096; i++)
		a[i] = (unsigned char)(i * 13 + 1);
	if (xioctl(fd, NPU_SIM_IOCTL_MEMCPY, &c))
		return -1;
	c.dst = (uintptr_t)b;
	c.src = va;
	c.dir = NPU_SIM_COPY_D2H;
	if (xioctl(fd, NPU_SIM_IOCTL_MEMCPY, &c))
		return -2;
	return memcmp(a, b, 4096) ? -3 : 0;
}

/* ---- keys ------------------------------------------------------------------ */

/* Exporter: a handle key and an IPC key, whitelisting only pid 1. */
static int exporter(int wfd, int rfd)
{
	struct npu_sim_phys_alloc pa = { .size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
					 .location = NPU_SIM_LOC_DEVICE };
	struct npu_sim_share_export se = { 0 };
	struct npu_sim_ipc_export ie = { 0 };
	int32_t one = 1;
	struct npu_sim_share_set_pids sp = { .nr = 1, .pids = (uintptr_t)&one };
	uint64_t win, len, keys[2];
	int fd = st_open_mapped(0, &win, &len);
	char c;

	if (fd < 0 || xioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa))
		return 1;
	se.handle = pa.handle;
	ie.va = mem_alloc(fd, 65536, 0);
	ie.size = 65536;
	if (xioctl(fd, NPU_SIM_IOCTL_SHARE_EXPORT, &se) || !ie.va || xioctl(fd, NPU_SIM_IOCTL_IPC_EXPORT, &ie))
		return 2;
	sp.key = se.key;
	if (xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp))
		return 3;
	sp.key = ie.key;
	if (xioctl(fd, NPU_SIM_IOCTL_SHARE_SET_PIDS, &sp))
		return 4;
	keys[0] = se.key;
	keys[1] = ie.key;
	if (write(wfd, keys, sizeof(keys)) != sizeof(keys))
		return 5;
	return read(rfd, &c, 1) >= 0 ? 0 : 0;
}

static void probe_keys(int fd, struct st_rng *r, unsigned long guesses)
{
	int e2p[2], p2e[2], st;
	unsigned long enoent = 0, other = 0;
	uint64_t keys[2] = { 0, 0 };
	pid_t exp;

	if (pipe(e2p) || pipe(p2e))
		return;
	fflush(NULL);
	exp = fork();
	if (exp == 0) {
		close(e2p[0]);
		close(p2e[1]);
		_exit(exporter(e2p[1], p2e[0]));
	}
	close(e2p[1]);
	close(p2e[0]);
	st_check(read(e2p[0], keys, sizeof(keys)) == sizeof(keys), "exporter's keys");

	for (unsigned long i = 0; i < guesses; i++) {
		uint64_t k = st_rand(r);
		int e;

		if (i % 4 == 1)	/* next to a live key */
			k = keys[i % 2] ^ (1ULL << st_below(r, 64));
		if (i % 2) {
			struct npu_sim_share_import si = { .key = k };

			e = xioctl(fd, NPU_SIM_IOCTL_SHARE_IMPORT, &si);
		} else {
			struct npu_sim_ipc_import ii = { .key = k };

			e = xioctl(fd, NPU_SIM_IOCTL_IPC_IMPORT, &ii);
		}
		if (e == ENOENT)
			enoent++;
		else
			other++;
	}
	printf("stress_probe: %lu guessed keys, %lu ENOENT\n", guesses, enoent);
	st_check(other == 0, "guessed keys: %lu of %lu did not fail with ENOENT", other, guesses);
	{
		struct npu_sim_share_import si = { .key = keys[0] };
		struct npu_sim_ipc_import ii = { .key = keys[1] };
		int e1 = xioctl(fd, NPU_SIM_IOCTL_SHARE_IMPORT, &si), e2 = xioctl(fd, NPU_SIM_IOCTL_IPC_IMPORT, &ii);

		st_check(e1 == EACCES, "live handle key, not whitelisted: %s, want EACCES", strerror(e1));
		st_check(e2 == EACCES, "live IPC key, not whitelisted: %s, want EACCES", strerror(e2));
	}
	close(p2e[1]);
	waitpid(exp, &st, 0);
	st_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exporter exit status 0x%x", st);
	close(e2p[0]);
}

/* ---- fd over a unix socket --------------------------------------------------- */

static int receiver(int sock, int rep)
{
	char buf[1], cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_mem_alloc a = { .size = 4096, .footprint = 4096, .backing = NPU_SIM_BACKING_NORMAL,
				       .api = NPU_SIM_API_MALLOC };
	struct cmsghdr *cm;
	int fd, res[3];
	void *p;

	if (recvmsg(sock, &msg, 0) != 1 || (cm = CMSG_FIRSTHDR(&msg)) == NULL)
		return 1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	res[0] = xioctl(fd, NPU_SIM_IOCTL_GET_PARAM, &gp);
	res[1] = xioctl(fd, NPU_SIM_IOCTL_MEM_ALLOC, &a);
	p = mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	res[2] = p == MAP_FAILED ? errno : 0;
	return write(rep, res, sizeof(res)) == sizeof(res) ? 0 : 2;
}

static void probe_passed_fd(int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))], b = 'x';
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	int sv[2], rep[2], res[3] = { -1, -1, -1 }, st;
	struct cmsghdr *cm;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || pipe(rep))
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* as if another process: the device fd is not inherited (O_CLOEXEC is no help with fork) */
		close(fd);
		_exit(receiver(sv[1], rep[1]));
	}
	close(rep[1]);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	st_check(sendmsg(sv[0], &msg, 0) == 1, "sendmsg SCM_RIGHTS");
	st_check(read(rep[0], res, sizeof(res)) == sizeof(res), "receiver's report");
	st_check(res[0] == 0, "received fd: GET_PARAM %s, want success", strerror(res[0]));
	st_check(res[1] == EACCES, "received fd: MEM_ALLOC %s, want EACCES", strerror(res[1]));
	st_check(res[2] == EACCES, "received fd: mmap %s, want EACCES", strerror(res[2]));
	waitpid(pid, &st, 0);
	st_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "receiver exit status 0x%x", st);
	close(sv[0]);
	close(sv[1]);
	close(rep[0]);
}

/* ---- the window ---------------------------------------------------------------- */

static void probe_window(void)
{
	uint64_t win, len, ro;
	int fd = st_open_mapped(0, &win, &len), e;
	void *p, *q, *w = (void *)(uintptr_t)win;

	st_check(fd >= 0, "open and map npu_sim0");
	if (fd < 0)
		return;
	ro = mem_alloc(fd, 65536, NPU_SIM_ALLOC_READONLY);
	st_check(ro != 0, "read-only allocation");

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = p == MAP_FAILED ? errno : 0;
	st_check(e == EBUSY, "second mmap: %s, want EBUSY", strerror(e));
	if (p != MAP_FAILED)
		munmap(p, len);

	/* a fresh context for the mmaps that must fail before the window exists */
	{
		int fd2 = open("/dev/npu_sim0", O_RDWR | O_CLOEXEC);

		p = mmap(NULL, len / 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
		e = p == MAP_FAILED ? errno : 0;
		st_check(e == EINVAL, "mmap of half the window: %s, want EINVAL", strerror(e));
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 4096);
		e = p == MAP_FAILED ? errno : 0;
		st_check(e == EINVAL, "mmap at an offset: %s, want EINVAL", strerror(e));
		/* read-only: a private writable 1 TiB mapping would fail its accounting first */
		p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd2, 0);
		e = p == MAP_FAILED ? errno : 0;
		st_check(e == EINVAL, "private mmap: %s, want EINVAL", strerror(e));
		p = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_SHARED, fd2, 0);
		e = p == MAP_FAILED ? errno : 0;
		st_check(e == EPERM, "executable mmap: %s, want EPERM", strerror(e));
		close(fd2);
	}

	p = mremap(w, len, len + 2 * MiB, 0);
	e = p == MAP_FAILED ? errno : 0;
	st_check(e == EFAULT, "mremap growing the window: %s, want EFAULT", strerror(e));
	/* the target must be ours: mremap unmaps it before trying the move */
	q = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	st_check(q != MAP_FAILED, "room for a moved window");
	p = q == MAP_FAILED ? MAP_FAILED : mremap(w, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, q);
	e = p == MAP_FAILED ? errno : 0;
	if (q != MAP_FAILED && p != q)
		munmap(q, len);
	st_check(e == EINVAL, "mremap moving the window: %s, want EINVAL", strerror(e));
	e = munmap((char *)w + 2 * MiB, 2 * MiB) ? errno : 0;
	st_check(e == EINVAL, "munmap of a part of the window: %s, want EINVAL", strerror(e));
	e = mprotect(w, len, PROT_READ | PROT_WRITE) ? errno : 0;
	st_check(e == EACCES, "mprotect(PROT_WRITE) over read-only memory: %s, want EACCES", strerror(e));
	e = mprotect(w, len, PROT_READ | PROT_EXEC) ? errno : 0;
	st_check(e == EACCES, "mprotect(PROT_EXEC): %s, want EACCES", strerror(e));

	/* still the same working window */
	{
		uint64_t va = mem_alloc(fd, 65536, 0);

		st_check(va >= win && va < win + len, "allocation after the probes is in the window");
		st_check(roundtrip(fd, va) == 0, "copies after the probes");
	}
	munmap(w, len);
	close(fd);
}

/* ---- read-only memory through the back doors ------------------------------------- */

static void probe_readonly(void)
{
	uint64_t win, len, ro;
	unsigned char junk[64], got[64], zero[64];
	int fd, mem, e, st;
	ssize_t n;
	pid_t pid;

	st_check(st_sysfs(0, "host_access") == 0, "npu_sim0 starts in strict mode");
	fd = open("/sys/class/npu_sim/npu_sim0/host_access", O_WRONLY);
	st_check(fd >= 0 && write(fd, "1", 1) == 1, "host_access on");
	if (fd >= 0)
		close(fd);
	fd = st_open_mapped(0, &win, &len);
	ro = fd >= 0 ? mem_alloc(fd, 65536, NPU_SIM_ALLOC_READONLY) : 0;
	st_check(ro != 0, "read-only allocation in host-access mode");
	if (ro == 0)
		goto out;
	memset(junk, 0xee, sizeof(junk));
	memset(zero, 0, sizeof(zero));
	memcpy(got, (void *)(uintptr_t)ro, sizeof(got));	/* readable from the host */
	st_check(memcmp(got, zero, sizeof(got)) == 0, "read-only memory reads as zeros");

	mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	n = pwrite(mem, junk, sizeof(junk), (off_t)ro);
	e = n < 0 ? errno : 0;
	printf("stress_probe: write to read-only memory via /proc/self/mem: %zd (%s)\n", n, strerror(e));
	st_check(n < 0 && e == EIO, "/proc/self/mem write: %zd, %s, want EIO", n, strerror(e));
	close(mem);

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct iovec l = { .iov_base = junk, .iov_len = sizeof(junk) };
		struct iovec r = { .iov_base = (void *)(uintptr_t)ro, .iov_len = sizeof(junk) };
		ssize_t w = process_vm_writev(getppid(), &l, 1, &r, 1, 0);

		_exit(w < 0 ? (errno == EFAULT ? 0 : 2) : 1);
	}
	waitpid(pid, &st, 0);
	st_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "process_vm_writev into read-only memory: status 0x%x, "
		 "want EFAULT", st);
	memcpy(got, (void *)(uintptr_t)ro, sizeof(got));
	st_check(memcmp(got, zero, sizeof(got)) == 0, "read-only memory unchanged");
out:
	if (fd >= 0) {
		munmap((void *)(uintptr_t)win, len);
		close(fd);
	}
	fd = open("/sys/class/npu_sim/npu_sim0/host_access", O_WRONLY);
	st_check(fd >= 0 && write(fd, "0", 1) == 1, "host_access off");
	if (fd >= 0)
		close(fd);
}

/* ---- debugfs ----------------------------------------------------------------------- */

static void probe_debugfs(void)
{
	static const char *dir = "/sys/kernel/debug/npu_sim/npu_sim0";
	regex_t re;
	struct dirent *de;
	unsigned long files = 0, hits = 0;
	char path[512], line[1024];
	DIR *d;
	int st, fd;
	uint64_t win, len;
	pid_t pid;

	/* something to show: an allocation, a handle, a stream */
	fd = st_open_mapped(0, &win, &len);
	if (fd >= 0) {
		struct npu_sim_stream_create sc = { 0 };
		struct npu_sim_phys_alloc pa = { .size = 2 * MiB, .page_kind = NPU_SIM_PAGE_NORMAL,
						 .location = NPU_SIM_LOC_DEVICE };

		(void)mem_alloc(fd, 4096, 0);
		(void)xioctl(fd, NPU_SIM_IOCTL_STREAM_CREATE, &sc);
		(void)xioctl(fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int e;

		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		snprintf(path, sizeof(path), "%s/allocations", dir);
		e = open(path, O_RDONLY) < 0 ? errno : 0;
		_exit(e == EACCES ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	st_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "debugfs as uid 65534: status 0x%x, want EACCES", st);

	/* kernel addresses: direct map, vmalloc, vmemmap, text (x86-64) */
	regcomp(&re, "ffff(88|89|8[a-f]|9[0-9a-f]|a[0-9a-f]|b[0-9a-f]|c[0-9a-f]|ea|ff)[0-9a-f]{10}",
		REG_EXTENDED | REG_ICASE | REG_NOSUB);
	for (int dev = -1; dev < 2; dev++) {
		char dpath[256];

		if (dev < 0)
			snprintf(dpath, sizeof(dpath), "/sys/kernel/debug/npu_sim");
		else
			snprintf(dpath, sizeof(dpath), "/sys/kernel/debug/npu_sim/npu_sim%d", dev);
		d = opendir(dpath);
		st_check(d != NULL, "open %s", dpath);
		if (d == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			int is_shared = strcmp(de->d_name, "shared") == 0;
			struct stat sb;
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s", dpath, de->d_name);
			if (stat(path, &sb) || !S_ISREG(sb.st_mode) || !(sb.st_mode & 0444))
				continue;
			f = fopen(path, "r");
			if (f == NULL)
				continue;
			files++;
			while (fgets(line, sizeof(line), f)) {
				/* a key is random: it may look like anything */
				const char *scan = is_shared ? strchr(line, ' ') : line;

				if (scan && regexec(&re, scan, 0, NULL, 0) == 0) {
					hits++;
					printf("stress_probe: %s: %s", path, line);
				}
			}
			fclose(f);
		}
		closedir(d);
	}
	regfree(&re);
	printf("stress_probe: %lu debugfs files read\n", files);
	st_check(files >= 10, "debugfs files read: %lu", files);
	st_check(hits == 0, "debugfs lines with a kernel address: %lu", hits);
	if (fd >= 0) {
		munmap((void *)(uintptr_t)win, len);
		close(fd);
	}
}

int main(void)
{
	uint64_t seed = st_seed("stress_probe");
	unsigned long guesses = st_env("NPU_SIM_PROBE_GUESSES", 20000, 200000);
	struct st_base base;
	struct st_rng r;
	uint64_t win, len;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	st_base_take(&base);
	st_rng_init(&r, seed);
	fd = st_open_mapped(0, &win, &len);
	st_check(fd >= 0, "open and map npu_sim0");
	if (fd >= 0) {
		probe_keys(fd, &r, guesses);
		probe_passed_fd(fd);
		munmap((void *)(uintptr_t)win, len);
		close(fd);
	}
	probe_window();
	probe_readonly();
	probe_debugfs();
	st_base_check(&base, "after the probes");
	return st_summary("stress_probe");
}
