/*
 * Per-function hit counts from the ftrace function profiler
 * (FUNCTION_PROFILER): set_ftrace_filter limits it to the functions asked
 * for, function_profile_enabled turns it on, trace_stat/function<cpu> holds
 * "name hits time avg s^2" per CPU. Used only in untimed diagnostic rounds:
 * with DYNAMIC_FTRACE the call sites are NOPs again once it is off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fw.h"

#define TR "/sys/kernel/tracing"

/* 1 if a line of the file starts with word followed by end of line or a space. */
static int file_has_word(const char *path, const char *word)
{
	size_t len = strlen(word);
	char line[512];
	int found = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return fail("open %s: %s", path, strerror(errno));
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, word, len) && (line[len] == '\n' || line[len] == ' ');
	fclose(f);
	return found;
}

/* O_TRUNC replaces the filter (a plain write adds to it); "" clears it. */
static int set_filter(const char *func)
{
	size_t len = strlen(func);
	int fd = open(TR "/set_ftrace_filter", O_WRONLY | O_TRUNC | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return fail("open set_ftrace_filter: %s", strerror(errno));
	if (len && write(fd, func, len) != (ssize_t)len)
		ret = fail("write %s to set_ftrace_filter: %s", func, strerror(errno));
	close(fd);
	return ret;
}

int fprof_start(const char *func)
{
	if (mount_tracefs() < 0)
		return -1;
	int has = file_has_word(TR "/available_filter_functions", func);

	if (has < 0)
		return -1;
	if (!has)
		return fail("%s is not in available_filter_functions (inlined, or no "
			    "FUNCTION_TRACER): cannot count its calls", func);
	if (write_text(TR "/function_profile_enabled", "0") < 0 || set_filter(func) < 0)
		return -1;
	/* Enabling resets the counts of every CPU. */
	return write_text(TR "/function_profile_enabled", "1");
}

void fprof_stop(void)
{
	write_text(TR "/function_profile_enabled", "0");
	set_filter("");
}

int fprof_hits(const char *func, uint64_t *hits)
{
	static char buf[1 << 16];
	struct dirent *de;
	DIR *d;

	*hits = 0;
	d = opendir(TR "/trace_stat");
	if (!d)
		return fail("no %s/trace_stat", TR);
	while ((de = readdir(d))) {
		char path[300], *line, *save = NULL;

		if (strncmp(de->d_name, "function", 8))
			continue;
		snprintf(path, sizeof(path), TR "/trace_stat/%s", de->d_name);
		if (read_text(path, buf, sizeof(buf)) < 0)
			continue; /* a CPU that never ran it may have an empty file */
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char name[128];
			unsigned long long n;

			if (sscanf(line, "%127s %llu", name, &n) == 2 && !strcmp(name, func))
				*hits += n;
		}
	}
	closedir(d);
	return 0;
}
