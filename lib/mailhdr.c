/* Mail header pieces: checks, RFC 2047 decoding and a header writer that escapes (see mailhdr.h). */
#include "mailhdr.h"
#include "utf8.h"
#include "xalloc.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ATEXT "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~"
#define FOLD_AT 78
#define WORD_MAX 60  /* bytes of one encoded-word: a header line stays under FOLD_AT */

int mail_msgid_valid(const char *s)
{
	size_t len = strlen(s);
	const char *at;

	if (len < 5 || len > FW_MSGID_MAX || s[0] != '<' || s[len - 1] != '>')
		return 0;
	for (size_t i = 1; i + 1 < len; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f || strchr("<>\"\\()[],;: ", s[i]))
			return 0;
	at = strchr(s, '@');
	return at && at > s + 1 && at < s + len - 2 && !strchr(at + 1, '@');
}

int mail_addr_spec_valid(const char *addr)
{
	const char *at = strrchr(addr, '@'), *p;
	size_t local;

	if (!at || strlen(addr) > 254 || strchr(addr, '@') != at)
		return 0;
	local = (size_t)(at - addr);
	if (!local || local > 64 || addr[0] == '.' || at[-1] == '.')
		return 0;
	for (p = addr; p < at; p++)
		if (!strchr(ATEXT ".", *p) || (*p == '.' && p[1] == '.'))
			return 0;
	for (p = at + 1;;) {  /* labels of 1..63 letters, digits and inner '-' */
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
		if (!n || n > 63 || p[0] == '-' || p[n - 1] == '-')
			return 0;
		if (!p[n])
			return 1;
		if (p[n] != '.')
			return 0;
		p += n + 1;
	}
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int b64val(int c)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(tab, c) : NULL;
	return p ? (int)(p - tab) : -1;
}

/* Decodes the text of one word into raw bytes; -1 on a malformed one. */
static int decode_text(char enc, const char *t, size_t n, struct strbuf *raw)
{
	unsigned acc = 0;
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		if (enc == 'Q') {
			if (t[i] == '_') {
				strbuf_addch(raw, ' ');
			} else if (t[i] == '=') {
				if (i + 2 >= n || hexval(t[i + 1]) < 0 || hexval(t[i + 2]) < 0)
					return -1;
				strbuf_addch(raw, hexval(t[i + 1]) * 16 + hexval(t[i + 2]));
				i += 2;
			} else {
				strbuf_addch(raw, t[i]);
			}
		} else if (t[i] != '=') {
			int v = b64val(t[i]);
			if (v < 0)
				return -1;
			acc = (acc << 6) | (unsigned)v;
			if ((bits += 6) >= 8) {
				bits -= 8;
				strbuf_addch(raw, (int)((acc >> bits) & 0xff));
			}
		}
	}
	return 0;
}

/* One "=?charset?Q|B?text?=" at p: appends it as UTF-8 and returns its length, or 0 when it is not one. */
static size_t decode_word(const char *p, struct strbuf *out)
{
	const char *cs = p + 2, *q = strchr(cs, '?'), *t, *end;
	struct strbuf raw = STRBUF_INIT;
	size_t cslen, used = 0;
	char enc;

	if (!q || !q[1] || q[2] != '?')
		return 0;
	enc = (char)toupper((unsigned char)q[1]);
	t = q + 3;
	end = strstr(t, "?=");
	cslen = strcspn(cs, "*?");  /* RFC 2231 language suffix ignored */
	if (!end || (enc != 'Q' && enc != 'B') || memchr(t, ' ', (size_t)(end - t)) ||
	    decode_text(enc, t, (size_t)(end - t), &raw))
		goto cleanup;
	if ((cslen == 5 && !strncasecmp(cs, "utf-8", 5)) || (cslen == 8 && !strncasecmp(cs, "us-ascii", 8))) {
		if (utf8_invalid_at(raw.buf, raw.len) >= 0 || memchr(raw.buf, '\0', raw.len))
			goto cleanup;
		strbuf_add(out, raw.buf, raw.len);
	} else if ((cslen == 10 && !strncasecmp(cs, "iso-8859-1", 10)) || (cslen == 6 && !strncasecmp(cs, "latin1", 6))) {
		for (size_t i = 0; i < raw.len; i++) {
			unsigned char c = (unsigned char)raw.buf[i];
			if (!c)
				goto cleanup;
			if (c < 0x80) {
				strbuf_addch(out, c);
			} else {
				strbuf_addch(out, 0xc0 | (c >> 6));
				strbuf_addch(out, 0x80 | (c & 0x3f));
			}
		}
	} else {
		goto cleanup;  /* another charset: the word stays as it is */
	}
	used = (size_t)(end + 2 - p);
cleanup:
	strbuf_release(&raw);
	return used;
}

void mail_decode_words(struct strbuf *out, const char *s)
{
	struct strbuf w = STRBUF_INIT;
	size_t after_word = 0;
	int last_word = 0;

	while (*s) {
		size_t n = 0;

		strbuf_reset(&w);
		if (s[0] == '=' && s[1] == '?')
			n = decode_word(s, &w);
		if (n) {
			if (last_word)  /* whitespace between two encoded-words is not part of the text */
				strbuf_setlen(out, after_word);
			strbuf_add(out, w.buf, w.len);
			after_word = out->len;
			last_word = 1;
			s += n;
			continue;
		}
		if (*s != ' ' && *s != '\t')
			last_word = 0;
		strbuf_addch(out, *s++);
	}
	strbuf_release(&w);
}

/* s with control characters as spaces and invalid UTF-8 as '?', spaces trimmed at both ends. */
static void clean(struct strbuf *sb, const char *s)
{
	size_t len = strlen(s), start = sb->len;

	for (size_t i = 0; i < len;) {
		long bad = utf8_invalid_at(s + i, len - i);
		size_t ok = bad < 0 ? len - i : (size_t)bad;
		for (size_t k = 0; k < ok; k++) {
			unsigned char c = (unsigned char)s[i + k];
			strbuf_addch(sb, c < 0x20 || c == 0x7f ? ' ' : c);
		}
		i += ok;
		if (i < len) {
			strbuf_addch(sb, '?');
			i++;
		}
	}
	while (sb->len > start && sb->buf[sb->len - 1] == ' ')
		strbuf_setlen(sb, sb->len - 1);
	len = strspn(sb->buf + start, " ");
	memmove(sb->buf + start, sb->buf + start + len, sb->len - start - len + 1);
	sb->len -= len;
}

static int needs_words(const char *s, size_t longest_word)
{
	size_t run = 0;

	if (strstr(s, "=?"))
		return 1;
	for (; *s; s++) {
		if ((unsigned char)*s >= 0x80)
			return 1;
		run = *s == ' ' ? 0 : run + 1;
		if (run > longest_word)
			return 1;
	}
	return 0;
}

/* Encoded-words (UTF-8, Q) of s, each at most WORD_MAX bytes, a character never split; sep between. */
static void add_words(struct strbuf *out, const char *s, const char *sep)
{
	size_t wlen = 0;

	strbuf_addstr(out, "=?UTF-8?Q?");
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4, cost = 0;
		for (size_t k = 0; k < n && s[k]; k++)
			cost += isalnum((unsigned char)s[k]) || s[k] == ' ' ? 1 : 3;
		if (wlen && wlen + cost > WORD_MAX - 12) {
			strbuf_addf(out, "?=%s=?UTF-8?Q?", sep);
			wlen = 0;
		}
		for (size_t k = 0; k < n && *s; k++, s++) {
			if (isalnum((unsigned char)*s))
				strbuf_addch(out, *s);
			else if (*s == ' ')
				strbuf_addch(out, '_');
			else
				strbuf_addf(out, "=%02X", (unsigned char)*s);
		}
		wlen += cost;
	}
	strbuf_addstr(out, "?=");
}

void mail_header_text(struct strbuf *out, const char *name, const char *value)
{
	struct strbuf v = STRBUF_INIT;
	size_t line;

	clean(&v, value);
	strbuf_addf(out, "%s:", name);
	if (needs_words(v.buf, FOLD_AT - 2)) {
		strbuf_addch(out, ' ');
		add_words(out, v.buf, "\n ");
		strbuf_addch(out, '\n');
		strbuf_release(&v);
		return;
	}
	line = strlen(name) + 1;
	for (char *w = strtok(v.buf, " "); w; w = strtok(NULL, " ")) {
		size_t n = strlen(w);
		if (line + 1 + n > FOLD_AT && line > strlen(name) + 1) {
			strbuf_addch(out, '\n');  /* fold: the space that follows starts the continuation */
			line = 0;
		}
		strbuf_addf(out, " %s", w);
		line += 1 + n;
	}
	strbuf_addch(out, '\n');
	strbuf_release(&v);
}

/* A display name: atoms as they are, other ASCII as a quoted-string, non-ASCII as encoded-words. */
static void add_phrase(struct strbuf *out, const char *name)
{
	struct strbuf v = STRBUF_INIT;

	clean(&v, name);
	if (needs_words(v.buf, FOLD_AT - 2)) {
		add_words(out, v.buf, " ");
	} else if (strspn(v.buf, ATEXT " ") == v.len) {
		strbuf_addstr(out, v.buf);
	} else {
		strbuf_addch(out, '"');
		for (const char *p = v.buf; *p; p++) {
			if (*p == '"' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '"');
	}
	strbuf_release(&v);
}

void mail_header_addrs(struct strbuf *out, const char *name, const struct mail_addr *list, int n)
{
	size_t line_start = out->len;

	strbuf_addf(out, "%s:", name);
	for (int i = 0; i < n; i++) {
		struct strbuf a = STRBUF_INIT;
		if (list[i].name && *list[i].name) {
			add_phrase(&a, list[i].name);
			strbuf_addch(&a, ' ');
		}
		strbuf_addf(&a, "<%s>", list[i].addr);  /* validated: mail_addr_spec_valid */
		if (i)
			strbuf_addch(out, ',');
		if (i && out->len - line_start + 1 + a.len > FOLD_AT) {
			strbuf_addch(out, '\n');
			line_start = out->len;
		}
		strbuf_addf(out, " %s", a.buf);
		strbuf_release(&a);
	}
	strbuf_addch(out, '\n');
}

static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

/* One entry ("Name <a@b>", "\"Q, N\" <a@b>" or "a@b") into a; -1 when it is none. */
static int parse_one(const char *s, size_t n, struct mail_addr *a)
{
	const char *lt = NULL, *gt;
	int inq = 0;
	char *name;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && inq && i + 1 < n)
			i++;
		else if (s[i] == '"')
			inq = !inq;
		else if (s[i] == '<' && !inq)
			lt = s + i;
	}
	if (!lt) {
		a->name = xstrdup("");
		a->addr = trimmed(s, n);
	} else {
		gt = memchr(lt, '>', n - (size_t)(lt - s));
		if (!gt)
			return -1;
		for (const char *r = gt + 1; r < s + n; r++)
			if (*r != ' ' && *r != '\t')
				return -1;
		a->addr = xstrndup(lt + 1, (size_t)(gt - lt - 1));
		name = trimmed(s, (size_t)(lt - s));
		if (name[0] == '"' && strlen(name) >= 2 && name[strlen(name) - 1] == '"') {
			char *w = name;  /* unquote in place: \x -> x */
			for (const char *r = name + 1; r < name + strlen(name) - 1; r++)
				*w++ = *r == '\\' && r[1] ? *++r : *r;
			*w = '\0';
		}
		a->name = name;
	}
	return mail_addr_spec_valid(a->addr) ? 0 : -1;
}

int mail_addrs_parse(const char *s, struct mail_addr **list, int *n, struct strbuf *err)
{
	int alloc = 0, inq = 0, angle = 0;
	const char *start = s;

	*list = NULL;
	*n = 0;
	for (const char *p = s;; p++) {
		if (*p == '\\' && inq && p[1]) {
			p++;
			continue;
		}
		if (*p == '"')
			inq = !inq;
		else if (!inq && (*p == '<' || *p == '>'))
			angle = *p == '<';
		if (*p && (*p != ',' || inq || angle))
			continue;
		if (p > start + strspn(start, " \t")) {
			struct mail_addr a = { 0 };
			if (parse_one(start, (size_t)(p - start), &a)) {
				int len = (int)(p - start);
				strbuf_addf(err, "not an address foliowatch writes into a header: \"%.*s\"",
					    UTF8_FIT(start, (size_t)len, 200));
				free(a.name);
				free(a.addr);
				mail_addrs_free(*list, *n);
				*list = NULL;
				*n = 0;
				return -1;
			}
			FW_ALLOC_GROW(*list, *n + 1, alloc);
			(*list)[(*n)++] = a;
		}
		if (!*p)
			break;
		start = p + 1;
	}
	return 0;
}

void mail_addrs_free(struct mail_addr *list, int n)
{
	for (int i = 0; i < n; i++) {
		free(list[i].name);
		free(list[i].addr);
	}
	free(list);
}
