#ifndef FW_STRBUF_H
#define FW_STRBUF_H
#include <stddef.h>
#include <stdarg.h>

/*
 * A growable string buffer (after git's strbuf.h).
 * Invariants: buf is never NULL; buf[len] == '\0'; len < alloc unless alloc == 0,
 * in which case buf points at a shared empty string and must not be written.
 * Allocation failure aborts: every caller would otherwise have to handle it
 * and none could do better.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Reads a whole file; returns -1 (errno set) on error, leaving sb as it was. */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t limit);
/* Keeps the last max bytes (at a line start when possible): for log tails. */
void strbuf_tail(struct strbuf *sb, size_t max);

#endif
