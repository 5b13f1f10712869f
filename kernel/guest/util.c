/* Small checked file and time helpers for the guest init. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fw.h"

char fw_errbuf[512];

/* Records the reason of a failure for the caller's error record; returns -1. */
int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fw_errbuf, sizeof(fw_errbuf), fmt, ap);
	va_end(ap);
	return -1;
}

/* Human log lines go to the console (ttyS0), never to the result port. */
void logmsg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(stderr, "fw-init: %s\n", buf);
}

int read_text(const char *path, char *buf, size_t size)
{
	size_t got = 0;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		goto cleanup;
	}
	while (got + 1 < size) {
		ssize_t n = read(fd, buf + got, size - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail("read %s: %s", path, strerror(errno));
			goto cleanup;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	ret = (int)got;
cleanup:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* One write() of the whole text: sysfs/debugfs files act on a single write. */
int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = -1;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		goto cleanup;
	}
	n = write(fd, text, len);
	if (n < 0) {
		fail("write '%s' to %s: %s", text, path, strerror(errno));
		goto cleanup;
	}
	if ((size_t)n != len) {
		fail("short write to %s: %zd of %zu", path, n, len);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (fd >= 0 && close(fd) < 0 && ret == 0)
		ret = fail("close %s: %s", path, strerror(errno));
	return ret;
}

int write_textf(const char *path, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write_text(path, buf);
}

int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return fail("%s: not a number: %s", path, buf);
	return 0;
}

int64_t meminfo_kb(const char *field)
{
	static char buf[8192];
	size_t flen = strlen(field);
	char *p;

	if (read_text("/proc/meminfo", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, field, flen) && p[flen] == ':')
			return strtoll(p + flen + 1, NULL, 10);
	}
	return -1;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

double rusage_sys_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	return tv_s(&ru.ru_stime);
}

double rusage_user_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	return tv_s(&ru.ru_utime);
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double process_cpu_s(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

double thread_cpu_s(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

int mkdir_p(const char *path)
{
	char tmp[512];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return fail("mkdir %s: %s", tmp, strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return fail("mkdir %s: %s", tmp, strerror(errno));
	return 0;
}
