/* Result channel format 1: parse and classify a capture (see resultchan.h). */
#include "resultchan.h"
#include "utf8.h"
#include "xalloc.h"
#include "crc32.h"
#include "strbuf.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
	"begin", "param", "sample", "counters", "error", "info", "end", "profile",
};

const char *fw_chan_type_name(enum fw_chan_type t)
{
	return (unsigned)t < sizeof(type_names) / sizeof(type_names[0]) ? type_names[t] : "?";
}

const char *fw_chan_status_name(enum fw_chan_status s)
{
	switch (s) {
	case FW_CHAN_COMPLETE: return "complete";
	case FW_CHAN_TRUNCATED: return "truncated";
	case FW_CHAN_CORRUPT: return "corrupt";
	}
	return "?";
}

const char *fw_chan_get(const struct fw_chan_rec *r, const char *key)
{
	for (int i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

static void rec_free(struct fw_chan_rec *r)
{
	for (int i = 0; i < r->nkv; i++) {
		free(r->kv[i].key);
		free(r->kv[i].val);
	}
	free(r->kv);
	r->kv = NULL;
	r->nkv = r->akv = 0;
}

void fw_chan_release(struct fw_chan *c)
{
	for (size_t i = 0; i < c->nrec; i++)
		rec_free(&c->rec[i]);
	free(c->rec);
	memset(c, 0, sizeof(*c));
}

static void set_bad(struct fw_chan *c, enum fw_chan_status st, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set_bad(struct fw_chan *c, enum fw_chan_status st, int line, const char *fmt, ...)
{
	va_list ap;

	c->status = st;
	c->bad_line = line;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	/* guest bytes in the reason: never half a character at the buffer's end */
	utf8_trim_partial(c->why);
}

/* The bytes a writer may leave unencoded: [A-Za-z0-9._,:+-]. */
static int is_plain(unsigned char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '_' || ch == ',' || ch == ':' || ch == '+' || ch == '-';
}

static int hexval(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1; /* the contract says uppercase: lowercase %xx is not what a writer makes */
}

/*
 * Decodes s[0..n) into a new string. Rejects raw bytes outside the plain set,
 * bad escapes, and decoded NULs (C strings downstream); control characters are
 * rejected unless allow_ws (then \n and \t pass: error messages).
 */
static char *pct_decode(const char *s, size_t n, int allow_ws, const char **err)
{
	char *out = malloc(n + 1), *o = out;

	if (!out)
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '%') {
			if (i + 2 >= n) {
				*err = "truncated %-escape";
				goto fail;
			}
			int a = hexval((unsigned char)s[i + 1]), b = hexval((unsigned char)s[i + 2]);
			if (a < 0 || b < 0) {
				*err = "bad %-escape (two uppercase hex digits expected)";
				goto fail;
			}
			ch = (unsigned char)(a * 16 + b);
			i += 2;
			if (ch == 0) {
				*err = "%00 is not allowed";
				goto fail;
			}
			if ((ch < 0x20 && !(allow_ws && (ch == '\n' || ch == '\t'))) || ch == 0x7f) {
				*err = "control character in a value";
				goto fail;
			}
		} else if (!is_plain(ch)) {
			*err = "byte that should have been %-encoded";
			goto fail;
		}
		*o++ = (char)ch;
	}
	*o = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	/* decimal, no sign, no leading zeros: one spelling per number */
	if (!*s || (*s == '0' && s[1]) || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;

	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return -1; /* no "nan", "inf", hex floats or spaces */
	errno = 0;
	*out = strtod(s, &end);
	if (*end || !isfinite(*out))
		return -1;
	return 0;
}

/* Workload/variant/metric names become path segments and table keys. */
static const char *check_name(const char *v)
{
	if (!v)
		return "missing";
	if (!*v)
		return "empty";
	if (strlen(v) > 100)
		return "longer than 100 bytes";
	if (strchr(v, '/'))
		return "contains '/'";
	return NULL;
}

static int need_name(struct fw_chan *c, const struct fw_chan_rec *r, const char *key)
{
	const char *why = check_name(fw_chan_get(r, key));

	if (why) {
		set_bad(c, FW_CHAN_CORRUPT, r->line, "%s record: %s= %s", fw_chan_type_name(r->type), key, why);
		return -1;
	}
	return 0;
}

static int need_round(struct fw_chan *c, struct fw_chan_rec *r)
{
	const char *v = fw_chan_get(r, "round");
	unsigned long u;

	if (!v || parse_ulong(v, &u) || u > 1000000) {
		set_bad(c, FW_CHAN_CORRUPT, r->line, "%s record: round= missing or not a small integer",
			fw_chan_type_name(r->type));
		return -1;
	}
	r->round = (long)u;
	return 0;
}

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; v && allowed[i]; i++)
		if (!strcmp(v, allowed[i]))
			return 1;
	return 0;
}

/* A kernel symbol as the run document accepts it: 1..128 of [A-Za-z0-9_.]. */
static int symbol_ok(const char *v)
{
	size_t n = v ? strlen(v) : 0;

	return n >= 1 && n <= 128 &&
	       strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == n;
}

/* profile: workload= variant= fn= hits= time_us= [self_us=], bounded numbers. */
static int check_profile(struct fw_chan *c, struct fw_chan_rec *r)
{
	static const char *const keys[] = { "hits", "time_us", "self_us" };
	double d;

	if (need_name(c, r, "workload") || need_name(c, r, "variant"))
		return -1;
	if (!symbol_ok(fw_chan_get(r, "fn"))) {
		set_bad(c, FW_CHAN_CORRUPT, r->line, "profile record: fn= missing or not a kernel symbol");
		return -1;
	}
	for (int i = 0; i < 3; i++) {
		const char *v = fw_chan_get(r, keys[i]);

		if (!v && i == 2)
			continue;  /* self time is optional */
		if (!v || parse_double(v, &d) || d < 0 || d > 1e12 || (i == 0 && d != floor(d))) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "profile record: %s= missing or not a %s in 0..1e12",
				keys[i], i ? "number" : "whole number");
			return -1;
		}
	}
	return 0;
}

/* Per-type semantic checks: a complete capture must make a valid document. */
static int check_record(struct fw_chan *c, struct fw_chan_rec *r)
{
	static const char *const directions[] = { "lower_is_better", "higher_is_better", NULL };
	static const char *const kinds[] = { "time", "rate", "count", NULL };
	static const char *const counter_meta[] = { "workload", "variant", "round", NULL };
	unsigned long u;
	double d;

	if (r->type == FW_REC_BEGIN && r->seq != 0) {
		set_bad(c, FW_CHAN_CORRUPT, r->line, "begin record is not the first record");
		return -1;
	}
	if (r->type != FW_REC_BEGIN && r->seq == 0) {
		set_bad(c, FW_CHAN_CORRUPT, r->line, "first record is %s, not begin", fw_chan_type_name(r->type));
		return -1;
	}
	switch (r->type) {
	case FW_REC_BEGIN: {
		const char *fmt = fw_chan_get(r, "format"), *rounds = fw_chan_get(r, "rounds");
		if (!fmt || strcmp(fmt, "1")) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "begin record: format=%s is not 1",
				fmt ? fmt : "(missing)");
			return -1;
		}
		c->kernel = fw_chan_get(r, "kernel");
		c->profile = fw_chan_get(r, "profile");
		c->workloads = fw_chan_get(r, "workloads");
		c->rounds = rounds && !parse_ulong(rounds, &u) && u <= 1000000 ? (long)u : -1;
		return 0;
	}
	case FW_REC_PARAM:
		return need_name(c, r, "workload") || need_name(c, r, "variant") ? -1 : 0;
	case FW_REC_SAMPLE:
		if (need_name(c, r, "workload") || need_name(c, r, "variant") || need_name(c, r, "metric") ||
		    need_round(c, r))
			return -1;
		if (!fw_chan_get(r, "unit") || strlen(fw_chan_get(r, "unit")) > 32) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "sample record: unit= missing or too long");
			return -1;
		}
		if (!one_of(fw_chan_get(r, "direction"), directions) || !one_of(fw_chan_get(r, "kind"), kinds)) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "sample record: unknown direction= or kind=");
			return -1;
		}
		if (!fw_chan_get(r, "value") || parse_double(fw_chan_get(r, "value"), &r->value)) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "sample record: value= is not a finite number");
			return -1;
		}
		return 0;
	case FW_REC_COUNTERS:
		if (need_name(c, r, "workload") || need_name(c, r, "variant") || need_round(c, r))
			return -1;
		for (int i = 0; i < r->nkv; i++) {
			if (one_of(r->kv[i].key, counter_meta))
				continue;
			if (parse_double(r->kv[i].val, &d)) {
				set_bad(c, FW_CHAN_CORRUPT, r->line, "counters record: %.*s= is not a finite number",
					UTF8_CUT(r->kv[i].key, 64));
				return -1;
			}
		}
		return 0;
	case FW_REC_ERROR:
		if (need_name(c, r, "workload") || need_name(c, r, "variant"))
			return -1;
		if (!fw_chan_get(r, "msg") || !*fw_chan_get(r, "msg")) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "error record without msg=");
			return -1;
		}
		return 0;
	case FW_REC_INFO:
		return 0;
	case FW_REC_PROFILE:
		return check_profile(c, r);
	case FW_REC_END: {
		const char *n = fw_chan_get(r, "records");
		if (!n || parse_ulong(n, &u)) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "end record: records= missing or not a number");
			return -1;
		}
		if (u != r->seq) {
			set_bad(c, FW_CHAN_CORRUPT, r->line, "end record counts %lu records, %lu were received",
				u, r->seq);
			return -1;
		}
		return 0;
	}
	}
	return 0;
}

/* Parses one line (without its newline) into r; on failure sets c's reason. */
static int parse_line(struct fw_chan *c, const char *line, size_t len, int lineno, unsigned long want_seq,
		      struct fw_chan_rec *r)
{
	char crchex[9], want[9];
	size_t body, pos, tok;
	const char *err = NULL;
	int field = 0;

	memset(r, 0, sizeof(*r));
	r->line = lineno;
	if (len > FW_CHAN_MAX_LINE) {
		set_bad(c, FW_CHAN_CORRUPT, lineno, "line longer than %d bytes", FW_CHAN_MAX_LINE);
		return -1;
	}
	if (len < 4 || memcmp(line, "FW1 ", 4)) {
		set_bad(c, FW_CHAN_CORRUPT, lineno, "not a record (no \"FW1 \" prefix)");
		return -1;
	}
	if (len < 14 || line[len - 10] != ' ' || line[len - 9] != '*') {
		set_bad(c, FW_CHAN_CORRUPT, lineno, "no \" *<crc>\" at the end of the line");
		return -1;
	}
	memcpy(crchex, line + len - 8, 8);
	crchex[8] = '\0';
	body = len - 10;
	snprintf(want, sizeof(want), "%08x", (unsigned)crc32_update(0, line, body));
	if (strcmp(crchex, want)) {
		set_bad(c, FW_CHAN_CORRUPT, lineno, "bad crc %.8s (computed %s)", crchex, want);
		return -1;
	}
	/* tokens separated by single spaces: FW1 seq type k=v... */
	for (pos = 4; pos <= body; pos = tok + 1, field++) {
		const char *t = line + pos, *eq;
		size_t n;
		tok = pos;
		while (tok < body && line[tok] != ' ')
			tok++;
		n = tok - pos;
		if (!n) {
			set_bad(c, FW_CHAN_CORRUPT, lineno, "empty field (double space)");
			return -1;
		}
		if (field == 0) {
			char num[24];
			if (n >= sizeof(num)) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "sequence number too long");
				return -1;
			}
			memcpy(num, t, n);
			num[n] = '\0';
			if (parse_ulong(num, &r->seq)) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "bad sequence number");
				return -1;
			}
			if (r->seq != want_seq) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "sequence %lu where %lu was expected (%s)",
					r->seq, want_seq, r->seq > want_seq ? "gap" : "reordered or repeated");
				return -1;
			}
		} else if (field == 1) {
			size_t i;
			for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
				if (strlen(type_names[i]) == n && !memcmp(type_names[i], t, n))
					break;
			if (i == sizeof(type_names) / sizeof(type_names[0])) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "unknown record type \"%.*s\"",
					UTF8_FIT(t, n, 32));
				return -1;
			}
			r->type = (enum fw_chan_type)i;
		} else {
			struct fw_chan_kv kv;
			eq = memchr(t, '=', n);
			if (!eq || eq == t) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "field %d is not key=value", field + 1);
				return -1;
			}
			if (r->nkv >= FW_CHAN_MAX_KV) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "more than %d fields", FW_CHAN_MAX_KV);
				return -1;
			}
			kv.key = pct_decode(t, (size_t)(eq - t), 0, &err);
			kv.val = kv.key ? pct_decode(eq + 1, n - (size_t)(eq - t) - 1,
						    (size_t)(eq - t) == 3 && !memcmp(t, "msg", 3), &err) : NULL;
			if (!kv.val) {
				free(kv.key);
				set_bad(c, FW_CHAN_CORRUPT, lineno, "field %d: %s", field + 1, err);
				return -1;
			}
			if (fw_chan_get(r, kv.key)) {
				set_bad(c, FW_CHAN_CORRUPT, lineno, "key \"%.*s\" appears twice", UTF8_CUT(kv.key, 64));
				free(kv.key);
				free(kv.val);
				return -1;
			}
			FW_ALLOC_GROW(r->kv, r->nkv + 1, r->akv);
			r->kv[r->nkv++] = kv;
		}
	}
	if (field < 2) {
		set_bad(c, FW_CHAN_CORRUPT, lineno, "record without a type");
		return -1;
	}
	return check_record(c, r);
}

enum fw_chan_status fw_chan_parse(const char *buf, size_t len, struct fw_chan *c)
{
	size_t pos = 0;
	int lineno = 0, ended = 0;

	memset(c, 0, sizeof(*c));
	c->rounds = -1;
	c->status = FW_CHAN_TRUNCATED;
	if (len > FW_CHAN_MAX_BYTES) {
		set_bad(c, FW_CHAN_CORRUPT, 0, "capture larger than %u bytes", FW_CHAN_MAX_BYTES);
		return c->status;
	}
	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		struct fw_chan_rec r;
		int last_partial = !nl;

		pos += n + (nl ? 1 : 0);
		lineno++;
		/* The guest's tty may turn \n into \r\n (ONLCR): one \r is line ending, not data. */
		if (n && line[n - 1] == '\r')
			n--;
		if (!n)
			continue; /* blank lines carry nothing and are harmless */
		if (ended) {
			set_bad(c, FW_CHAN_CORRUPT, lineno, "data after the end record");
			return c->status;
		}
		if (c->nrec >= FW_CHAN_MAX_RECORDS) {
			set_bad(c, FW_CHAN_CORRUPT, lineno, "more than %d records", FW_CHAN_MAX_RECORDS);
			return c->status;
		}
		if (parse_line(c, line, n, lineno, c->nrec, &r)) {
			rec_free(&r);
			/* A cut-off last line (no newline) means the capture stopped mid-write. */
			if (last_partial && c->status == FW_CHAN_CORRUPT) {
				char why[sizeof(c->why)];
				memcpy(why, c->why, sizeof(why));
				set_bad(c, FW_CHAN_TRUNCATED, lineno, "capture ends inside line %d (%.*s)",
					lineno, UTF8_FIT(why, strlen(why), 200));
			}
			return c->status;
		}
		FW_ALLOC_GROW(c->rec, c->nrec + 1, c->alloc);
		c->rec[c->nrec++] = r;
		if (r.type == FW_REC_BEGIN) {
			/* check_record() pointed these into r's strings, which now live in the array */
			const struct fw_chan_rec *b = &c->rec[0];
			c->kernel = fw_chan_get(b, "kernel");
			c->profile = fw_chan_get(b, "profile");
			c->workloads = fw_chan_get(b, "workloads");
		}
		if (r.type == FW_REC_END)
			ended = 1;
	}
	if (ended) {
		c->status = FW_CHAN_COMPLETE;
		c->bad_line = 0;
		c->why[0] = '\0';
	} else if (!c->nrec) {
		set_bad(c, FW_CHAN_TRUNCATED, 0, "empty capture (no records at all)");
	} else {
		set_bad(c, FW_CHAN_TRUNCATED, 0, "no end record after %zu records", c->nrec);
	}
	return c->status;
}

enum fw_chan_status fw_chan_parse_file(const char *path, struct fw_chan *c)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_read_file(&sb, path, FW_CHAN_MAX_BYTES + 1) < 0) {
		int err = errno;
		/* no file: the guest never opened the port, which is an empty capture */
		fw_chan_parse("", 0, c);
		if (err == EFBIG)
			set_bad(c, FW_CHAN_CORRUPT, 0, "capture larger than %u bytes", FW_CHAN_MAX_BYTES);
		else if (err != ENOENT)
			set_bad(c, FW_CHAN_TRUNCATED, 0, "cannot read %s: %s", path, strerror(err));
		goto cleanup;
	}
	fw_chan_parse(sb.buf, sb.len, c);
cleanup:
	strbuf_release(&sb);
	return c->status;
}

void fw_chan_describe(const struct fw_chan *c, char *out, size_t n)
{
	if (c->status == FW_CHAN_COMPLETE)
		snprintf(out, n, "complete (%zu records)", c->nrec);
	else if (c->bad_line)
		snprintf(out, n, "%s at line %d: %s", fw_chan_status_name(c->status), c->bad_line, c->why);
	else
		snprintf(out, n, "%s: %s", fw_chan_status_name(c->status), c->why);
}
