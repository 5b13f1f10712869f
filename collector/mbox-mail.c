/* Mail headers of the messages of an mbox (see mbox-mail.h). */
#include "mbox-mail.h"
#include "mailhdr.h"
#include "utf8.h"
#include "xalloc.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "From <sender> <asctime date>": ends in " HH:MM:SS YYYY", as git mailsplit checks (not body text). */
static int is_from_line(const char *line, size_t ll)
{
	static const char shape[] = " dd:dd:dd dddd";
	const char *t = line + ll - (sizeof(shape) - 1);

	if (ll < 5 + sizeof(shape) || memcmp(line, "From ", 5))
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? t[i] < '0' || t[i] > '9' : t[i] != shape[i])
			return 0;
	return 1;
}

/* "k/N" inside the subject's first [...]: number and total, else -1. */
static void patch_number(struct fw_mail *m)
{
	const char *open = m->subject ? strchr(m->subject, '[') : NULL, *close = open ? strchr(open, ']') : NULL;

	m->number = m->total = -1;
	for (const char *p = open; p && p < close; p++) {
		char *end;
		long k, total;
		if (*p < '0' || *p > '9' || (p > open && p[-1] >= '0' && p[-1] <= '9'))
			continue;
		k = strtol(p, &end, 10);
		if (*end != '/' || end[1] < '0' || end[1] > '9')
			continue;
		total = strtol(end + 1, &end, 10);
		if (end <= close && total > 0 && total < 100000 && k >= 0 && k <= total) {
			m->number = (int)k;
			m->total = (int)total;
		}
	}
}

int fw_mail_is_cover(const struct fw_mail *m)
{
	return m->number == 0;
}

/* The value as stored: decoded, no control characters, valid UTF-8, within max; NULL otherwise. */
static char *value_of(const char *raw, size_t max)
{
	struct strbuf v = STRBUF_INIT;

	mail_decode_words(&v, raw + strspn(raw, " \t"));
	for (size_t i = 0; i < v.len; i++)
		if ((unsigned char)v.buf[i] < 0x20 || v.buf[i] == 0x7f)
			v.buf[i] = ' ';
	while (v.len && v.buf[v.len - 1] == ' ')
		strbuf_setlen(&v, v.len - 1);
	if (!v.len || v.len > max || utf8_invalid_at(v.buf, v.len) >= 0) {
		strbuf_release(&v);
		return NULL;
	}
	return strbuf_detach(&v, NULL);
}

/* To and Cc may come in several headers: one list. */
static void add_addrs(char **dst, const char *raw)
{
	char *v = value_of(raw, FW_MAIL_ADDRS_MAX);
	struct strbuf all = STRBUF_INIT;

	if (!v)
		return;
	if (*dst)
		strbuf_addf(&all, "%s, ", *dst);
	strbuf_addstr(&all, v);
	free(v);
	free(*dst);
	*dst = all.len <= FW_MAIL_ADDRS_MAX ? strbuf_detach(&all, NULL) : NULL;
	strbuf_release(&all);
}

static void header_field(struct fw_mail *m, const char *h)
{
	const char *colon = strchr(h, ':');
	size_t nlen = colon ? (size_t)(colon - h) : 0;
	const char *v = colon ? colon + 1 : NULL;

#define IS(name) (nlen == strlen(name) && !strncasecmp(h, name, nlen))
	if (!v)
		return;
	if (IS("Message-ID") && !m->message_id) {
		char *id = value_of(v, FW_MSGID_MAX);
		if (id && mail_msgid_valid(id))
			m->message_id = id;
		else
			free(id);
	} else if (IS("From") && !m->from) {
		m->from = value_of(v, FW_MAIL_FROM_MAX);
	} else if (IS("Subject") && !m->subject) {
		m->subject = value_of(v, FW_MAIL_SUBJECT_MAX);
	} else if (IS("To")) {
		add_addrs(&m->to, v);
	} else if (IS("Cc")) {
		add_addrs(&m->cc, v);
	}
#undef IS
}

struct fw_mail *fw_mbox_read(const char *text, size_t len, int *n)
{
	struct fw_mail *m = NULL;
	struct strbuf h = STRBUF_INIT;  /* the header being unfolded */
	int alloc = 0, in_header = 0, prev_blank = 1;

	*n = 0;
	for (const char *line = text, *end = text + len; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t ll = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (ll && line[ll - 1] == '\r')
			ll--;
		if (prev_blank && is_from_line(line, ll)) {
			FW_ALLOC_GROW(m, *n + 1, alloc);
			memset(&m[*n], 0, sizeof(*m));
			(*n)++;
			in_header = 1;
		} else if (in_header && (line[0] == ' ' || line[0] == '\t') && ll) {
			strbuf_add(&h, line, ll);  /* unfolding keeps the whitespace, drops the line break */
		} else if (in_header) {
			if (h.len)
				header_field(&m[*n - 1], h.buf);
			strbuf_reset(&h);
			if (!ll)
				in_header = 0;
			else
				strbuf_add(&h, line, ll);
		}
		prev_blank = ll == 0;
		line = nl ? nl + 1 : end;
	}
	if (in_header && h.len)
		header_field(&m[*n - 1], h.buf);
	for (int i = 0; i < *n; i++)
		patch_number(&m[i]);
	strbuf_release(&h);
	return m;
}

void fw_mail_free(struct fw_mail *m, int n)
{
	for (int i = 0; i < n; i++) {
		free(m[i].message_id);
		free(m[i].from);
		free(m[i].to);
		free(m[i].cc);
		free(m[i].subject);
	}
	free(m);
}
