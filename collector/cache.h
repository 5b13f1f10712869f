#ifndef FW_CACHE_H
#define FW_CACHE_H
#include "strbuf.h"
/* The collector's cache root: --cache, else $FOLIOWATCH_CACHE, else ~/.cache/foliowatch. */
void cache_root(struct strbuf *out, const char *override);
#endif
