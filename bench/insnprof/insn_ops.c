/*
 * insn_ops: the small calls of issue #28, each run N times inside its own
 * marker window of the insnprof plugin (bench/insnprof/insnprof.c), in the
 * test guest by `make bench-insns`.
 *
 *   insn_ops prof N OUTDIR   after 500 warm-up calls, each row N times in
 *                            window = row index; writes OUTDIR/windows
 *                            (index, N, name) and OUTDIR/maps (for the
 *                            symbolizer)
 *   insn_ops time N REPS     no plugin needed: min/median ns per call of
 *                            each row over REPS runs of N calls
 *
 * Each "raw" row is the bare ioctl on our own open of /dev/npu_sim1; the
 * acl rows go through libacl_rt (device 0).  Pinned to CPU 1 so that one
 * vCPU runs the whole window (the plugin counts per vCPU).  Built without
 * PIE so the symbolizer maps the driver's addresses without a load offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <misc/npu_sim.h>

#define WARMUP 500
#define MAX_REPS 64
#define SIZE_2M (2UL << 20)

static int null_fd, raw_fd;
static void *raw_dev;		/* a 64 B allocation of raw_fd */
static uint64_t raw_resv;	/* a 2 MiB reservation of raw_fd */
static uint32_t raw_handle;	/* a 2 MiB physical handle of raw_fd */
static void *acl_dev;		/* a 64 B aclrtMalloc */
static void *acl_resv;		/* a 2 MiB aclrtReserveMemAddress */
static aclrtDrvMemHandle acl_handle;
static char host[64] __attribute__((aligned(64)));

static void check_acl(const char *what, aclError e)
{
	if (e != ACL_SUCCESS) {
		fprintf(stderr, "insn_ops: %s: error %d\n", what, (int)e);
		exit(1);
	}
}

static void check_ioctl(const char *what, int rc)
{
	if (rc) {
		fprintf(stderr, "insn_ops: %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

static void op_empty(void)
{
}

static void op_null(void)
{
	/* /dev/null has no ioctl: -ENOTTY, the bare syscall path */
	ioctl(null_fd, 0x1234, 0);
}

static void op_null2(void)
{
	ioctl(null_fd, 0x1234, 0);
	ioctl(null_fd, 0x1234, 0);
}

static void op_raw_mem_info(void)
{
	struct npu_sim_mem_info mi;

	memset(&mi, 0, sizeof(mi));
	mi.flags = NPU_SIM_MEM_INFO_DEVICE_ONLY;
	check_ioctl("MEM_INFO", ioctl(raw_fd, NPU_SIM_IOCTL_MEM_INFO, &mi));
}

static void op_get_mem_info(void)
{
	size_t free_b, total_b;

	check_acl("aclrtGetMemInfo", aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b));
}

static void op_raw_memcpy_h2d(void)
{
	struct npu_sim_memcpy c = {
		.dst = (uintptr_t)raw_dev, .src = (uintptr_t)host, .count = 64,
		.dir = NPU_SIM_COPY_H2D, .src_fd = -1,
	};

	check_ioctl("MEMCPY", ioctl(raw_fd, NPU_SIM_IOCTL_MEMCPY, &c));
}

static void op_memcpy_h2d(void)
{
	check_acl("aclrtMemcpy H2D",
		  aclrtMemcpy(acl_dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void op_memcpy_d2h(void)
{
	check_acl("aclrtMemcpy D2H",
		  aclrtMemcpy(host, 64, acl_dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
}

static void op_raw_alloc_free(void)
{
	struct npu_sim_mem_alloc a;
	struct npu_sim_mem_free f;

	/* what aclrtMalloc(64, HUGE_FIRST) asks for (footprint: its padding) */
	memset(&a, 0, sizeof(a));
	a.size = 64;
	a.footprint = 96;
	a.backing = NPU_SIM_BACKING_HUGE_FIRST;
	a.api = NPU_SIM_API_MALLOC;
	check_ioctl("MEM_ALLOC", ioctl(raw_fd, NPU_SIM_IOCTL_MEM_ALLOC, &a));
	memset(&f, 0, sizeof(f));
	f.va = a.va;
	check_ioctl("MEM_FREE", ioctl(raw_fd, NPU_SIM_IOCTL_MEM_FREE, &f));
}

static void op_malloc_free(void)
{
	void *p;

	check_acl("aclrtMalloc", aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	check_acl("aclrtFree", aclrtFree(p));
}

static void op_raw_map_unmap(void)
{
	struct npu_sim_vmm_map m = { .va = raw_resv, .size = SIZE_2M, .handle = raw_handle };
	struct npu_sim_vmm_unmap u = { .va = raw_resv };

	check_ioctl("VMM_MAP", ioctl(raw_fd, NPU_SIM_IOCTL_VMM_MAP, &m));
	check_ioctl("VMM_UNMAP", ioctl(raw_fd, NPU_SIM_IOCTL_VMM_UNMAP, &u));
}

static void op_map_unmap(void)
{
	check_acl("aclrtMapMem", aclrtMapMem(acl_resv, SIZE_2M, 0, acl_handle, 0));
	check_acl("aclrtUnmapMem", aclrtUnmapMem(acl_resv));
}

struct row {
	const char *name;
	void (*fn)(void);
};

/* The symbolizer takes "null ioctl" / "null ioctl x2" as the baselines. */
static const struct row rows[] = {
	{ "empty", op_empty },
	{ "null ioctl", op_null },
	{ "null ioctl x2", op_null2 },
	{ "raw MEM_INFO", op_raw_mem_info },
	{ "aclrtGetMemInfo", op_get_mem_info },
	{ "raw MEMCPY H2D 64 B", op_raw_memcpy_h2d },
	{ "aclrtMemcpy H2D 64 B", op_memcpy_h2d },
	{ "aclrtMemcpy D2H 64 B", op_memcpy_d2h },
	{ "raw MEM_ALLOC+MEM_FREE 64 B", op_raw_alloc_free },
	{ "aclrtMalloc+aclrtFree 64 B", op_malloc_free },
	{ "raw VMM_MAP+VMM_UNMAP 2 MiB", op_raw_map_unmap },
	{ "aclrtMapMem+aclrtUnmapMem 2 MiB", op_map_unmap },
};
#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))

/*
 * The plugin's marker: nopl 0x4e50WWCC(%rax,%rax,1), CC = 1 open / 2 close
 * window WW.  The window number is part of the instruction, hence a switch.
 */
#define MARK(cc, w) \
	__asm__ __volatile__(".byte 0x0f,0x1f,0x84,0x00,%c0,%c1,0x50,0x4e" \
			     :: "i"(cc), "i"(w) : "memory")
#define WIN(w) case w: if (open) MARK(1, w); else MARK(2, w); break
static void __attribute__((noinline)) mark(int open, unsigned int w)
{
	switch (w) {
	WIN(0); WIN(1); WIN(2); WIN(3); WIN(4); WIN(5); WIN(6); WIN(7);
	WIN(8); WIN(9); WIN(10); WIN(11); WIN(12); WIN(13); WIN(14); WIN(15);
	default:
		fprintf(stderr, "insn_ops: window %u: only 0..15\n", w);
		exit(1);
	}
}

static void setup(void)
{
	struct npu_sim_get_param gp = { .param = NPU_SIM_PARAM_VA_WINDOW_SIZE };
	struct npu_sim_mem_alloc a = {
		.size = 64, .footprint = 96, .backing = NPU_SIM_BACKING_HUGE_FIRST,
		.api = NPU_SIM_API_MALLOC,
	};
	struct npu_sim_phys_alloc pa = {
		.size = SIZE_2M, .page_kind = NPU_SIM_PAGE_HUGE_2M, .location = NPU_SIM_LOC_DEVICE,
		.location_id = 1,
	};
	struct npu_sim_vmm_reserve rs = { .size = SIZE_2M };
	aclrtPhysicalMemProp prop = {
		.handleType = ACL_MEM_HANDLE_TYPE_NONE,
		.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED,
		.memAttr = ACL_HBM_MEM_HUGE,
		.location = { .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE },
	};
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("insn_ops: pin to CPU 1 (the guest needs 2 CPUs)");
		exit(1);
	}
	null_fd = open("/dev/null", O_RDONLY);
	raw_fd = open("/dev/npu_sim1", O_RDWR);
	if (null_fd < 0 || raw_fd < 0) {
		perror("insn_ops: open /dev/null, /dev/npu_sim1 (num_devices=2)");
		exit(1);
	}
	check_ioctl("GET_PARAM", ioctl(raw_fd, NPU_SIM_IOCTL_GET_PARAM, &gp));
	if (mmap(NULL, gp.value, PROT_READ | PROT_WRITE, MAP_SHARED, raw_fd, 0) == MAP_FAILED) {
		perror("insn_ops: mmap of the VA window");
		exit(1);
	}
	check_ioctl("MEM_ALLOC", ioctl(raw_fd, NPU_SIM_IOCTL_MEM_ALLOC, &a));
	raw_dev = (void *)(uintptr_t)a.va;
	check_ioctl("PHYS_ALLOC", ioctl(raw_fd, NPU_SIM_IOCTL_PHYS_ALLOC, &pa));
	raw_handle = pa.handle;
	check_ioctl("VMM_RESERVE", ioctl(raw_fd, NPU_SIM_IOCTL_VMM_RESERVE, &rs));
	raw_resv = rs.va;

	check_acl("aclInit", aclInit(NULL));
	check_acl("aclrtSetDevice", aclrtSetDevice(0));
	check_acl("aclrtMalloc", aclrtMalloc(&acl_dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	check_acl("aclrtReserveMemAddress", aclrtReserveMemAddress(&acl_resv, SIZE_2M, 0, NULL, 0));
	check_acl("aclrtMallocPhysical", aclrtMallocPhysical(&acl_handle, SIZE_2M, &prop, 0));
}

static void copy_file(const char *from, const char *dir, const char *name)
{
	char path[4096];
	FILE *in, *out;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(from, "r");
	out = fopen(path, "w");
	if (!in || !out) {
		perror(path);
		exit(1);
	}
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(in);
	if (fclose(out)) {
		perror(path);
		exit(1);
	}
}

static void profile(long n, const char *dir)
{
	char path[4096];
	unsigned int i;
	FILE *f;
	long k;

	for (i = 0; i < NR_ROWS; i++) {
		for (k = 0; k < WARMUP; k++)
			rows[i].fn();
		mark(1, i);
		for (k = 0; k < n; k++)
			rows[i].fn();
		mark(0, i);
	}
	copy_file("/proc/self/maps", dir, "maps");
	snprintf(path, sizeof(path), "%s/windows", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	for (i = 0; i < NR_ROWS; i++)
		fprintf(f, "%u\t%ld\t%s\n", i, n, rows[i].name);
	if (fclose(f)) {
		perror(path);
		exit(1);
	}
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void timing(long n, int reps)
{
	static double s[NR_ROWS][MAX_REPS];
	unsigned int i;
	int r;
	long k;

	for (i = 0; i < NR_ROWS; i++)
		for (k = 0; k < WARMUP; k++)
			rows[i].fn();
	/* rows interleaved, so a slow spell of the host hits all of them */
	for (r = 0; r < reps; r++)
		for (i = 0; i < NR_ROWS; i++) {
			double t = now_ns();

			for (k = 0; k < n; k++)
				rows[i].fn();
			s[i][r] = (now_ns() - t) / n;
		}
	printf("%-34s %10s %10s\n", "row", "min ns", "median ns");
	for (i = 0; i < NR_ROWS; i++) {
		qsort(s[i], reps, sizeof(double), cmp_double);
		printf("%-34s %10.0f %10.0f\n", rows[i].name, s[i][0], s[i][reps / 2]);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: insn_ops prof N OUTDIR | insn_ops time N REPS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 4)
		usage();
	n = atol(argv[2]);
	if (n < 1)
		usage();
	if (!strcmp(argv[1], "prof")) {
		setup();
		profile(n, argv[3]);
	} else if (!strcmp(argv[1], "time")) {
		int reps = atoi(argv[3]);

		if (reps < 1 || reps > MAX_REPS)
			usage();
		setup();
		timing(n, reps);
	} else {
		usage();
	}
	return 0;
}
