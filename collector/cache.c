#include "cache.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

void fw_cache_root(char *out, size_t n)
{
	const char *c = getenv("FOLIOWATCH_CACHE"), *home = getenv("HOME");

	if (c && *c)
		snprintf(out, n, "%s", c);
	else
		snprintf(out, n, "%s/.cache/foliowatch", home && *home ? home : "/tmp");
}

void fw_kcache_root(struct strbuf *out)
{
	char root[4096];

	fw_cache_root(root, sizeof(root));
	strbuf_addstr(out, root);
}

int fw_mkdirs(const char *path)
{
	char tmp[4096];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return (mkdir(tmp, 0755) < 0 && errno != EEXIST) ? -1 : 0;
}
