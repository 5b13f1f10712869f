/*
 * workload.json, read and checked (kernel/workloads/README.md is its schema).
 * Every problem names the file and the field, as the run document's checks
 * do: a developer fixes a manifest from the message alone.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "workload-manifest.h"
#include "xalloc.h"

struct wl_ctx {
	const char *file;
	struct strbuf *err;
	struct strbuf path;    /* the field being read: "metrics[1].kind" */
};

static int fail(struct wl_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct wl_ctx *c, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(c->err, "%s: %s%s", c->file, c->path.buf, c->path.len ? ": " : "");
	va_start(ap, fmt);
	strbuf_vaddf(c->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Enters field key (or [i] when key is NULL) of the current path; returns the old length to leave by. */
static size_t enter(struct wl_ctx *c, const char *key, int i)
{
	size_t len = c->path.len;

	if (key)
		strbuf_addf(&c->path, "%s%s", len ? "." : "", key);
	else
		strbuf_addf(&c->path, "[%d]", i);
	return len;
}

static void leave(struct wl_ctx *c, size_t len)
{
	strbuf_setlen(&c->path, len);
}

/* Every key of o must be one of keys (NULL-terminated), and none twice. */
static int known_keys(struct wl_ctx *c, const cJSON *o, const char *const *keys)
{
	const cJSON *it, *prev;

	if (!cJSON_IsObject(o))
		return fail(c, "must be an object");
	cJSON_ArrayForEach(it, o) {
		size_t k = 0;

		while (keys[k] && strcmp(keys[k], it->string))
			k++;
		if (!keys[k]) {
			size_t l = enter(c, it->string, 0);
			int r = fail(c, "unknown field");
			leave(c, l);
			return r;
		}
		for (prev = o->child; prev != it; prev = prev->next)
			if (!strcmp(prev->string, it->string))
				return fail(c, "field '%s' given twice", it->string);
	}
	return 0;
}

/* A name: lower-case letters, digits, '_' and '-', starting with a letter or digit. */
static int bad_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max || !(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 1;
	return 0;
}

/* o.key as a string into *out (xstrdup'd): required or not; name: must be a name. */
static int str_field(struct wl_ctx *c, const cJSON *o, const char *key, int required, int name, char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	size_t l = enter(c, key, 0);
	int r = 0;

	*out = NULL;
	if (!v && required)
		r = fail(c, "missing");
	else if (v && !cJSON_IsString(v))
		r = fail(c, "must be a string");
	else if (v && name && bad_name(v->valuestring, FW_WL_NAME_MAX))
		r = fail(c, "'%s' is not a name (lower-case letters, digits, '_' and '-', at most %d)", v->valuestring,
			 FW_WL_NAME_MAX);
	else if (v)
		*out = xstrdup(v->valuestring);
	leave(c, l);
	return r;
}

/* o.key, one of the NULL-terminated choices (absent: *out NULL unless required). */
static int choice_field(struct wl_ctx *c, const cJSON *o, const char *key, int required, const char *const *choices,
			char **out)
{
	size_t l;
	int r = str_field(c, o, key, required, 0, out), k = 0;

	if (r || !*out)
		return r;
	while (choices[k] && strcmp(choices[k], *out))
		k++;
	if (choices[k])
		return 0;
	l = enter(c, key, 0);
	strbuf_addf(c->err, "%s: %s: must be one of", c->file, c->path.buf);
	for (k = 0; choices[k]; k++)
		strbuf_addf(c->err, "%s %s", k ? "," : "", choices[k]);
	strbuf_addf(c->err, " (not '%s')", *out);
	leave(c, l);
	free(*out);
	*out = NULL;
	return -1;
}

static int bool_field(struct wl_ctx *c, const cJSON *o, const char *key, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	size_t l = enter(c, key, 0);
	int r = 0;

	if (v && !cJSON_IsBool(v))
		r = fail(c, "must be true or false");
	*out = cJSON_IsTrue(v);
	leave(c, l);
	return r;
}

/* An array field: NULL when absent and not required; -1 when not an array of at most FW_WL_MAX_ITEMS. */
static int array_field(struct wl_ctx *c, const cJSON *o, const char *key, int required, const cJSON **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	size_t l = enter(c, key, 0);
	int r = 0;

	*out = v;
	if (!v && required)
		r = fail(c, "missing");
	else if (v && !cJSON_IsArray(v))
		r = fail(c, "must be an array");
	else if (v && required && !cJSON_GetArraySize(v))
		r = fail(c, "must not be empty");
	else if (v && cJSON_GetArraySize(v) > FW_WL_MAX_ITEMS)
		r = fail(c, "at most %d entries", FW_WL_MAX_ITEMS);
	leave(c, l);
	return r;
}


/* A params object: names, and values that are strings or numbers (as written). */
static int params_field(struct wl_ctx *c, const cJSON *o, const char *key, struct fw_wl_param *p, int *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *it, *from;
	size_t l = enter(c, key, 0);
	int r = 0;

	*n = 0;
	if (v && (!cJSON_IsObject(v) || cJSON_GetArraySize(v) > FW_WL_MAX_ITEMS))
		r = fail(c, "must be an object of at most %d parameters", FW_WL_MAX_ITEMS);
	from = r ? NULL : v;
	cJSON_ArrayForEach(it, from) {
		size_t l2 = enter(c, it->string, 0);
		char num[64];

		if (bad_name(it->string, FW_WL_NAME_MAX))
			r = fail(c, "not a parameter name (lower-case letters, digits, '_' and '-')");
		else if (!cJSON_IsString(it) && !cJSON_IsNumber(it))
			r = fail(c, "must be a string or a number");
		else if (cJSON_IsString(it) && (strchr(it->valuestring, '\n') || !*it->valuestring))
			r = fail(c, "must be one non-empty line");
		leave(c, l2);
		if (r)
			break;
		if (cJSON_IsNumber(it))
			snprintf(num, sizeof(num), "%.17g", it->valuedouble);
		p[*n].name = xstrdup(it->string);
		p[(*n)++].value = xstrdup(cJSON_IsString(it) ? it->valuestring : num);
	}
	leave(c, l);
	return r;
}

static int has_param(const struct fw_wl_param *p, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return 1;
	return 0;
}

static int variant(struct wl_ctx *c, const cJSON *o, struct fw_wl_variant *v)
{
	static const char *const keys[] = { "name", "params", "quick", "seed", NULL };
	const struct fw_wl_param *prof[2] = { v->quick, v->seed };
	const int *nprof[2] = { &v->nquick, &v->nseed };

	if (known_keys(c, o, keys) || str_field(c, o, "name", 1, 1, &v->name) ||
	    params_field(c, o, "params", v->params, &v->nparams) || params_field(c, o, "quick", v->quick, &v->nquick) ||
	    params_field(c, o, "seed", v->seed, &v->nseed))
		return -1;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < *nprof[k]; i++)
			if (!has_param(v->params, v->nparams, prof[k][i].name)) {
				size_t l = enter(c, k ? "seed" : "quick", 0);
				int r = fail(c, "'%s' is not one of the variant's params", prof[k][i].name);
				leave(c, l);
				return r;
			}
	return 0;
}

static int metric(struct wl_ctx *c, const cJSON *o, struct fw_wl_metric *m)
{
	static const char *const keys[] = { "name", "unit", "direction", "kind", "timed", NULL };
	static const char *const dirs[] = { "lower_is_better", "higher_is_better", NULL };
	static const char *const kinds[] = { "time", "rate", "count", NULL };
	char *dir = NULL, *kind = NULL;
	int r = known_keys(c, o, keys) || str_field(c, o, "name", 1, 1, &m->name) ||
		str_field(c, o, "unit", 1, 0, &m->unit) || choice_field(c, o, "direction", 1, dirs, &dir) ||
		choice_field(c, o, "kind", 1, kinds, &kind) || bool_field(c, o, "timed", &m->timed);

	if (!r) {
		m->higher_is_better = !strcmp(dir, "higher_is_better");
		m->kind = !strcmp(kind, "time") ? FW_WL_TIME : !strcmp(kind, "rate") ? FW_WL_RATE : FW_WL_COUNT;
	}
	if (!r && m->timed && (m->kind != FW_WL_TIME || strcmp(m->unit, "s") || m->higher_is_better)) {
		size_t len = enter(c, "timed", 0);

		r = fail(c, "a timed metric is the run's wall time: kind time, unit s, lower_is_better");
		leave(c, len);
	}
	free(dir);
	free(kind);
	return r ? -1 : 0;
}

/* A counter's name: a /proc/vmstat field, mthp/SIZE/STAT, or program/NAME (the program's own). */
static int bad_counter(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 96)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '/')
			return 1;
	return 0;
}

static int check(struct wl_ctx *c, const cJSON *o, struct fw_workload_def *w, struct fw_wl_check *k)
{
	static const char *const keys[] = { "counter", "min", "min_ratio", "of", NULL };
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(o, "min");
	const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(o, "min_ratio");
	const char *names[2];

	if (known_keys(c, o, keys) || str_field(c, o, "counter", 1, 0, &k->counter) ||
	    str_field(c, o, "of", 0, 0, &k->of))
		return -1;
	if (!min == !ratio)
		return fail(c, "give exactly one of min (the counter grew by at least this) and min_ratio (with of)");
	if ((min && (!cJSON_IsNumber(min) || min->valuedouble < 0)) ||
	    (ratio && (!cJSON_IsNumber(ratio) || ratio->valuedouble <= 0)))
		return fail(c, "%s must be a %s number", min ? "min" : "min_ratio", min ? "non-negative" : "positive");
	if (!ratio != !k->of)
		return fail(c, ratio ? "min_ratio needs of (the counter it is a share of)" : "of goes with min_ratio");
	k->min = min ? min->valuedouble : 0;
	k->min_ratio = ratio ? ratio->valuedouble : 0;
	names[0] = k->counter;
	names[1] = k->of;
	for (int i = 0; i < 2 && names[i]; i++) {
		int listed = !strncmp(names[i], "program/", 8);

		for (int j = 0; j < w->ncounters && !listed; j++)
			listed = !strcmp(w->counters[j], names[i]);
		if (!listed)
			return fail(c, "'%s' is not in counters (or program/NAME, a counter the program prints)", names[i]);
	}
	return 0;
}

/* needs.mthp: { "16kB": "always", ... }. */
static int mthp_needs(struct wl_ctx *c, const cJSON *o, struct fw_wl_needs *n)
{
	static const char *const settings[] = { "always", "inherit", "madvise", "never", NULL };
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "mthp"), *it, *from;
	size_t l = enter(c, "mthp", 0);
	int r = 0;

	if (m && (!cJSON_IsObject(m) || cJSON_GetArraySize(m) > 8))
		r = fail(c, "must be an object of at most 8 sizes (\"16kB\": \"always\")");
	from = r ? NULL : m;
	cJSON_ArrayForEach(it, from) {
		char *kb = NULL;
		long size = strtol(it->string, &kb, 10);

		if (size < 8 || size > 2048 || strcmp(kb, "kB") || (size & (size - 1))) {
			size_t l2 = enter(c, it->string, 0);
			r = fail(c, "not an mTHP size (a power of two, 8kB to 2048kB, as in 16kB)");
			leave(c, l2);
			break;
		}
		n->mthp_size[n->nmthp] = xstrdup(it->string);
		if ((r = choice_field(c, m, it->string, 1, settings, &n->mthp_enabled[n->nmthp++])))
			break;
	}
	leave(c, l);
	return r;
}

static int needs(struct wl_ctx *c, const cJSON *root, struct fw_wl_needs *n)
{
	static const char *const keys[] = { "memcg", "tmpfs_huge", "debugfs", "block_device", "thp", "mthp", NULL };
	static const char *const thp_keys[] = { "enabled", "defrag", NULL };
	static const char *const memcg[] = { "v1", "v2", NULL };
	static const char *const huge[] = { "always", "within_size", "advise", "never", NULL };
	static const char *const thp[] = { "always", "madvise", "never", NULL };
	static const char *const defrag[] = { "always", "defer", "defer+madvise", "madvise", "never", NULL };
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "needs"), *t;
	size_t l = enter(c, "needs", 0), l2;
	char *mc = NULL;
	int r = 0;

	if (!o)
		goto out;
	if (known_keys(c, o, keys) || choice_field(c, o, "memcg", 0, memcg, &mc) ||
	    choice_field(c, o, "tmpfs_huge", 0, huge, &n->tmpfs_huge) || bool_field(c, o, "debugfs", &n->debugfs) ||
	    bool_field(c, o, "block_device", &n->block_device) || mthp_needs(c, o, n)) {
		r = -1;
		goto out;
	}
	n->memcg = !mc ? 0 : mc[1] == '1' ? 1 : 2;
	if ((t = cJSON_GetObjectItemCaseSensitive(o, "thp"))) {
		l2 = enter(c, "thp", 0);
		r = known_keys(c, t, thp_keys) || choice_field(c, t, "enabled", 0, thp, &n->thp_enabled) ||
		    choice_field(c, t, "defrag", 0, defrag, &n->thp_defrag);
		leave(c, l2);
	}
out:
	free(mc);
	leave(c, l);
	return r ? -1 : 0;
}

/* Each entry of array key through read (into item i of base, size sz); n counts them. */
static int each(struct wl_ctx *c, const cJSON *root, const char *key, int required, void *base, size_t sz, int *n,
		int (*read)(struct wl_ctx *c, const cJSON *o, void *item, void *arg), void *arg)
{
	const cJSON *arr, *it;
	size_t l;
	int r = 0;

	*n = 0;
	if (array_field(c, root, key, required, &arr))
		return -1;
	l = enter(c, key, 0);
	cJSON_ArrayForEach(it, arr) {
		size_t l2 = enter(c, NULL, *n);

		r = read(c, it, (char *)base + sz * (size_t)*n, arg);
		leave(c, l2);
		if (r)
			break;
		++*n;
	}
	leave(c, l);
	return r;
}

static int read_variant(struct wl_ctx *c, const cJSON *o, void *item, void *arg)
{
	struct fw_workload_def *w = arg;
	struct fw_wl_variant *v = item;

	if (variant(c, o, v))
		return -1;
	for (struct fw_wl_variant *p = w->variants; p != v; p++)
		if (!strcmp(p->name, v->name))
			return fail(c, "variant '%s' given twice", v->name);
	return 0;
}

static int read_metric(struct wl_ctx *c, const cJSON *o, void *item, void *arg)
{
	struct fw_workload_def *w = arg;
	struct fw_wl_metric *m = item;

	if (metric(c, o, m))
		return -1;
	for (struct fw_wl_metric *p = w->metrics; p != m; p++)
		if (!strcmp(p->name, m->name))
			return fail(c, "metric '%s' given twice", m->name);
	return 0;
}

static int read_counter(struct wl_ctx *c, const cJSON *o, void *item, void *arg)
{
	(void)arg;
	if (!cJSON_IsString(o) || bad_counter(o->valuestring) || !strncmp(o->valuestring, "program/", 8))
		return fail(c, "must be a /proc/vmstat field or mthp/SIZE/STAT (letters, digits, '_' and '/')");
	*(char **)item = xstrdup(o->valuestring);
	return 0;
}

static int read_check(struct wl_ctx *c, const cJSON *o, void *item, void *arg)
{
	return check(c, o, arg, item);
}

/* An argument; every {name} in it must be a parameter of every variant. */
static int read_arg(struct wl_ctx *c, const cJSON *o, void *item, void *arg)
{
	struct fw_workload_def *w = arg;
	const char *p;

	if (!cJSON_IsString(o) || strchr(o->valuestring, '\n'))
		return fail(c, "must be a string of one line");
	for (p = strchr(o->valuestring, '{'); p; p = strchr(p + 1, '{')) {
		size_t n = strcspn(p + 1, "}");
		char name[FW_WL_NAME_MAX + 1];

		if (!p[1 + n] || n > FW_WL_NAME_MAX)
			return fail(c, "'{' without a parameter name and '}'");
		snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
		for (int i = 0; i < w->nvariants; i++)
			if (!has_param(w->variants[i].params, w->variants[i].nparams, name))
				return fail(c, "{%s}: variant '%s' has no such param", name, w->variants[i].name);
	}
	*(char **)item = xstrdup(o->valuestring);
	return 0;
}

/* name, description, program, timeout_s and accel. */
static int head(struct wl_ctx *c, const cJSON *root, const char *const *builtin, struct fw_workload_def *w)
{
	static const char *const accels[] = { "tcg", "icount", NULL };
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "timeout_s");
	char *format = NULL, *accel = NULL;
	int r = str_field(c, root, "format", 1, 0, &format) || str_field(c, root, "name", 1, 1, &w->name) ||
		str_field(c, root, "description", 0, 0, &w->description) ||
		str_field(c, root, "program", 1, 0, &w->program) || choice_field(c, root, "accel", 0, accels, &accel);

	if (!r && strcmp(format, FW_WL_FORMAT))
		r = fail(c, "format: must be \"%s\" (not \"%s\")", FW_WL_FORMAT, format);
	for (int i = 0; !r && builtin && builtin[i]; i++)
		if (!strcmp(builtin[i], w->name))
			r = fail(c, "name: '%s' is a built-in workload: give yours another name", w->name);
	if (!r && (w->program[0] == '/' || strstr(w->program, "..") || !*w->program))
		r = fail(c, "program: a path inside the workload's folder (no leading '/', no '..')");
	if (!r && t && (!cJSON_IsNumber(t) || !(t->valuedouble > 0) || t->valuedouble > 3600))
		r = fail(c, "timeout_s: a number of seconds, more than 0 and at most 3600");
	w->timeout_s = t && !r ? t->valuedouble : 60;
	w->icount = accel && !strcmp(accel, "icount");
	free(format);
	free(accel);
	return r ? -1 : 0;
}

int fw_workload_parse(const char *text, const char *file, const char *const *builtin, struct fw_workload_def *w,
		      struct strbuf *err)
{
	static const char *const keys[] = { "format", "name", "description", "program", "args", "timeout_s", "accel",
		"variants", "metrics", "counters", "checks", "needs", NULL };
	struct wl_ctx c = { file, err, STRBUF_INIT };
	cJSON *root = cJSON_Parse(text);
	int r;

	memset(w, 0, sizeof(*w));
	if (!root) {
		strbuf_addf(err, "%s: not JSON (near byte %ld)", file,
			    cJSON_GetErrorPtr() ? (long)(cJSON_GetErrorPtr() - text) : 0L);
		return -1;
	}
	r = known_keys(&c, root, keys) || head(&c, root, builtin, w) ||
	    each(&c, root, "variants", 1, w->variants, sizeof(*w->variants), &w->nvariants, read_variant, w) ||
	    each(&c, root, "metrics", 1, w->metrics, sizeof(*w->metrics), &w->nmetrics, read_metric, w) ||
	    each(&c, root, "counters", 0, w->counters, sizeof(*w->counters), &w->ncounters, read_counter, w) ||
	    each(&c, root, "checks", 0, w->checks, sizeof(*w->checks), &w->nchecks, read_check, w) ||
	    each(&c, root, "args", 0, w->args, sizeof(*w->args), &w->nargs, read_arg, w) || needs(&c, root, &w->needs);
	cJSON_Delete(root);
	strbuf_release(&c.path);
	if (r)
		fw_workload_release(w);
	return r ? -1 : 0;
}

int fw_workload_load(const char *dir, const char *const *builtin, struct fw_workload_def *w, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT, prog = STRBUF_INIT;
	int r = -1;

	strbuf_addf(&file, "%s/workload.json", dir);
	if (strbuf_read_file(&text, file.buf, 1 << 20) < 0)
		strbuf_addf(err, "%s: cannot read it (a workload is a folder with workload.json)", file.buf);
	else if (!fw_workload_parse(text.buf, file.buf, builtin, w, err)) {
		strbuf_addf(&prog, "%s/%s", dir, w->program);
		char *abs = access(prog.buf, X_OK) ? NULL : realpath(prog.buf, NULL);

		if (!abs)
			strbuf_addf(err, "%s: program: %s is not an executable file", file.buf, prog.buf);
		else
			r = 0;
		free(w->program);
		w->program = abs;
		w->dir = xstrdup(dir);
		if (r)
			fw_workload_release(w);
	}
	strbuf_release(&file);
	strbuf_release(&text);
	strbuf_release(&prog);
	return r;
}

static void params_release(struct fw_wl_param *p, int n)
{
	for (int i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
}

void fw_workload_release(struct fw_workload_def *w)
{
	free(w->dir);
	free(w->name);
	free(w->description);
	free(w->program);
	for (int i = 0; i < FW_WL_MAX_ITEMS; i++) {
		free(w->args[i]);
		free(w->counters[i]);
		free(w->metrics[i].name);
		free(w->metrics[i].unit);
		free(w->checks[i].counter);
		free(w->checks[i].of);
		free(w->variants[i].name);
		params_release(w->variants[i].params, w->variants[i].nparams);
		params_release(w->variants[i].quick, w->variants[i].nquick);
		params_release(w->variants[i].seed, w->variants[i].nseed);
	}
	free(w->needs.tmpfs_huge);
	free(w->needs.thp_enabled);
	free(w->needs.thp_defrag);
	for (int i = 0; i < w->needs.nmthp; i++) {
		free(w->needs.mthp_size[i]);
		free(w->needs.mthp_enabled[i]);
	}
	memset(w, 0, sizeof(*w));
}
