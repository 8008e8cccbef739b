/*
 * aclAppLog: an application's line in the CANN log.
 *
 * As the CANN log does: a line is written when its level is at least the
 * log level (ASCEND_GLOBAL_LOG_LEVEL: 0 debug, 1 info, 2 warning, 3 error
 * (the default), 4 none), to standard output when
 * ASCEND_SLOG_PRINT_TO_STDOUT is 1, else appended to
 * $ASCEND_PROCESS_LOG_PATH/plog/plog-<pid>.log (default directory
 * $HOME/ascend/log/debug).  The line is "[LEVEL] APP(pid,name):time tid
 * func:file:line: \"message\"", at most 1023 bytes; a longer one ends in
 * "...[truncated]".  NULL fmt, func or file: nothing.  Not an aclError
 * call: kept out of the wrappers (LIB_UNWRAPPED_SRCS in lib/lib.mk).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "acl_internal.h"

#define LOG_MAX 1024
#define TRUNCATED "...[truncated]"

static int log_level(void)
{
	const char *s = getenv("ASCEND_GLOBAL_LOG_LEVEL");
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return ACL_ERROR;
	v = strtol(s, &end, 10);
	return *end != '\0' || v < 0 || v > 4 ? ACL_ERROR : (int)v;
}

/* mkdir -p of the directory part of path (which it may change and restore). */
static void make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(path, 0750);
		*p = '/';
	}
}

static void write_line(const char *line, size_t len)
{
	const char *dir = getenv("ASCEND_PROCESS_LOG_PATH"), *home = getenv("HOME");
	const char *out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	char path[4096];
	int fd;

	if (out != NULL && strcmp(out, "1") == 0) {
		fwrite(line, 1, len, stdout);
		fflush(stdout);
		return;
	}
	if (dir != NULL && *dir != '\0')
		snprintf(path, sizeof(path), "%s/plog/plog-%d.log", dir, (int)getpid());
	else
		snprintf(path, sizeof(path), "%s/ascend/log/debug/plog/plog-%d.log", home ? home : "/tmp",
			 (int)getpid());
	make_dirs(path);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0)
		return;
	while (len > 0) {
		ssize_t n = write(fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		line += n;
		len -= (size_t)n;
	}
	close(fd);
}

ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
				   const char *fmt, ...)
{
	static const char *const names[] = { "DEBUG", "INFO", "WARNING", "ERROR" };
	char body[LOG_MAX], head[LOG_MAX + 64], comm[32] = "", stamp[32];
	struct timeval tv;
	struct tm tm;
	va_list ap;
	int nb, nh;
	FILE *f;

	if (fmt == NULL || func == NULL || file == NULL)
		return;
	if ((int)logLevel < log_level() || (int)logLevel < ACL_DEBUG || (int)logLevel > ACL_ERROR)
		return;
	va_start(ap, fmt);
	nb = vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (nb < 0)
		return;
	f = fopen("/proc/self/comm", "re");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) == NULL)
			comm[0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d-%H:%M:%S", &tm);
	nh = snprintf(head, LOG_MAX, "[%s] APP(%d,%s):%s.%03ld.%03ld %ld %s:%s:%u: \"%s\"", names[logLevel],
		      (int)getpid(), comm, stamp, (long)tv.tv_usec / 1000, (long)tv.tv_usec % 1000,
		      (long)syscall(SYS_gettid), func, file, line, body);
	if (nh < 0)
		return;
	if (nb >= LOG_MAX - 1 || nh >= LOG_MAX - 1) {
		nh = LOG_MAX - 1;
		memcpy(head + LOG_MAX - 1 - strlen(TRUNCATED), TRUNCATED, strlen(TRUNCATED));
	}
	head[nh++] = '\n';
	write_line(head, (size_t)nh);
}
