/*
 * The analysis cache as the analysis sees it: a result is stored as a head
 * (everything but its rows) and its rows one by one, each with what a part of
 * the result is selected by (position, metric, decided), so that a page reads
 * its window of a year of history and not the whole (store-analysis.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-data.h"
#include "fw-db.h"

/* Rows read back from the cache: each parsed into the result's "rows". */
static int cache_add_row(const char *body, void *ctx)
{
	cJSON *row = cJSON_Parse(body);

	if (!row)
		return 1;  /* a damaged row: not cached */
	cJSON_AddItemToArray(ctx, row);
	return 0;
}

cJSON *fw_an_cache_get(sqlite3 *db, const char *key, const char *hash, const struct fw_store_cache_part *part)
{
	struct strbuf head = STRBUF_INIT;
	cJSON *rows = cJSON_CreateArray(), *out = NULL;

	if (fw_store_cache_get(db, key, hash, part, &head, cache_add_row, rows) && (out = cJSON_Parse(head.buf))) {
		/* the head keeps an empty "rows" where the rows go, so the keys keep their order */
		if (cJSON_HasObjectItem(out, "rows"))
			cJSON_ReplaceItemInObjectCaseSensitive(out, "rows", rows);
		else
			cJSON_AddItemToObject(out, "rows", rows);
		rows = NULL;
	}
	cJSON_Delete(rows);
	strbuf_release(&head);
	return out;
}

/* What one row is selected by, and whether part keeps it. */
static void row_sel(const cJSON *row, struct fw_an_row_sel *rs)
{
	const char *v = fw_json_str(row, "verdict", "");

	snprintf(rs->metric_key, sizeof(rs->metric_key), "%s/%s/%s", fw_json_str(row, "workload", ""),
		 fw_json_str(row, "variant", ""), fw_json_str(row, "metric", ""));
	rs->position = (int)fw_json_num(row, "position", 0);
	/*
	 * Against the parent only: what the feeds, the regressions page and a
	 * regression's profile read. On a long history most rows against the
	 * base are decided after a step (hundreds of thousands at 10,000
	 * commits: a feed read them all, 20 s and gigabytes).
	 */
	rs->decided = (!strcmp(v, "regression") || !strcmp(v, "improvement")) &&
		      !strcmp(fw_json_str(row, "against", ""), "parent");
}

static int part_keeps(const struct fw_store_cache_part *p, const cJSON *row)
{
	struct fw_an_row_sel rs;

	if (!p)
		return 1;
	row_sel(row, &rs);
	return (p->from < 0 || rs.position >= p->from) && (p->to < 0 || rs.position <= p->to) &&
	       (!p->metric_key || !strcmp(p->metric_key, rs.metric_key)) && (!p->decided_only || rs.decided);
}

int fw_an_put_next(struct fw_store_cache_row *row, void *ctx)
{
	struct fw_an_put_iter *it = ctx;

	free(it->body);
	it->body = NULL;
	if (!it->next || !(it->body = cJSON_PrintUnformatted(it->next)))
		return 0;
	row_sel(it->next, &it->rs);
	row->position = it->rs.position;
	row->metric_key = it->rs.metric_key;
	row->decided = it->rs.decided;
	row->body = it->body;
	it->next = it->next->next;
	return 1;
}

/* A cache that cannot be written (read-only DB, busy) only costs time: errors are ignored. */
void fw_an_cache_put(sqlite3 *db, const char *key, const char *hash, cJSON *body, double seconds)
{
	cJSON *rows = cJSON_GetObjectItemCaseSensitive(body, "rows"), *first = rows ? rows->child : NULL;
	struct fw_an_put_iter it = { .next = first };
	char *head, now[32];

	/* the head without its rows: they are stored one by one */
	if (rows)
		rows->child = NULL;
	head = cJSON_PrintUnformatted(body);
	if (rows)
		rows->child = first;
	fw_now_iso(now);
	if (head)
		fw_store_cache_put(db, key, hash, head, now, (long long)(seconds * 1000), fw_an_put_next, &it);
	free(it.body);
	free(head);
}

/* An analysis of older data than hash: "stale", and the newest commit it saw. */
void fw_an_mark_stale(cJSON *res, const char *hash)
{
	const cJSON *commits = cJSON_GetObjectItemCaseSensitive(res, "commits"), *c, *last = NULL;

	if (!strcmp(fw_json_str(res, "data_hash", ""), hash))
		return;  /* written meanwhile: current after all */
	cJSON_ArrayForEach(c, commits)
		last = c;
	cJSON_AddBoolToObject(res, "stale", 1);
	if (last)
		cJSON_AddItemToObject(res, "analysed_up_to", cJSON_Duplicate(last, 1));
}

/* Drops the rows part does not keep from a freshly computed result. */
void fw_an_keep_part(cJSON *res, const struct fw_store_cache_part *part)
{
	cJSON *rows = cJSON_GetObjectItemCaseSensitive(res, "rows"), *r, *next;

	if (!part || !rows)
		return;
	for (r = rows->child; r; r = next) {
		next = r->next;
		if (!part_keeps(part, r))
			cJSON_Delete(cJSON_DetachItemViaPointer(rows, r));
	}
}
