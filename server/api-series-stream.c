/*
 * GET /api/v1/series/{name} of a long window (?from=0 on a year of history):
 * the answer is written as libmicrohttpd asks for bytes, FW_SERIES_ANSWER_COMMITS
 * commits at a time, each window loaded with its samples and its part of the
 * analysis, so memory is a window's whatever the history (the whole answer
 * held at once was 452 MB at 600 commits). The head (series, environments,
 * metrics, change points) is the one answer's: environment keys and metrics
 * come from the whole window's metric list. A connection of its own, no
 * transaction held across windows (an analysis may write its cache, and a
 * slow client must not hold the database): a boot imported while the answer
 * is written may show in its later windows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw-db.h"
#include "stmt-cache.h"
#include "routes.h"
#include "store-analysis.h"
#include "ui.h"
#include "xalloc.h"

struct json_stream {
	sqlite3 *db;
	struct fw_series whole;  /* the window's commits and metric list, no samples */
	char **keys;             /* environment keys of whole's metrics */
	int next;                /* whole.commits index of the next window */
	int first;               /* no commit written yet */
	struct strbuf pending;
	size_t off;
	int done;
};

/* The key of environment env (a fingerprint of whole's metrics). */
static char *key_for(const struct json_stream *st, const char *env)
{
	for (int i = 0; i < st->whole.nmetrics; i++)
		if (!strcmp(st->whole.metrics[i].env, env))
			return st->keys[i];
	return NULL;  /* not reached: a window's metrics are the whole's */
}

/* The next window's commits into pending; -1 on a database error (said). */
static int next_window(struct json_stream *st)
{
	const struct fw_series *w0 = &st->whole;
	int last = st->next + FW_SERIES_ANSWER_COMMITS < w0->ncommits ? st->next + FW_SERIES_ANSWER_COMMITS - 1
								       : w0->ncommits - 1;
	struct fw_store_cache_part part = { w0->commits[st->next].position, w0->commits[last].position, NULL, 0 };
	struct strbuf err = STRBUF_INIT;
	struct fw_series w;
	struct fw_an_index *ix;
	char **keys;
	struct fw_an *an;

	if (fw_series_load_window(st->db, w0->name, w0->revision, part.from, part.to, &w, &err)) {
		fprintf(stderr, "foliowatch-server: series answer: %s\n", err.len ? err.buf : "the series went away");
		strbuf_release(&err);
		return -1;
	}
	fw_series_levels(&w);
	an = fw_ui_analysis_part(st->db, w0->name, w0->revision, &part);
	an_apply(&w, an);
	ix = an_index_new(an);
	keys = xcalloc((size_t)w.nmetrics + 1, sizeof(*keys));
	for (int i = 0; i < w.nmetrics; i++)
		keys[i] = key_for(st, w.metrics[i].env);
	for (int c = 0; c < w.ncommits; c++) {
		cJSON *o = fw_series_commit_json(&w, c, keys, NULL, ix);
		char *txt = cJSON_PrintUnformatted(o);

		if (!st->first)
			strbuf_addch(&st->pending, ',');
		st->first = 0;
		strbuf_addstr(&st->pending, txt);
		free(txt);
		cJSON_Delete(o);
	}
	st->next = last + 1;
	free(keys);
	an_index_free(ix);
	fw_an_free(an);
	fw_series_free(&w);
	strbuf_release(&err);
	return 0;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct json_stream *st = cls;

	(void)pos;
	while (!st->done && st->pending.len - st->off < max) {
		if (st->next < st->whole.ncommits) {
			if (next_window(st))
				return MHD_CONTENT_READER_END_WITH_ERROR;
		} else {
			strbuf_addstr(&st->pending, "]}\n");
			st->done = 1;
		}
	}
	return reply_stream_take(&st->pending, &st->off, buf, max);
}

static void stream_free(void *cls)
{
	struct json_stream *st = cls;

	if (st->db)
		fw_db_close(st->db);
	fw_env_keys_free(&st->whole, st->keys);
	fw_series_free(&st->whole);
	strbuf_release(&st->pending);
	free(st);
}

/* The answer up to the commits' '[': the one answer's head with no commit. */
static int head(struct json_stream *st, struct strbuf *err)
{
	struct fw_store_cache_part part = { st->whole.from, st->whole.from, NULL, 0 };
	char *csel = xcalloc((size_t)st->whole.ncommits + 1, 1), *txt;
	struct fw_an *an = fw_ui_analysis_part(st->db, st->whole.name, st->whole.revision, &part);
	cJSON *root;
	size_t len;

	root = fw_series_json_sel(st->db, &st->whole, an, NULL, csel);
	txt = cJSON_PrintUnformatted(root);
	len = txt ? strlen(txt) : 0;
	if (len < 2 || strcmp(txt + len - 2, "]}")) {
		strbuf_addstr(err, "the answer's head does not end with its commits");
		free(txt);
		txt = NULL;
	} else {
		strbuf_add(&st->pending, txt, len - 2);
	}
	free(txt);
	free(csel);
	cJSON_Delete(root);
	fw_an_free(an);
	return st->pending.len ? 0 : -1;
}

enum MHD_Result api_series_stream(struct fw_req *r, struct fw_series *s)
{
	struct json_stream *st = xcalloc(1, sizeof(*st));
	struct strbuf err = STRBUF_INIT;
	enum MHD_Result ret;

	st->whole = *s;
	memset(s, 0, sizeof(*s));
	st->first = 1;
	strbuf_init(&st->pending, 0);
	st->db = fw_db_open_existing(r->srv->dbpath, &err);
	if (st->db && !fw_series_load_metric_list(st->db, &st->whole, &err)) {
		st->keys = fw_env_keys(&st->whole);
		if (!head(st, &err)) {
			ret = reply_stream(r, 200, "application/json", stream_read, st, stream_free);
			strbuf_release(&err);
			return ret;
		}
	}
	ret = reply_error(r, 503, "db_error", NULL, err.len ? err.buf : "cannot read the series");
	stream_free(st);
	strbuf_release(&err);
	return ret;
}
