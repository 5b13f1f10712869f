/* Allocation that aborts with a message instead of returning NULL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"

static void __attribute__((noreturn)) oom(size_t n)
{
	fprintf(stderr, "foliowatch: out of memory (%zu bytes)\n", n);
	abort();
}

void fw_alloc_overflow(void)
{
	fputs("foliowatch: allocation size overflow\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		fw_alloc_overflow();
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		fw_alloc_overflow();
	return xrealloc(p, nmemb * size);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom(strlen(s) + 1);
	return d;
}

size_t fw_alloc_nr(size_t nr, size_t alloc)
{
	size_t grown;

	if (alloc > (SIZE_MAX - 16) / 3 * 2)
		fw_alloc_overflow();
	grown = (alloc + 16) * 3 / 2;
	return grown < nr ? nr : grown;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n + 1);
	return p;
}
