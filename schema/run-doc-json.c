/* Byte-level checks before cJSON sees a document, canonical form and hashes. */
#include "run-doc.h"
#include "sha256.h"
#include "utf8.h"
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void fw_error_set(struct fw_error *e, const char *field, const char *fmt, ...)
{
	va_list ap;

	snprintf(e->field, sizeof(e->field), "%s", field);
	va_start(ap, fmt);
	vsnprintf(e->detail, sizeof(e->detail), fmt, ap);
	va_end(ap);
	/* A cut at the buffer's end must not leave half a character in a JSON answer. */
	utf8_trim_partial(e->field);
	utf8_trim_partial(e->detail);
}

/* Nesting depth of arrays/objects outside strings; -1 past the limit. */
static int json_depth_ok(const char *s, size_t len, int limit)
{
	int depth = 0, in_str = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '[' || c == '{') {
			if (++depth > limit)
				return 0;
		} else if (c == ']' || c == '}')
			depth--;
	}
	return 1;
}

cJSON *fw_doc_parse_json(const char *buf, size_t len, struct fw_error *e)
{
	const char *end = NULL;
	cJSON *doc = NULL;
	long bad, nul;
	struct strbuf path = STRBUF_INIT;

	if (len > FW_DOC_MAX_BYTES) {
		fw_error_set(e, "", "document is %zu bytes, the limit is %d", len, FW_DOC_MAX_BYTES);
		goto fail;
	}
	if (len == 0) {
		fw_error_set(e, "", "empty document");
		goto fail;
	}
	if (memchr(buf, '\0', len)) {
		fw_error_set(e, "", "NUL byte in document");
		goto fail;
	}
	bad = utf8_invalid_at(buf, len);
	if (!json_depth_ok(buf, len, FW_DOC_MAX_DEPTH)) {
		fw_error_set(e, "", "nesting deeper than %d levels", FW_DOC_MAX_DEPTH);
		goto fail;
	}
	doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!doc && bad >= 0) {
		fw_error_set(e, "", "invalid UTF-8 at byte %ld", bad);
		goto fail;
	}
	if (!doc) {
		const char *at = cJSON_GetErrorPtr();
		long off = at && at >= buf && at <= buf + len ? (long)(at - buf) : -1;
		fw_error_set(e, "", "malformed JSON near byte %ld", off);
		goto fail;
	}
	while (end && end < buf + len && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t'))
		end++;
	if (end && end < buf + len) {
		fw_error_set(e, "", "trailing data after JSON at byte %ld", (long)(end - buf));
		goto fail;
	}
	if (bad >= 0) {
		fw_json_string_path(doc, -1, &path);
		fw_error_set(e, path.buf, "invalid UTF-8 (at byte %ld of the document)", bad);
		goto fail;
	}
	nul = fw_json_nul_escape_at(buf, len);
	if (nul >= 0) {
		fw_json_string_path(doc, nul, &path);
		fw_error_set(e, path.buf, "\\u0000 (NUL) is not allowed in a string");
		goto fail;
	}
	if (fw_json_duplicate_key(doc, &path)) {
		fw_error_set(e, path.buf, "duplicate key");
		goto fail;
	}
	strbuf_release(&path);
	return doc;
fail:
	strbuf_release(&path);
	cJSON_Delete(doc);
	return NULL;
}

cJSON *fw_doc_parse(const char *buf, size_t len, struct fw_error *e)
{
	cJSON *doc = fw_doc_parse_json(buf, len, e);

	if (doc && fw_doc_validate(doc, e)) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

static int cmp_keys(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	return strcmp(x->string, y->string);
}

/* Deep copy with object members sorted by key. */
static cJSON *sorted_copy(const cJSON *item)
{
	cJSON *copy;
	size_t n = 0, i = 0;
	const cJSON **kids;

	if (!cJSON_IsObject(item) && !cJSON_IsArray(item))
		return cJSON_Duplicate(item, 1);
	copy = cJSON_IsObject(item) ? cJSON_CreateObject() : cJSON_CreateArray();
	for (const cJSON *c = item->child; c; c = c->next)
		n++;
	kids = calloc(n ? n : 1, sizeof(*kids));
	if (!copy || !kids)
		abort();
	for (const cJSON *c = item->child; c; c = c->next)
		kids[i++] = c;
	if (cJSON_IsObject(item))
		qsort(kids, n, sizeof(*kids), cmp_keys);
	for (i = 0; i < n; i++) {
		cJSON *k = sorted_copy(kids[i]);
		if (cJSON_IsObject(item))
			cJSON_AddItemToObject(copy, kids[i]->string, k);
		else
			cJSON_AddItemToArray(copy, k);
	}
	free(kids);
	return copy;
}

char *fw_json_canonical(const cJSON *item)
{
	cJSON *s = sorted_copy(item);
	char *out = cJSON_PrintUnformatted(s);

	cJSON_Delete(s);
	return out;
}

void fw_doc_hash(const cJSON *doc, char out[65])
{
	char *c = fw_json_canonical(doc);

	sha256_hex(c, strlen(c), out);
	free(c);
}

const char *fw_json_str(const cJSON *obj, const char *key, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : dflt;
}

void fw_json_num_or_null(cJSON *obj, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

double fw_json_num(const cJSON *obj, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

int fw_json_int(const cJSON *obj, const char *key, int dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? (int)v->valuedouble : dflt;
}

double fw_json_num_at(const cJSON *obj, const char *k1, const char *k2, double dflt)
{
	return fw_json_num(cJSON_GetObjectItemCaseSensitive(obj, k1), k2, dflt);
}

static const char *const env_fields[] = {
	"host", "accel", "qemu_version", "vcpus", "memory_mib", "host_kernel",
	"cpu_model", "foliowatch_version", "fio_version", NULL,
};

void fw_env_fingerprint(const cJSON *env, char out[65])
{
	struct sha256_ctx c;

	sha256_init(&c);
	for (int i = 0; env_fields[i]; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(env, env_fields[i]);
		char num[64];
		const char *s = "";
		if (cJSON_IsString(v))
			s = v->valuestring;
		else if (cJSON_IsNumber(v)) {
			snprintf(num, sizeof(num), "%.0f", v->valuedouble);
			s = num;
		}
		sha256_update(&c, env_fields[i], strlen(env_fields[i]));
		sha256_update(&c, "=", 1);
		sha256_update(&c, s, strlen(s));
		sha256_update(&c, "\n", 1);
	}
	sha256_final_hex(&c, out);
}

void fw_run_id(const struct fw_run_key *k, struct strbuf *out)
{
	struct strbuf in = STRBUF_INIT;
	char hex[65];

	strbuf_addf(&in, "%s\n%d\n%s\n%s\n%s\n%s\n%s\n%d", k->series, k->revision,
		    k->commit_key, k->config_hash, k->env_fingerprint, k->profile,
		    k->workloads, k->boot_index);
	sha256_hex(in.buf, in.len, hex);
	strbuf_addf(out, "%s:%s", k->origin, hex);
	strbuf_release(&in);
}

void fw_doc_expected_run_id(const cJSON *doc, struct strbuf *out)
{
	const cJSON *series = cJSON_GetObjectItemCaseSensitive(doc, "series");
	const cJSON *commit = cJSON_GetObjectItemCaseSensitive(doc, "commit");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(doc, "build");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(doc, "workloads");
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(doc, "workload_content");
	struct strbuf wls = STRBUF_INIT;
	struct fw_run_key k;
	const cJSON *w;

	cJSON_ArrayForEach(w, wl) {
		/* a user workload's content: a changed program is a new run, never "measured already" */
		const char *hash = fw_json_str(content, w->valuestring ? w->valuestring : "", NULL);

		if (cJSON_IsString(w))
			strbuf_addf(&wls, "%s%s%s%s", wls.len ? "," : "", w->valuestring, hash ? "@" : "",
				    hash ? hash : "");
	}
	k.origin = fw_json_str(doc, "origin", "");
	k.series = fw_json_str(series, "name", "");
	k.revision = fw_json_int(series, "revision", 1);
	k.commit_key = fw_json_str(commit, "key", "");
	k.config_hash = fw_json_str(build, "config_hash", "");
	k.env_fingerprint = fw_json_str(env, "fingerprint", "");
	k.profile = fw_json_str(doc, "profile", "");
	k.workloads = wls.buf;
	k.boot_index = fw_json_int(doc, "boot_index", 0);
	fw_run_id(&k, out);
	strbuf_release(&wls);
}
