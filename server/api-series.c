/*
 * GET /api/v1/series (all series with their latest status) and
 * GET /api/v1/series/{name} (commits in order, build/boot status, per-metric
 * medians and delta % against the previous commit; statistics are null
 * until the analysis code provides them).
 * ?metrics=split,mthp/4t and ?commits=SHA,SHA select parts of the series
 * answer (~200 KB for 20 commits x 40 metrics): the same objects as in the
 * full answer, only fewer of them. Environments are listed once, in
 * "environments", and named by a short key everywhere else (env-keys.c).
 */
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "fw-db.h"
#include "html.h"
#include "routes.h"
#include "store.h"
#include "ui.h"
#include "xalloc.h"

static int list_item(const struct fw_store_series_summary *s, void *ctx)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddNumberToObject(o, "revision", s->revision);
	cJSON_AddStringToObject(o, "base", s->base);
	cJSON_AddStringToObject(o, "created_at", s->created_at);
	cJSON_AddNumberToObject(o, "commits", s->commits);
	cJSON_AddNumberToObject(o, "runs", s->runs);
	if (s->last_ingest)
		cJSON_AddStringToObject(o, "last_ingest", s->last_ingest);
	else
		cJSON_AddNullToObject(o, "last_ingest");
	cJSON_AddNumberToObject(o, "failed_boots", s->failed_boots);
	cJSON_AddNumberToObject(o, "failed_builds", s->failed_builds);
	cJSON_AddItemToArray(ctx, o);
	return 0;
}

static cJSON *series_list_json(sqlite3 *db)
{
	cJSON *arr = cJSON_CreateArray();

	if (!fw_store_series_list(db, list_item, arr))
		return arr;
	cJSON_Delete(arr);
	return NULL;
}

enum MHD_Result api_series_list(struct fw_req *r)
{
	sqlite3 *db = req_db(r);
	cJSON *arr, *root;

	arr = series_list_json(db);
	if (!arr)
		return reply_error(r, 503, "db_error", NULL, fw_db_errmsg(db));
	root = cJSON_CreateObject();
	cJSON_AddItemToObject(root, "series", arr);
	return reply_json(r, 200, root);
}

/* The environments of the selected metrics, each once, by key. */
static void add_envs(cJSON *root, sqlite3 *db, const struct fw_series *s, char **keys, const char *msel)
{
	cJSON *envs = cJSON_AddObjectToObject(root, "environments");

	for (int i = 0; i < s->nmetrics; i++)
		if ((!msel || msel[i]) && !cJSON_GetObjectItemCaseSensitive(envs, keys[i]))
			cJSON_AddItemToObject(envs, keys[i], fw_env_json(db, s->metrics[i].env));
}

/* msel/csel: which metrics/commits to include (NULL: all). */
/* The series answer's window: its URL before from= is the series' own. */
static void window_json(cJSON *root, const struct fw_series *s)
{
	struct strbuf u = STRBUF_INIT;

	strbuf_addstr(&u, "/api/v1/series/");
	html_url_arg(&u, s->name);
	strbuf_addf(&u, "?revision=%d&", s->revision);
	api_window_json(root, s, u.buf);
	strbuf_release(&u);
}

/*
 * The analysis' change points of the selected metrics (in the window's
 * positions when windowed): where a metric's level moved along the history.
 */
static void change_points_json(cJSON *root, const struct fw_series *s, const struct fw_an *an, const char *msel,
			       char **keys)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "change_points");

	for (int i = 0; i < s->nmetrics; i++) {
		struct fw_change_point *cp;
		int n;

		if (msel && !msel[i])
			continue;
		n = fw_analysis_change_points(an, s->metrics[i].id, s->metrics[i].env, &cp);
		for (int k = 0; k < n; k++) {
			cJSON *o;

			if (s->window && (cp[k].position < s->from || cp[k].position > s->to))
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "metric", s->metrics[i].id);
			cJSON_AddStringToObject(o, "env", keys[i]);
			cJSON_AddNumberToObject(o, "position", cp[k].position);
			cJSON_AddStringToObject(o, "sha", cp[k].sha);
			fw_json_num_or_null(o, "before", cp[k].before);
			fw_json_num_or_null(o, "after", cp[k].after);
			json_pct(o, "delta_pct", cp[k].delta_pct);
			cJSON_AddItemToArray(arr, o);
		}
		free(cp);
	}
}

cJSON *fw_series_commit_json(const struct fw_series *s, int c, char *const *keys, const char *msel,
			     const struct fw_an_index *ix)
{
	const struct fw_commit *cm = &s->commits[c];
	cJSON *o = cJSON_CreateObject(), *ma;

	cJSON_AddNumberToObject(o, "position", cm->position);
	cJSON_AddStringToObject(o, "sha", cm->sha);
	cJSON_AddStringToObject(o, "subject", cm->subject);
	cJSON_AddStringToObject(o, "author", cm->author);
	cJSON_AddStringToObject(o, "parent", cm->parent);
	cJSON_AddStringToObject(o, "build_status", cm->build_status);
	cJSON_AddStringToObject(o, "boot_status", cm->boot_status);
	cJSON_AddStringToObject(o, "kernel_version", cm->kernel_version);
	cJSON_AddNumberToObject(o, "taint", cm->taint);
	cJSON_AddNumberToObject(o, "runs", cm->nruns);
	ma = cJSON_AddArrayToObject(o, "metrics");
	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_cell *cell = &s->metrics[i].cells[c];
		cJSON *m;

		if ((!cell->n && !cell->errors) || (msel && !msel[i]))
			continue;
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "metric", s->metrics[i].id);
		cJSON_AddStringToObject(m, "env", keys[i]);
		cJSON_AddNumberToObject(m, "n", cell->n);
		cJSON_AddNumberToObject(m, "errors", cell->errors);
		fw_json_num_or_null(m, "median", cell->median);
		json_pct(m, "delta_pct", cell->delta_pct);
		analysis_fill(m, an_index_row(ix, cm->sha, &s->metrics[i]));
		cJSON_AddItemToArray(ma, m);
	}
	return o;
}

cJSON *fw_series_json_sel(sqlite3 *db, const struct fw_series *s, const struct fw_an *an, const char *msel,
			      const char *csel)
{
	cJSON *root, *commits, *metrics, *so;
	struct fw_an_index *ix = an_index_new(an);
	char **keys = fw_env_keys(s);

	root = cJSON_CreateObject();
	so = cJSON_AddObjectToObject(root, "series");
	cJSON_AddStringToObject(so, "name", s->name);
	cJSON_AddNumberToObject(so, "revision", s->revision);
	cJSON_AddStringToObject(so, "base", s->base);
	cJSON_AddBoolToObject(so, "watched", s->watched);
	cJSON_AddBoolToObject(root, "analysed", an != NULL);
	if (s->window)
		window_json(root, s);
	if (an && an->stale) {
		/* pages of a long history answer with the older analysis while the newest is computed */
		const struct fw_an_commit *up = an->analysed_up_to;
		cJSON *o = cJSON_AddObjectToObject(root, "analysed_up_to");
		cJSON_AddNumberToObject(o, "position", up && up->position != FW_AN_NA ? up->position : 0);
		cJSON_AddStringToObject(o, "sha", up ? up->sha : "");
	}
	add_envs(root, db, s, keys, msel);
	metrics = cJSON_AddArrayToObject(root, "metrics");
	for (int i = 0; i < s->nmetrics; i++) {
		cJSON *m;

		if (msel && !msel[i])
			continue;
		m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "metric", s->metrics[i].id);
		cJSON_AddStringToObject(m, "workload", s->metrics[i].workload);
		cJSON_AddStringToObject(m, "variant", s->metrics[i].variant);
		cJSON_AddStringToObject(m, "name", s->metrics[i].metric);
		cJSON_AddStringToObject(m, "unit", s->metrics[i].unit);
		cJSON_AddStringToObject(m, "direction", s->metrics[i].direction);
		cJSON_AddStringToObject(m, "env", keys[i]);
		fw_json_num_or_null(m, "min_effect_pct", s->metrics[i].min_effect_pct);
		cJSON_AddItemToArray(metrics, m);
	}
	change_points_json(root, s, an, msel, keys);
	commits = cJSON_AddArrayToObject(root, "commits");
	for (int c = 0; c < s->ncommits; c++)
		if (!csel || csel[c])
			cJSON_AddItemToArray(commits, fw_series_commit_json(s, c, keys, msel, ix));
	an_index_free(ix);
	fw_env_keys_free(s, keys);
	return root;
}

cJSON *fw_series_json(sqlite3 *db, const struct fw_series *s, const struct fw_an *an)
{
	return fw_series_json_sel(db, s, an, NULL, NULL);
}

/* "split", "split/pmd-to-0" or "split/pmd-to-0/split_ms" names metric m. */
static int metric_selected(const struct fw_metric *m, const char *sel)
{
	size_t lw = strlen(m->workload), lv = strlen(m->variant);

	if (strncmp(sel, m->workload, lw) || (sel[lw] != '/' && sel[lw]))
		return 0;
	if (!sel[lw])
		return 1;
	sel += lw + 1;
	if (strncmp(sel, m->variant, lv) || (sel[lv] != '/' && sel[lv]))
		return 0;
	return !sel[lv] || !strcmp(sel + lv + 1, m->metric);
}

/*
 * ?metrics= (is_commits 0) or ?commits= (1) as a mask over the series'
 * metrics or commits in *mask (NULL when absent: all). 0, or -1 after
 * replying: an item that selects nothing is an error naming it.
 */
static int selection(struct fw_req *r, const struct fw_series *s, int is_commits, char **mask,
		     enum MHD_Result *ret)
{
	const char *field = is_commits ? "commits" : "metrics";
	struct strbuf v = STRBUF_INIT, msg = STRBUF_INIT;
	int n = is_commits ? s->ncommits : s->nmetrics, rc = 0;
	char *save = NULL;

	*mask = NULL;
	rc = req_query(r, field, &v);
	if (rc == -1) {
		rc = 0;
		goto cleanup;
	}
	if (rc == -2) {
		*ret = reply_error(r, 400, "bad_parameter", field, "bad percent-encoding");
		goto cleanup;
	}
	*mask = xcalloc((size_t)n + 1, 1);
	for (char *tok = strtok_r(v.buf, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		int hit = 0;

		if (is_commits) {
			int c = fw_series_find_commit(s, tok);

			if (c == -2) {
				req_commit(r, s, field, tok, ret);  /* the 409 listing the candidates */
				rc = -1;
			} else if (c >= 0) {
				(*mask)[c] = hit = 1;
			}
		} else {
			for (int i = 0; i < n; i++)
				if (metric_selected(&s->metrics[i], tok))
					(*mask)[i] = hit = 1;
		}
		if (!hit && !rc) {
			strbuf_addf(&msg, is_commits ? "no commit of this series has a sha starting with '%s'"
						     : "no metric of this series is '%s' (workload[/variant[/metric]])", tok);
			*ret = reply_error(r, is_commits ? 404 : 400, is_commits ? "not_found" : "bad_parameter",
					   field, msg.buf);
			rc = -1;
		}
	}
	if (!rc && !v.len) {
		*ret = reply_error(r, 400, "bad_parameter", field, is_commits ? "commits= names no commit"
										 : "metrics= names no metric");
		rc = -1;
	}
cleanup:
	strbuf_release(&v);
	strbuf_release(&msg);
	return rc;
}

enum MHD_Result api_series_get(struct fw_req *r)
{
	struct fw_series_only none = { NULL, 0, { 0, 0 } };  /* the commits first: a long window is streamed */
	struct fw_series s;
	enum MHD_Result ret;
	struct fw_an *an;
	char *msel = NULL, *csel = NULL;
	struct strbuf sel = STRBUF_INIT;
	/* a long history's newest FW_SERIES_ANSWER_COMMITS unless asked (commits= names any of them) */
	int last_n = req_query(r, "commits", &sel) ? FW_SERIES_ANSWER_COMMITS : 0;
	int whole = last_n && req_query(r, "metrics", &sel) == -1;  /* no selection: the answer may be streamed */

	strbuf_release(&sel);
	if (req_series_part(r, r->args[0], "name", last_n, &none, &s, &ret))
		return ret;
	if (whole && s.ncommits > FW_SERIES_ANSWER_COMMITS)
		return api_series_stream(r, &s);
	if (req_series_samples(r, &s, NULL, &ret)) {
		fw_series_free(&s);
		return ret;
	}
	if (!selection(r, &s, 0, &msel, &ret) && !selection(r, &s, 1, &csel, &ret)) {
		an = req_analysis_for(r, &s, NULL);
		an_apply(&s, an);
		ret = reply_json(r, 200, fw_series_json_sel(req_db(r), &s, an, msel, csel));
		fw_an_free(an);
	}
	free(msel);
	free(csel);
	fw_series_free(&s);
	return ret;
}
