#ifndef FW_XALLOC_H
#define FW_XALLOC_H
#include <stddef.h>

/*
 * Allocation policy: running out of memory (or a size that overflows) is not
 * recovered from; these print "foliowatch: out of memory (N bytes)" and abort.
 */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* The first n bytes of s (fewer at its NUL), NUL-terminated. */
char *xstrndup(const char *s, size_t n);

/* The new capacity for at least nr elements when alloc are there (git's alloc_nr). */
size_t fw_alloc_nr(size_t nr, size_t alloc);

/*
 * git's ALLOC_GROW: makes room for nr elements in ptr, whose capacity is
 * alloc (both updated); grows by half again plus 16, so that appending one
 * at a time is amortised linear. nr and alloc may be any integer type; a
 * capacity that does not fit alloc's type, or memory running out, aborts.
 *	FW_ALLOC_GROW(v, n + 1, alloc); v[n++] = x;
 */
#define FW_ALLOC_GROW(ptr, nr, alloc) do { \
	if ((size_t)(nr) > (size_t)(alloc)) { \
		size_t fw_cap_ = fw_alloc_nr((size_t)(nr), (size_t)(alloc)); \
		(ptr) = xreallocarray((ptr), fw_cap_, sizeof(*(ptr))); \
		(alloc) = fw_cap_; \
		if ((size_t)(alloc) != fw_cap_) \
			fw_alloc_overflow(); \
	} \
} while (0)
void fw_alloc_overflow(void) __attribute__((noreturn));
#endif
