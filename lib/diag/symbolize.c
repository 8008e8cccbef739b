/*
 * Code addresses to words (symbolize.h) through libdw's Dwfl interface,
 * which reads the process's modules from /proc/self/maps and their DWARF
 * (also separate debug files under /usr/lib/debug).  One Dwfl is kept per
 * process and re-read once when an address lies in no module it knows (a
 * module loaded since).  Without libdw: dladdr(3).
 */
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbolize.h"

struct dw_api {
	__typeof__(dwfl_begin) *begin;
	__typeof__(dwfl_end) *end;
	__typeof__(dwfl_report_begin) *report_begin;
	__typeof__(dwfl_report_end) *report_end;
	__typeof__(dwfl_linux_proc_report) *proc_report;
	__typeof__(dwfl_linux_proc_find_elf) *find_elf;
	__typeof__(dwfl_standard_find_debuginfo) *find_debuginfo;
	__typeof__(dwfl_addrmodule) *addrmodule;
	__typeof__(dwfl_module_addrname) *addrname;
	__typeof__(dwfl_module_getsrc) *getsrc;
	__typeof__(dwfl_lineinfo) *lineinfo;
	__typeof__(dwfl_module_info) *info;
};

static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dw_api dw;
static int dw_state;		/* 0 not tried, 1 loaded, -1 unavailable */
static Dwfl_Callbacks callbacks;
static char *debuginfo_path;
static Dwfl *dwfl;
static pid_t dw_pid;

static int load_libdw(void)
{
	void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return -1;
#define SYM(field, name) do { if ((*(void **)&dw.field = dlsym(h, #name)) == NULL) return -1; } while (0)
	SYM(begin, dwfl_begin);
	SYM(end, dwfl_end);
	SYM(report_begin, dwfl_report_begin);
	SYM(report_end, dwfl_report_end);
	SYM(proc_report, dwfl_linux_proc_report);
	SYM(find_elf, dwfl_linux_proc_find_elf);
	SYM(find_debuginfo, dwfl_standard_find_debuginfo);
	SYM(addrmodule, dwfl_addrmodule);
	SYM(addrname, dwfl_module_addrname);
	SYM(getsrc, dwfl_module_getsrc);
	SYM(lineinfo, dwfl_lineinfo);
	SYM(info, dwfl_module_info);
#undef SYM
	callbacks.find_elf = dw.find_elf;
	callbacks.find_debuginfo = dw.find_debuginfo;
	callbacks.debuginfo_path = &debuginfo_path;
	return 0;
}

/* (Re)read the modules of this process; sym_lock held. */
static int report_modules(void)
{
	if (dwfl != NULL && dw_pid != getpid()) {
		dw.end(dwfl);
		dwfl = NULL;
	}
	if (dwfl == NULL) {
		dwfl = dw.begin(&callbacks);
		if (dwfl == NULL)
			return -1;
		dw_pid = getpid();
	}
	dw.report_begin(dwfl);
	if (dw.proc_report(dwfl, getpid()) != 0 || dw.report_end(dwfl, NULL, NULL) != 0) {
		dw.end(dwfl);
		dwfl = NULL;
		return -1;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

static int with_libdw(uintptr_t a, char *out, size_t len)
{
	Dwfl_Module *mod;
	Dwfl_Line *line;
	const char *fn, *file, *mname;
	Dwarf_Addr start = 0;
	int lineno = 0;

	if (dwfl == NULL || dw_pid != getpid())
		if (report_modules() != 0)
			return -1;
	mod = dw.addrmodule(dwfl, a);
	if (mod == NULL && (report_modules() != 0 || (mod = dw.addrmodule(dwfl, a)) == NULL))
		return -1;
	fn = dw.addrname(mod, a);
	line = dw.getsrc(mod, a);
	file = line != NULL ? dw.lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	mname = dw.info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	if (file != NULL && lineno > 0)
		snprintf(out, len, "%s (%s:%d)", fn != NULL ? fn : "?", base_name(file), lineno);
	else if (fn != NULL)
		snprintf(out, len, "%s (%s)", fn, base_name(mname != NULL ? mname : "?"));
	else
		snprintf(out, len, "%s+0x%lx", base_name(mname != NULL ? mname : "?"),
			 (unsigned long)(a - start));
	return 0;
}

static void with_dladdr(uintptr_t a, char *out, size_t len)
{
	Dl_info di;

	if (dladdr((void *)a, &di) == 0 || di.dli_fname == NULL)
		snprintf(out, len, "0x%lx", (unsigned long)a);
	else if (di.dli_sname != NULL)
		snprintf(out, len, "%s+0x%lx (%s)", di.dli_sname, (unsigned long)(a - (uintptr_t)di.dli_saddr),
			 base_name(di.dli_fname));
	else
		snprintf(out, len, "%s+0x%lx", base_name(di.dli_fname), (unsigned long)(a - (uintptr_t)di.dli_fbase));
}

void npu_rt_symbolize(void *pc, char *out, size_t len)
{
	/* a return address: look up the call instruction before it */
	uintptr_t a = (uintptr_t)pc - 1;
	int rc = -1;

	pthread_mutex_lock(&sym_lock);
	if (dw_state == 0)
		dw_state = load_libdw() == 0 ? 1 : -1;
	if (dw_state == 1)
		rc = with_libdw(a, out, len);
	pthread_mutex_unlock(&sym_lock);
	if (rc != 0)
		with_dladdr(a, out, len);
}
