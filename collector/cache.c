#include "cache.h"
#include <stdlib.h>

void cache_root(struct strbuf *out, const char *override)
{
	const char *env = getenv("FOLIOWATCH_CACHE"), *home = getenv("HOME");

	if (override && *override)
		strbuf_addstr(out, override);
	else if (env && *env)
		strbuf_addstr(out, env);
	else
		strbuf_addf(out, "%s/.cache/foliowatch", home && *home ? home : "/tmp");
}
