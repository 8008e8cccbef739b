/*
 * Report blocks, call sites and output for the NPU_SIM_CHECK reports
 * (report.h).  Sites are symbolized only when a report is written
 * (symbolize.c).
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "symbolize.h"

#define RAW_FRAMES	32	/* frames asked of backtrace(3) */

int npu_rt_check_flags;

static __thread const char *cur_call;
static __thread void *cur_site;

void npu_rt_check_enter(const char *call, void *site)
{
	cur_call = call;
	cur_site = site;
}

void *npu_rt_check_site(void)
{
	return cur_site;
}

const char *npu_rt_check_call(void)
{
	return cur_call != NULL ? cur_call : "?";
}

void npu_rt_site_capture(struct npu_rt_site *s)
{
	void *raw[RAW_FRAMES];
	int n = backtrace(raw, RAW_FRAMES), i;

	/* keep the frames from the API caller up: drop the library's own */
	for (i = 0; i < n && raw[i] != cur_site; i++)
		;
	if (i == n) {
		s->n = cur_site != NULL;
		s->pc[0] = cur_site;
		return;
	}
	s->n = 0;
	for (; i < n && s->n < NPU_RT_SITE_FRAMES; i++)
		s->pc[s->n++] = raw[i];
}

void npu_rt_block_add(struct npu_rt_block *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= sizeof(b->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, sizeof(b->buf) - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < sizeof(b->buf) - b->len ? (size_t)n : sizeof(b->buf) - b->len - 1;
}

void npu_rt_block_site(struct npu_rt_block *b, const char *indent, const struct npu_rt_site *s)
{
	char where[512];

	if (s->n == 0) {
		npu_rt_block_add(b, "%sat ? (no call site recorded)\n", indent);
		return;
	}
	for (int i = 0; i < s->n; i++) {
		npu_rt_symbolize(s->pc[i], where, sizeof(where));
		npu_rt_block_add(b, "%s%s %s\n", indent, i == 0 ? "at" : "by", where);
	}
}

static void write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

void npu_rt_block_emit(const struct npu_rt_block *b, FILE *out)
{
	const char *dir;
	char path[4096];
	int fd;

	if (out != NULL) {
		fwrite(b->buf, 1, b->len, out);
		fflush(out);
		return;
	}
	write_all(STDERR_FILENO, b->buf, b->len);
	dir = getenv("NPU_SIM_REPORT_DIR");
	if (dir == NULL || dir[0] == '\0')
		return;
	snprintf(path, sizeof(path), "%s/report.%d", dir, (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	write_all(fd, b->buf, b->len);
	close(fd);
}
