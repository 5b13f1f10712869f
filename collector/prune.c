#include "prune.h"
#include "xalloc.h"
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "strbuf.h"

struct aged {
	char *path;
	time_t mtime;
};

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int newest_first(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;
	return x->mtime < y->mtime ? 1 : x->mtime > y->mtime ? -1 : 0;
}

/* Subfolders of dir whose name starts with prefix ("" = any), with their mtimes. */
static int list_dirs(const char *dir, const char *prefix, struct aged **out, int *n, int *alloc)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct strbuf p = STRBUF_INIT;
		struct stat st;
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) || !strcmp(e->d_name, "index"))
			continue;
		strbuf_addf(&p, "%s/%s", dir, e->d_name);
		if (stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
			struct aged *na;

			FW_ALLOC_GROW(*out, *n + 1, *alloc);
			na = *out;
			na[*n].path = strbuf_detach(&p, NULL);
			na[*n].mtime = st.st_mtime;
			(*n)++;
		}
		strbuf_release(&p);
	}
	closedir(d);
	return 0;
}

int fw_prune_cache(const char *cache, int days, int keep)
{
	struct strbuf dir = STRBUF_INIT;
	struct aged *k = NULL, *b = NULL;
	int nk = 0, nb = 0, ak = 0, ab = 0, removed = 0;
	time_t cutoff = time(NULL) - (time_t)days * 86400;
	DIR *runs;
	struct dirent *e;

	strbuf_addf(&dir, "%s/kernels", cache);
	list_dirs(dir.buf, "", &k, &nk, &ak);
	if (nk) /* qsort(NULL, 0) is undefined: an empty cache has no kernels */
		qsort(k, (size_t)nk, sizeof(*k), newest_first);
	for (int i = 0; i < nk; i++) {
		if (i >= keep && k[i].mtime < cutoff && !nftw(k[i].path, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
			removed++;
		free(k[i].path);
	}
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/runs", cache);
	if ((runs = opendir(dir.buf))) {
		while ((e = readdir(runs))) {
			struct strbuf work = STRBUF_INIT;
			if (e->d_name[0] == '.')
				continue;
			strbuf_addf(&work, "%s/%s/work", dir.buf, e->d_name);
			list_dirs(work.buf, "boot-", &b, &nb, &ab);
			strbuf_release(&work);
		}
		closedir(runs);
	}
	for (int i = 0; i < nb; i++) {
		if (b[i].mtime < cutoff && !nftw(b[i].path, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
			removed++;
		free(b[i].path);
	}
	free(k);
	k = NULL;
	nk = ak = 0;
	/* git am checkouts live seconds; one older than an hour is a killed run's */
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/am", cache);
	list_dirs(dir.buf, "", &k, &nk, &ak);
	for (int i = 0; i < nk; i++) {
		if (k[i].mtime < time(NULL) - FW_PRUNE_AM_SECONDS && !nftw(k[i].path, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
			removed++;
		free(k[i].path);
	}
	free(k);
	free(b);
	strbuf_release(&dir);
	return removed;
}
