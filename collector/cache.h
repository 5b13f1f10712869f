#ifndef FW_CACHE_H
#define FW_CACHE_H
#include <stddef.h>
#include "strbuf.h"

/* The collector's cache root: $FOLIOWATCH_CACHE, else ~/.cache/foliowatch. */
void fw_cache_root(char *out, size_t n);
void fw_kcache_root(struct strbuf *out);
/* mkdir -p: the cache may not exist yet on a fresh machine. 0 or -1 (errno set). */
int fw_mkdirs(const char *path);

#endif
