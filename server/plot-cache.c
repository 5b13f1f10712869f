/*
 * Keeping the plot cache bounded. Every new sample changes the data of a
 * series' plots and so their hash: without pruning, a server that CI posts
 * to all day fills its disk with superseded SVGs. A hit refreshes the file's
 * atime (set explicitly, so noatime mounts work too); pruning removes files
 * unused for max_age, then the least recently used until the folder is under
 * max_bytes, plus temp folders a killed render left behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plot.h"
#include "xalloc.h"

struct cached {
	char *name;
	off_t size;
	time_t used;
};

void fw_plot_cache_touch(const char *path)
{
	const struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };

	utimensat(AT_FDCWD, path, ts, 0);
}

/* <64 hex>.svg or .png: the only files the cache writes under their final name. */
static int is_plot(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return n == 64 && (!strcmp(name + n, ".svg") || !strcmp(name + n, ".png"));
}

static int by_use(const void *a, const void *b)
{
	const struct cached *x = a, *y = b;

	return (x->used > y->used) - (x->used < y->used);
}

/* A render's temp folder (tmp-*.d), or its output's temp (.HASH.svg.tmp-*, fw_atomic_temp). */
static int is_temp(const char *name)
{
	return !strncmp(name, "tmp-", 4) || (name[0] == '.' && strstr(name, ".tmp-"));
}

/* A render's temp folder (tmp-*.d) with its two files. */
static void remove_tmp(int dfd, const char *name)
{
	char sub[600];

	snprintf(sub, sizeof(sub), "%s/data", name);
	unlinkat(dfd, sub, 0);
	snprintf(sub, sizeof(sub), "%s/plot.gp", name);
	unlinkat(dfd, sub, 0);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

int fw_plot_cache_prune(const char *dir, unsigned long long max_bytes, time_t max_age, time_t now,
			struct fw_plot_prune *out)
{
	struct cached *v = NULL;
	size_t n = 0, cap = 0;
	unsigned long long total = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int dfd;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -1;
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		struct stat st;

		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		/* Renders take seconds (gnuplot is killed at 20 s): an hour-old temp is debris. */
		if (is_temp(de->d_name) && st.st_mtime < now - 3600) {
			if (S_ISDIR(st.st_mode))
				remove_tmp(dfd, de->d_name);
			else
				unlinkat(dfd, de->d_name, 0);
			out->temps++;
			continue;
		}
		if (!S_ISREG(st.st_mode) || !is_plot(de->d_name))
			continue;
		if (st.st_atime < now - max_age) {
			if (!unlinkat(dfd, de->d_name, 0)) {
				out->removed++;
				out->freed += (unsigned long long)st.st_size;
			}
			continue;
		}
		FW_ALLOC_GROW(v, n + 1, cap);
		v[n].name = xstrdup(de->d_name);
		v[n].size = st.st_size;
		v[n].used = st.st_atime;
		total += (unsigned long long)st.st_size;
		n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_use);  /* v is NULL when the folder holds no plot */
	for (size_t i = 0; i < n && total > max_bytes; i++) {
		if (!unlinkat(dfd, v[i].name, 0)) {
			total -= (unsigned long long)v[i].size;
			out->removed++;
			out->freed += (unsigned long long)v[i].size;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	out->kept_bytes = total;
	closedir(d);
	return 0;
}
