#include "strbuf.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_slopbuf[1];

static void die_oom(void)
{
	fputs("fatal: out of memory\n", stderr);
	abort();
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need;
	int fresh = !sb->alloc;

	if (extra > (size_t)-1 - sb->len - 1)
		die_oom();
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t nalloc = sb->alloc ? sb->alloc : 64;
	while (nalloc < need)
		nalloc = nalloc < ((size_t)-1) / 2 ? nalloc * 2 : need;
	char *nbuf = realloc(fresh ? NULL : sb->buf, nalloc);
	if (!nbuf)
		die_oom();
	if (fresh)
		nbuf[0] = '\0';
	sb->buf = nbuf;
	sb->alloc = nalloc;
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) /* slopbuf: only length 0 is valid */
		return;
	if (len > sb->len)
		len = sb->len;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t limit)
{
	size_t oldlen = sb->len;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (limit && sb->len - oldlen + (size_t)n > limit) {
			errno = EFBIG;
			goto fail;
		}
		strbuf_add(sb, chunk, (size_t)n);
	}
	close(fd);
	return 0;
fail:
	{
		int saved = errno;
		close(fd);
		strbuf_setlen(sb, oldlen);
		errno = saved;
	}
	return -1;
}

void strbuf_tail(struct strbuf *sb, size_t max)
{
	size_t start;
	const char *nl;

	if (sb->len <= max)
		return;
	start = sb->len - max;
	nl = memchr(sb->buf + start, '\n', sb->len - start);
	if (nl && (size_t)(nl - sb->buf) + 1 < sb->len)
		start = (size_t)(nl - sb->buf) + 1;
	memmove(sb->buf, sb->buf + start, sb->len - start);
	sb->len -= start;
	sb->buf[sb->len] = '\0';
}
