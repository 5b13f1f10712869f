/* Field-by-field validation of a run document; every error names its field path. */
#include "run-doc.h"
#include "mailhdr.h"
#include "sha256.h"
#include "utf8.h"
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

enum { OPTIONAL = 0, REQUIRED = 1 };

struct ctx {
	struct fw_error *e;
	char path[256];
};

/* Field path helpers: "parent.key" and "parent[i]". */
static void sub_key(char *out, size_t n, const char *parent, const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, parent);
	fw_path_key(&sb, key);  /* keys from the document: control characters escaped */
	if (snprintf(out, n, "%s", sb.buf) >= (int)n)
		out[n - 2] = '~'; /* truncated path: mark it */
	strbuf_release(&sb);
}

static void sub_idx(char *out, size_t n, const char *parent, int i)
{
	if (snprintf(out, n, "%s[%d]", parent, i) >= (int)n)
		out[n - 2] = '~';
}

static int has_control_chars(const char *s, int allow_newlines)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && !(allow_newlines && (*p == '\n' || *p == '\t' || *p == '\r'))) ||
		    *p == 0x7f)
			return 1;
	return 0;
}

const char *fw_text_problem(const char *s, size_t minlen, size_t maxlen, int multiline)
{
	size_t len = strlen(s);

	if (utf8_invalid_at(s, len) >= 0)
		return "must be valid UTF-8";
	if (len < minlen || len > maxlen)
		return "length is outside the allowed bytes";
	if (has_control_chars(s, multiline))
		return multiline ? "control characters other than \\n, \\t and \\r are not allowed"
				 : "control characters are not allowed";
	return NULL;
}

enum str_rule { TEXT, MULTILINE, NAME_NO_SLASH, HEX64 };

static const cJSON *get_string(struct ctx *c, const cJSON *obj, const char *parent,
			       const char *key, int required, size_t minlen, size_t maxlen,
			       enum str_rule rule)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t len;

	sub_key(path, sizeof(path), parent, key);
	if (!v || cJSON_IsNull(v)) {
		if (required)
			fw_error_set(c->e, path, "required string is missing");
		return NULL;
	}
	if (!cJSON_IsString(v)) {
		fw_error_set(c->e, path, "must be a string");
		return NULL;
	}
	len = strlen(v->valuestring);
	if (len < minlen || len > maxlen) {
		fw_error_set(c->e, path, "length %zu is outside %zu..%zu", len, minlen, maxlen);
		return NULL;
	}
	if (has_control_chars(v->valuestring, rule == MULTILINE)) {
		fw_error_set(c->e, path, "control characters are not allowed");
		return NULL;
	}
	if (rule == NAME_NO_SLASH && strchr(v->valuestring, '/')) {
		fw_error_set(c->e, path, "'/' is not allowed (names are path segments)");
		return NULL;
	}
	if (rule == HEX64 && (len != 64 || strspn(v->valuestring, "0123456789abcdef") != 64)) {
		fw_error_set(c->e, path, "must be 64 lowercase hex digits (sha256)");
		return NULL;
	}
	return v;
}

/* For optional fields, *ok tells a failed check apart from an absent field. */
#define STR(obj, parent, key, req, lo, hi, rule) \
	do { if (!get_string(c, obj, parent, key, req, lo, hi, rule) && (req || c->e->field[0] || c->e->detail[0])) return -1; } while (0)

static int get_number(struct ctx *c, const cJSON *obj, const char *parent, const char *key,
		      int required, double lo, double hi, int integer, double *out)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	sub_key(path, sizeof(path), parent, key);
	if (!v || cJSON_IsNull(v)) {
		if (!required)
			return 1;
		fw_error_set(c->e, path, "required number is missing");
		return -1;
	}
	if (!cJSON_IsNumber(v)) {
		fw_error_set(c->e, path, "must be a number");
		return -1;
	}
	if (!isfinite(v->valuedouble)) {
		fw_error_set(c->e, path, "not a finite number");
		return -1;
	}
	if (integer && v->valuedouble != floor(v->valuedouble)) {
		fw_error_set(c->e, path, "must be an integer");
		return -1;
	}
	if (v->valuedouble < lo || v->valuedouble > hi) {
		fw_error_set(c->e, path, "%g is outside %g..%g", v->valuedouble, lo, hi);
		return -1;
	}
	if (out)
		*out = v->valuedouble;
	return 0;
}

#define NUM(obj, parent, key, req, lo, hi, integer, out) \
	do { if (get_number(c, obj, parent, key, req, lo, hi, integer, out) < 0) return -1; } while (0)

/* An optional true/false: 0, or -1 (said) when it is there and not a boolean. */
static int opt_bool(struct ctx *c, const cJSON *obj, const char *parent, const char *key)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	sub_key(path, sizeof(path), parent, key);
	if (v && !cJSON_IsBool(v)) {
		fw_error_set(c->e, path, "must be true or false");
		return -1;
	}
	return 0;
}

static const cJSON *get_object(struct ctx *c, const cJSON *obj, const char *parent, const char *key)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	sub_key(path, sizeof(path), parent, key);
	if (!cJSON_IsObject(v)) {
		fw_error_set(c->e, path, v ? "must be an object" : "required object is missing");
		return NULL;
	}
	return v;
}

static int one_of(struct ctx *c, const cJSON *obj, const char *parent, const char *key,
		  const char *const *allowed)
{
	char path[256];
	const cJSON *v = get_string(c, obj, parent, key, REQUIRED, 1, 64, TEXT);

	if (!v)
		return -1;
	for (int i = 0; allowed[i]; i++)
		if (!strcmp(v->valuestring, allowed[i]))
			return i;
	sub_key(path, sizeof(path), parent, key);
	fw_error_set(c->e, path, "\"%.*s\" is not one of the allowed values", UTF8_CUT(v->valuestring, 64));
	return -1;
}

/*
 * created_at: ISO 8601 UTC in the one form the collector writes,
 * YYYY-MM-DDTHH:MM:SSZ, optionally with 1-9 digits of fractional seconds
 * before the Z (JavaScript's toISOString() writes .sss). No offsets, not even
 * +00:00, and no lowercase t/z, so stored times compare as text (to the
 * second). The calendar is checked too (month lengths, leap years); seconds
 * go to 60 (a leap second, as RFC 3339 allows).
 */
static int is_utc_time(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	const char *t;
	int y, mo, d, n = 0;

	for (int i = 0; shape[i]; i++)  /* stops at a NUL: no shape character is one */
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return 0;
	t = s + sizeof(shape) - 1;
	if (*t == '.') {
		while (t[1 + n] >= '0' && t[1 + n] <= '9')
			n++;
		if (n < 1 || n > 9)
			return 0;
		t += 1 + n;
	}
	if (strcmp(t, "Z"))
		return 0;
#define D2(i) ((s[i] - '0') * 10 + (s[(i) + 1] - '0'))
	y = D2(0) * 100 + D2(2);
	mo = D2(5);
	d = D2(8);
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || D2(11) > 23 || D2(14) > 59 || D2(17) > 60)
		return 0;
#undef D2
	return !(mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

static const char *const accels[] = { "kvm", "tcg", "icount", NULL };
static const char *const build_statuses[] = { "ok", "failed", NULL };
static const char *const boot_statuses[] = {
	"ok", "panic", "oops", "warn", "timeout", "error", "not_run", NULL };
static const char *const directions[] = { "lower_is_better", "higher_is_better", NULL };
static const char *const kinds[] = { "time", "rate", "count", NULL };

/*
 * Optional mail headers from an mbox: series.cover and commit.mail (issue 16).
 * Header text goes into a reply, so the same rules as every string (no
 * control characters: no CR/LF) plus a Message-ID that is one.
 */
static int check_mail(struct ctx *c, const cJSON *parent, const char *ppath, const char *key, int full)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(parent, key), *id;
	char path[256];

	if (!m || cJSON_IsNull(m))
		return 0;
	sub_key(path, sizeof(path), ppath, key);
	if (!(m = get_object(c, parent, ppath, key)))
		return -1;
	id = get_string(c, m, path, "message_id", OPTIONAL, 5, FW_MSGID_MAX, TEXT);
	if (!id && c->e->detail[0])
		return -1;
	if (id && !mail_msgid_valid(id->valuestring)) {
		char p[256];
		sub_key(p, sizeof(p), path, "message_id");
		fw_error_set(c->e, p, "not a Message-ID (<left@right>, printable ASCII without spaces)");
		return -1;
	}
	STR(m, path, "subject", OPTIONAL, 1, 1000, TEXT);
	if (!full)
		return 0;
	STR(m, path, "from", OPTIONAL, 1, 500, TEXT);
	STR(m, path, "to", OPTIONAL, 1, 8000, TEXT);
	STR(m, path, "cc", OPTIONAL, 1, 8000, TEXT);
	return 0;
}

static int check_identity(struct ctx *c, const cJSON *doc)
{
	const cJSON *tree, *series, *commit;

	if (!(tree = get_object(c, doc, "", "tree")))
		return -1;
	STR(tree, "tree", "name", REQUIRED, 1, 200, TEXT);
	STR(tree, "tree", "url", OPTIONAL, 0, 1000, TEXT);
	if (!(series = get_object(c, doc, "", "series")))
		return -1;
	STR(series, "series", "name", REQUIRED, 1, 200, TEXT);
	NUM(series, "series", "revision", OPTIONAL, 1, 10000, 1, NULL);
	STR(series, "series", "base", REQUIRED, 1, 200, TEXT);
	if (check_mail(c, series, "series", "cover", 0) || opt_bool(c, series, "series", "watched"))
		return -1;
	if (!(commit = get_object(c, doc, "", "commit")))
		return -1;
	STR(commit, "commit", "sha", REQUIRED, 1, 100, TEXT);
	STR(commit, "commit", "key", REQUIRED, 1, 200, TEXT);
	STR(commit, "commit", "subject", REQUIRED, 0, 1000, TEXT);
	STR(commit, "commit", "author", REQUIRED, 0, 500, TEXT);
	NUM(commit, "commit", "position", REQUIRED, 0, 100000, 1, NULL);
	STR(commit, "commit", "parent", OPTIONAL, 1, 100, TEXT);
	return check_mail(c, commit, "commit", "mail", 1);
}

static int check_build_env_boot(struct ctx *c, const cJSON *doc, int *build_failed, int *not_run)
{
	const cJSON *build, *env, *boot, *cfg;
	char fp[65];
	int st;

	if (!(build = get_object(c, doc, "", "build")))
		return -1;
	if ((st = one_of(c, build, "build", "status", build_statuses)) < 0)
		return -1;
	*build_failed = st == 1;
	NUM(build, "build", "seconds", OPTIONAL, 0, 1e7, 0, NULL);
	STR(build, "build", "kernel_version", REQUIRED, 0, 100, TEXT);
	STR(build, "build", "config_hash", REQUIRED, 64, 64, HEX64);
	STR(build, "build", "compiler", REQUIRED, 0, 200, TEXT);
	STR(build, "build", "log_tail", OPTIONAL, 0, 65536, MULTILINE);
	cfg = get_string(c, build, "build", "config", OPTIONAL, 1, 512 * 1024, MULTILINE);
	if (!cfg && c->e->detail[0])
		return -1;
	if (cfg) {
		char h[65];
		sha256_hex(cfg->valuestring, strlen(cfg->valuestring), h);
		if (strcmp(h, fw_json_str(build, "config_hash", ""))) {
			fw_error_set(c->e, "build.config_hash", "does not match sha256 of build.config");
			return -1;
		}
	}

	if (!(env = get_object(c, doc, "", "environment")))
		return -1;
	STR(env, "environment", "host", REQUIRED, 1, 200, TEXT);
	if (one_of(c, env, "environment", "accel", accels) < 0)
		return -1;
	STR(env, "environment", "qemu_version", REQUIRED, 0, 200, TEXT);
	NUM(env, "environment", "vcpus", REQUIRED, 1, 4096, 1, NULL);
	NUM(env, "environment", "memory_mib", REQUIRED, 1, 1 << 24, 1, NULL);
	STR(env, "environment", "host_kernel", REQUIRED, 0, 200, TEXT);
	STR(env, "environment", "cpu_model", REQUIRED, 0, 200, TEXT);
	STR(env, "environment", "foliowatch_version", REQUIRED, 0, 100, TEXT);
	STR(env, "environment", "fio_version", REQUIRED, 0, 100, TEXT);
	STR(env, "environment", "fingerprint", REQUIRED, 64, 64, HEX64);
	fw_env_fingerprint(env, fp);
	if (strcmp(fp, fw_json_str(env, "fingerprint", ""))) {
		fw_error_set(c->e, "environment.fingerprint",
			     "does not match the environment's fields (expected %s)", fp);
		return -1;
	}

	if (!(boot = get_object(c, doc, "", "boot")))
		return -1;
	if ((st = one_of(c, boot, "boot", "status", boot_statuses)) < 0)
		return -1;
	*not_run = st == 6;
	if (*build_failed && !*not_run) {
		fw_error_set(c->e, "boot.status", "must be \"not_run\" when build.status is \"failed\"");
		return -1;
	}
	NUM(boot, "boot", "taint", OPTIONAL, 0, 4294967295.0, 1, NULL);
	NUM(boot, "boot", "seconds", OPTIONAL, 0, 1e7, 0, NULL);
	STR(boot, "boot", "qemu_cmdline", OPTIONAL, 0, 8192, TEXT);
	STR(boot, "boot", "kernel_cmdline", OPTIONAL, 0, 4096, TEXT);
	STR(boot, "boot", "log_tail", OPTIONAL, 0, 65536, MULTILINE);
	NUM(boot, "boot", "parallel", OPTIONAL, 1, 4096, 1, NULL);
	if (cJSON_GetObjectItemCaseSensitive(boot, "phases")) {
		const cJSON *ph = get_object(c, boot, "boot", "phases");
		if (!ph)
			return -1;
		NUM(ph, "boot.phases", "kernel_up_s", OPTIONAL, 0, 1e7, 0, NULL);
		NUM(ph, "boot.phases", "workloads_s", OPTIONAL, 0, 1e7, 0, NULL);
		NUM(ph, "boot.phases", "profiling_s", OPTIONAL, 0, 1e7, 0, NULL);
		NUM(ph, "boot.phases", "shutdown_s", OPTIONAL, 0, 1e7, 0, NULL);
	}
	return 0;
}

static int check_scalar_object(struct ctx *c, const cJSON *obj, const char *path, int numbers_only,
			       int max_keys)
{
	int n = 0;
	const cJSON *v;

	if (!cJSON_IsObject(obj)) {
		fw_error_set(c->e, path, "must be an object");
		return -1;
	}
	cJSON_ArrayForEach(v, obj) {
		char p[256];
		sub_key(p, sizeof(p), path, v->string);
		if (++n > max_keys) {
			fw_error_set(c->e, path, "more than %d keys", max_keys);
			return -1;
		}
		if (!*v->string || strlen(v->string) > 100 || has_control_chars(v->string, 0)) {
			fw_error_set(c->e, p, "key must be 1..100 characters without control characters");
			return -1;
		}
		if (cJSON_IsNumber(v)) {
			if (!isfinite(v->valuedouble)) {
				fw_error_set(c->e, p, "not a finite number");
				return -1;
			}
		} else if (numbers_only) {
			fw_error_set(c->e, p, "must be a number");
			return -1;
		} else if (cJSON_IsString(v)) {
			if (strlen(v->valuestring) > 1000 || has_control_chars(v->valuestring, 0)) {
				fw_error_set(c->e, p, "must be at most 1000 characters without control characters");
				return -1;
			}
		} else if (!cJSON_IsBool(v)) {
			fw_error_set(c->e, p, "must be a string, number or boolean");
			return -1;
		}
	}
	return 0;
}

static int check_result(struct ctx *c, const cJSON *r, const char *path)
{
	const cJSON *samples, *counters, *err, *params, *v;
	char p[256];
	int n = 0, i = 0;

	if (!cJSON_IsObject(r)) {
		fw_error_set(c->e, path, "must be an object");
		return -1;
	}
	STR(r, path, "workload", REQUIRED, 1, FW_DOC_MAX_NAME, NAME_NO_SLASH);
	STR(r, path, "variant", REQUIRED, 1, FW_DOC_MAX_NAME, NAME_NO_SLASH);
	STR(r, path, "metric", REQUIRED, 1, FW_DOC_MAX_NAME, NAME_NO_SLASH);
	STR(r, path, "unit", REQUIRED, 0, 32, TEXT);
	if (one_of(c, r, path, "direction", directions) < 0 || one_of(c, r, path, "kind", kinds) < 0)
		return -1;
	NUM(r, path, "min_effect_pct", OPTIONAL, 0, 100, 0, NULL);
	params = cJSON_GetObjectItemCaseSensitive(r, "params");
	sub_key(p, sizeof(p), path, "params");
	if (params && check_scalar_object(c, params, p, 0, 64))
		return -1;
	samples = cJSON_GetObjectItemCaseSensitive(r, "samples");
	err = cJSON_GetObjectItemCaseSensitive(r, "error");
	counters = cJSON_GetObjectItemCaseSensitive(r, "counters");
	if (err) {
		STR(r, path, "error", REQUIRED, 1, 4096, MULTILINE);
		if (samples || counters) {
			sub_key(p, sizeof(p), path, "error");
			fw_error_set(c->e, p, "a failed result carries no samples or counters");
			return -1;
		}
		return 0;
	}
	sub_key(p, sizeof(p), path, "samples");
	if (!cJSON_IsArray(samples)) {
		fw_error_set(c->e, p, samples ? "must be an array" : "required (or give \"error\")");
		return -1;
	}
	n = cJSON_GetArraySize(samples);
	if (n < 1 || n > FW_DOC_MAX_SAMPLES) {
		fw_error_set(c->e, p, "%d samples, must be 1..%d", n, FW_DOC_MAX_SAMPLES);
		return -1;
	}
	cJSON_ArrayForEach(v, samples) {
		char q[256];
		sub_idx(q, sizeof(q), p, i++);
		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
			fw_error_set(c->e, q, "not a finite number");
			return -1;
		}
	}
	if (!counters)
		return 0;
	sub_key(p, sizeof(p), path, "counters");
	if (!cJSON_IsArray(counters)) {
		fw_error_set(c->e, p, "must be an array");
		return -1;
	}
	if (cJSON_GetArraySize(counters) != n) {
		fw_error_set(c->e, p, "has %d entries, must match the %d samples (one per round)",
			     cJSON_GetArraySize(counters), n);
		return -1;
	}
	i = 0;
	cJSON_ArrayForEach(v, counters) {
		char q[256];
		sub_idx(q, sizeof(q), p, i++);
		if (check_scalar_object(c, v, q, 1, 256))
			return -1;
	}
	return 0;
}

static int check_results(struct ctx *c, const cJSON *doc, int not_run)
{
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results"), *r;
	int i = 0;

	if (!cJSON_IsArray(results)) {
		fw_error_set(c->e, "results", results ? "must be an array" : "required array is missing");
		return -1;
	}
	if (cJSON_GetArraySize(results) > FW_DOC_MAX_RESULTS) {
		fw_error_set(c->e, "results", "more than %d results", FW_DOC_MAX_RESULTS);
		return -1;
	}
	if (not_run && cJSON_GetArraySize(results)) {
		fw_error_set(c->e, "results", "a run with boot.status \"not_run\" has no results");
		return -1;
	}
	cJSON_ArrayForEach(r, results) {
		char p[64];
		sub_idx(p, sizeof(p), "results", i);
		if (check_result(c, r, p))
			return -1;
		/* (workload, variant, metric) is unique within a run */
		int j = 0;
		for (const cJSON *o = results->child; o != r; o = o->next, j++)
			if (!strcmp(fw_json_str(o, "workload", ""), fw_json_str(r, "workload", "")) &&
			    !strcmp(fw_json_str(o, "variant", ""), fw_json_str(r, "variant", "")) &&
			    !strcmp(fw_json_str(o, "metric", ""), fw_json_str(r, "metric", ""))) {
				fw_error_set(c->e, p, "same workload/variant/metric as results[%d]", j);
				return -1;
			}
		i++;
	}
	return 0;
}

/* Optional `sequential`: { look: 1..max_looks, max_looks: 1..1000 } (a boot added between looks). */
static int check_sequential(struct ctx *c, const cJSON *doc)
{
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(doc, "sequential");
	double look = 0, max_looks = 0;

	if (!seq || cJSON_IsNull(seq))
		return 0;
	if (!(seq = get_object(c, doc, "", "sequential")))
		return -1;
	NUM(seq, "sequential", "max_looks", REQUIRED, 1, 1000, 1, &max_looks);
	NUM(seq, "sequential", "look", REQUIRED, 1, 1000, 1, &look);
	if (look > max_looks) {
		fw_error_set(c->e, "sequential.look", "%g is after the last planned look (max_looks %g)",
			     look, max_looks);
		return -1;
	}
	return 0;
}

/*
 * Optional `workload_content`: { name: 64 hex digits } for user workloads
 * (issue 33), each named in `workloads`; part of the run id.
 */
static int check_workload_content(struct ctx *c, const cJSON *doc)
{
	const cJSON *wc = cJSON_GetObjectItemCaseSensitive(doc, "workload_content"), *v, *w;
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(doc, "workloads");
	char p[256];

	if (!wc || cJSON_IsNull(wc))
		return 0;
	if (!(wc = get_object(c, doc, "", "workload_content")))
		return -1;
	cJSON_ArrayForEach(v, wc) {
		int listed = 0;

		snprintf(p, sizeof(p), "workload_content.%.200s", v->string);
		cJSON_ArrayForEach(w, wl)
			listed |= cJSON_IsString(w) && !strcmp(w->valuestring, v->string);
		if (!listed) {
			fw_error_set(c->e, p, "not one of the document's workloads");
			return -1;
		}
		if (!cJSON_IsString(v) || strlen(v->valuestring) != 64 ||
		    strspn(v->valuestring, "0123456789abcdef") != 64) {
			fw_error_set(c->e, p, "must be a sha256 in 64 lower-case hex digits");
			return -1;
		}
	}
	return 0;
}

/*
 * foliowatch-run/2 refuses a key the format does not have (a misspelled field
 * would be lost without a word); /1, which did not, is still accepted for one
 * release with a warning (warn_old_format), so writers can upgrade after the server.
 */
static int check_format(struct ctx *c, const cJSON *doc, const char *format)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (strcmp(format, FW_DOC_FORMAT) && strcmp(format, FW_DOC_FORMAT_OLD)) {
		fw_error_set(c->e, "format", "unsupported format \"%.*s\", expected \"%s\"",
			     UTF8_CUT(format, 64), FW_DOC_FORMAT);
		return -1;
	}
	if (!strcmp(format, FW_DOC_FORMAT) && fw_doc_unknown_field(doc, &path)) {
		fw_error_set(c->e, path.buf, "unknown field (a CI's own data goes under \"extensions\")");
		ret = -1;
	}
	strbuf_release(&path);
	return ret;
}

static void warn_old_format(const cJSON *doc, struct fw_error *e)
{
	struct strbuf path = STRBUF_INIT;

	if (fw_doc_unknown_field(doc, &path))
		snprintf(e->warning, sizeof(e->warning),
			 "%s: unknown field, ignored; %s is deprecated: %s refuses unknown fields",
			 path.buf, FW_DOC_FORMAT_OLD, FW_DOC_FORMAT);
	else
		snprintf(e->warning, sizeof(e->warning),
			 "format: %s is deprecated, write %s (the same fields; unknown fields are refused)",
			 FW_DOC_FORMAT_OLD, FW_DOC_FORMAT);
	utf8_trim_partial(e->warning);  /* a long key cut mid-character */
	strbuf_release(&path);
}

/* Optional `extensions`: any JSON object (a CI's own data), at most 64 KiB printed. */
static int check_extensions(struct ctx *c, const cJSON *doc)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(doc, "extensions");
	char *txt;
	size_t len;

	if (!x)
		return 0;
	if (!cJSON_IsObject(x)) {
		fw_error_set(c->e, "extensions", "must be an object");
		return -1;
	}
	txt = cJSON_PrintUnformatted(x);
	len = txt ? strlen(txt) : 0;
	free(txt);
	if (len > FW_DOC_MAX_EXTENSIONS) {
		fw_error_set(c->e, "extensions", "%zu bytes, at most %d", len, FW_DOC_MAX_EXTENSIONS);
		return -1;
	}
	return 0;
}

static int validate_fields(const cJSON *doc, struct fw_error *e)
{
	struct ctx cc = { e, "" }, *c = &cc;
	const cJSON *wl, *w, *rid;
	int build_failed = 0, not_run = 0, i = 0;
	struct strbuf expect = STRBUF_INIT;
	int ret = -1;

	memset(e, 0, sizeof(*e));
	if (!cJSON_IsObject(doc)) {
		fw_error_set(e, "", "document must be a JSON object");
		return -1;
	}
	const cJSON *fmt = get_string(c, doc, "", "format", REQUIRED, 1, 64, TEXT);
	if (!fmt)
		return -1;
	if (check_format(c, doc, fmt->valuestring))
		return -1;
	const cJSON *origin = get_string(c, doc, "", "origin", REQUIRED, 1, 64, TEXT);
	if (!origin)
		return -1;
	if (strspn(origin->valuestring, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(origin->valuestring)) {
		fw_error_set(e, "origin", "only letters, digits, '.', '_' and '-' are allowed");
		return -1;
	}
	const cJSON *created = get_string(c, doc, "", "created_at", REQUIRED, 1, 40, TEXT);
	if (!created)
		return -1;
	if (!is_utc_time(created->valuestring)) {
		fw_error_set(e, "created_at", "\"%.*s\" is not a UTC time YYYY-MM-DDTHH:MM:SSZ "
			     "(ISO 8601, optional .fraction of seconds before the Z)", UTF8_CUT(created->valuestring, 40));
		return -1;
	}
	STR(doc, "", "profile", REQUIRED, 1, 32, NAME_NO_SLASH);
	NUM(doc, "", "boot_index", REQUIRED, 0, 100000, 1, NULL);
	wl = cJSON_GetObjectItemCaseSensitive(doc, "workloads");
	if (!cJSON_IsArray(wl) || cJSON_GetArraySize(wl) > 32) {
		fw_error_set(e, "workloads", "must be an array of at most 32 names");
		return -1;
	}
	cJSON_ArrayForEach(w, wl) {
		char p[64];
		sub_idx(p, sizeof(p), "workloads", i++);
		if (!cJSON_IsString(w) || !*w->valuestring || strlen(w->valuestring) > 100 ||
		    strchr(w->valuestring, ',') || has_control_chars(w->valuestring, 0)) {
			fw_error_set(e, p, "must be a name of 1..100 characters without ',' or control characters");
			return -1;
		}
	}
	if (check_identity(c, doc) || check_build_env_boot(c, doc, &build_failed, &not_run) ||
	    check_sequential(c, doc) || check_workload_content(c, doc) || check_results(c, doc, not_run) || fw_doc_check_profiles(doc, e) ||
	    check_extensions(c, doc))
		return -1;
	rid = get_string(c, doc, "", "run_id", REQUIRED, 1, 200, TEXT);
	if (!rid)
		return -1;
	fw_doc_expected_run_id(doc, &expect);
	if (strcmp(rid->valuestring, expect.buf)) {
		fw_error_set(e, "run_id", "does not match the document's identity fields (expected %s)",
			     expect.buf);
		goto cleanup;
	}
	ret = 0;
	if (!strcmp(fmt->valuestring, FW_DOC_FORMAT_OLD))
		warn_old_format(doc, e);
cleanup:
	strbuf_release(&expect);
	return ret;
}

int fw_doc_validate(const cJSON *doc, struct fw_error *e)
{
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(doc, "build");
	size_t len;

	if (!validate_fields(doc, e))
		return 0;
	/*
	 * The fields seal derives from the others: whoever writes documents by hand
	 * (CI scripts, tests) meets these first, so name the tool that fills them in.
	 * config_hash only when there is a build.config to hash.
	 */
	if (!strcmp(e->field, "environment.fingerprint") || !strcmp(e->field, "run_id") ||
	    (!strcmp(e->field, "build.config_hash") && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(build, "config")))) {
		len = strlen(e->detail);
		snprintf(e->detail + len, sizeof(e->detail) - len, " (`foliowatch-server seal` fills it in)");
	}
	return -1;
}

int fw_metric_id_ok(const char *m)
{
	const char *s1 = strchr(m, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

	return s1 && s2 && s1 > m && s2 > s1 + 1 && s2[1] && !strchr(s2 + 1, '/') && strlen(m) < 300;
}
