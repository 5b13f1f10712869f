/*
 * Naming the field of a byte-level problem: a document's invalid UTF-8, a
 * "\u0000" escape (cJSON would silently cut the string there) or a duplicate
 * key is reported with its path ("results[2].params.order"), keys escaped so
 * that an error message never carries a raw newline or invalid UTF-8.
 */
#include "run-doc.h"
#include "utf8.h"
#include <stdio.h>
#include <string.h>

void fw_path_key(struct strbuf *sb, const char *key)
{
	if (sb->len)
		strbuf_addch(sb, '.');
	for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
		/* bytes of a whole character, 0 for a byte that starts none */
		size_t n = *p < 0x80 ? 1 : *p >= 0xc0 && *p < 0xe0 ? 2 : *p >= 0xe0 && *p < 0xf0 ? 3 : *p >= 0xf0 ? 4 : 0;

		if (n > 1 && (strnlen((const char *)p, n) < n || utf8_invalid_at((const char *)p, n) >= 0))
			n = 0;
		if (*p == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*p == '\t')
			strbuf_addstr(sb, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\u%04x", *p);
		else if (!n)
			strbuf_addf(sb, "\\x%02x", *p);  /* invalid UTF-8 stays visible, the path valid */
		else {
			strbuf_add(sb, p, n);
			p += n - 1;
		}
	}
}

/* Index (in document order, keys included) of the first string with a \u0000 escape, or -1. */
long fw_json_nul_escape_at(const char *s, size_t len)
{
	long idx = -1;
	int in_str = 0;

	for (size_t i = 0; i < len; i++) {
		if (!in_str) {
			if (s[i] == '"') {
				in_str = 1;
				idx++;
			}
		} else if (s[i] == '"') {
			in_str = 0;
		} else if (s[i] == '\\') {
			if (i + 5 < len && s[i + 1] == 'u' && !strncmp(s + i + 2, "0000", 4))
				return idx;
			i++;
		}
	}
	return -1;
}

struct find {
	long want;   /* string index to find, or -1: the first with invalid UTF-8 */
	long idx;
};

static int hit(struct find *f, const char *s)
{
	long i = f->idx++;

	return f->want >= 0 ? i == f->want : utf8_invalid_at(s, strlen(s)) >= 0;
}

/* Appends item's i-th member (c) to path. */
static void member(struct strbuf *path, const cJSON *item, const cJSON *c, int i)
{
	if (cJSON_IsObject(item))
		fw_path_key(path, c->string ? c->string : "");
	else
		strbuf_addf(path, "[%d]", i);
}

/* Walks keys and string values in document order; on a hit, path names it. */
static int find_string(const cJSON *item, struct strbuf *path, struct find *f)
{
	int i = 0;

	for (const cJSON *c = item->child; c; c = c->next, i++) {
		size_t mark = path->len;

		member(path, item, c, i);
		if ((cJSON_IsObject(item) && hit(f, c->string ? c->string : "")) ||
		    (cJSON_IsString(c) && hit(f, c->valuestring)) ||
		    ((cJSON_IsObject(c) || cJSON_IsArray(c)) && find_string(c, path, f)))
			return 1;
		strbuf_setlen(path, mark);
	}
	return 0;
}

int fw_json_string_path(const cJSON *doc, long nth, struct strbuf *path)
{
	struct find f = { nth, 0 };

	strbuf_setlen(path, 0);
	return find_string(doc, path, &f);
}

int fw_json_duplicate_key(const cJSON *item, struct strbuf *path)
{
	int i = 0;

	for (const cJSON *a = item->child; a; a = a->next, i++) {
		size_t mark = path->len;

		member(path, item, a, i);
		if (cJSON_IsObject(item))
			for (const cJSON *b = a->next; b; b = b->next)
				if (a->string && b->string && !strcmp(a->string, b->string))
					return 1;
		if ((cJSON_IsObject(a) || cJSON_IsArray(a)) && fw_json_duplicate_key(a, path))
			return 1;
		strbuf_setlen(path, mark);
	}
	return 0;
}
