/*
 * A history (a watched series) analysed a part at a time (README "Deciding",
 * history-window.h): the first analysis in chunks, and after new boots only
 * the positions they decide, the rest kept from the stored result.
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-data.h"
#include "fw-db.h"
#include "history-window.h"
#include "xalloc.h"

/*
 * A history a part at a time (history-window.h): what positions a..b decide
 * needs the samples of the 305 positions before a (their BH windows and
 * evidence), of the change-point blocks a..b touch, and of the base.
 */
#define FW_HISTORY_BEFORE (FW_HISTORY_LOOKBACK + FW_HISTORY_BH_WINDOW - 1)
/*
 * The first analysis of a history goes this many positions at a time, each
 * stored before the next: memory is a part's rows (about 0.6 MB a position at
 * 40 metrics), not the history's. Measured on 600 commits of the bench's
 * history: 128 positions 129 MB and 19.6 s, 200 172 MB and 14.6 s, the whole
 * at once 418 MB and 12.3 s (a part also loads the 305 positions before it).
 */
#define FW_HISTORY_CHUNK 128

/* What a part adds to the result being assembled. */
struct history_acc {
	cJSON *rows, *cps, *combined, *determinism;
	int looks, look;
};

/*
 * Drops the change points of the blocks positions a..b touch: a part finds
 * those of every block it touches, and two parts may share one (a chunk is
 * not a multiple of FW_HISTORY_CP_BLOCK).
 */
static void drop_blocks(cJSON *cps, int a, int b)
{
	cJSON *c, *next;

	for (c = cps->child; c; c = next) {
		int blk = (int)fw_json_num(c, "position", 0) / FW_HISTORY_CP_BLOCK;

		next = c->next;
		if (blk >= a / FW_HISTORY_CP_BLOCK && blk <= b / FW_HISTORY_CP_BLOCK)
			cJSON_Delete(cJSON_DetachItemViaPointer(cps, c));
	}
}

/*
 * Positions a..b of a history computed on the window d (moved on to them):
 * into acc, empty before, what they add to the result (acc_merge). Reads
 * db, writes nothing: it may run on a thread of its own (fw_history_first).
 */
static int history_part(sqlite3 *db, const struct fw_series_key *k, const struct fw_analysis_opts *o, int a, int b,
			struct data *d, struct history_acc *acc, struct strbuf *err)
{
	cJSON *out = cJSON_CreateObject();
	int ret = -1;

	if (fw_data_window(db, k->sid, k->base, d, a - FW_HISTORY_BEFORE,
			   (b / FW_HISTORY_CP_BLOCK + 1) * FW_HISTORY_CP_BLOCK - 1, err))
		goto cleanup;
	d->watched = 1;
	d->partial = 1;
	d->keep_from = a;
	d->keep_to = b;
	for (size_t i = 0; i < d->nc; i++)
		d->tip = i ? (d->c[i].position > d->tip ? d->c[i].position : d->tip) : d->c[i].position;
	for (size_t i = 0; i < d->ne; i++)
		d->e[i].cutoff = -1;  /* the newest run held moved */
	if (fw_analyse(db, d, o, &k->det, out, 0, err))
		goto cleanup;
	acc->looks = (int)fw_json_num(out, "looks", 1);
	acc->look = (int)fw_json_num(out, "look", 0);
	acc->rows = cJSON_DetachItemFromObject(out, "rows");
	acc->cps = cJSON_DetachItemFromObject(out, "change_points");
	acc->combined = cJSON_DetachItemFromObject(out, "combined");
	if (fw_data_keeps(d, d->tip))
		acc->determinism = cJSON_DetachItemFromObject(out, "determinism");
	ret = 0;
cleanup:
	cJSON_Delete(out);
	return ret;
}

static void acc_release(struct history_acc *acc)
{
	cJSON_Delete(acc->rows);
	cJSON_Delete(acc->cps);
	cJSON_Delete(acc->combined);
	cJSON_Delete(acc->determinism);
	*acc = (struct history_acc){ NULL, NULL, NULL, NULL, 1, 0 };
}

static void move_items(cJSON *from, cJSON *to)
{
	for (cJSON *it; from && (it = cJSON_DetachItemFromArray(from, 0));)
		cJSON_AddItemToArray(to, it);
}

/* What part a..b computed (history_part), added to the result being assembled; part is emptied. */
static void acc_merge(struct history_acc *acc, struct history_acc *part, int a, int b)
{
	acc->looks = acc->looks > part->looks ? acc->looks : part->looks;
	acc->look = acc->look > part->look ? acc->look : part->look;
	move_items(part->rows, acc->rows);
	drop_blocks(acc->cps, a, b);
	move_items(part->cps, acc->cps);
	move_items(part->combined, acc->combined);
	if (part->determinism) {
		cJSON_Delete(acc->determinism);
		acc->determinism = part->determinism;
		part->determinism = NULL;
	}
	acc_release(part);
}

/* Whether position pos (of a row, a combined row: block 0; of a change point: block 1) lies in a range. */
static int in_ranges(const int *r, size_t n, int pos, int block)
{
	for (size_t i = 0; i < n; i++) {
		int lo = r[2 * i], hi = r[2 * i + 1];
		if (block ? pos / FW_HISTORY_CP_BLOCK >= lo / FW_HISTORY_CP_BLOCK &&
				    pos / FW_HISTORY_CP_BLOCK <= hi / FW_HISTORY_CP_BLOCK
			  : pos >= lo && pos <= hi)
			return 1;
	}
	return 0;
}

/* prev's items (change points or combined rows) that no range recomputed, into to. */
static void keep_outside(const cJSON *prev, const char *name, const int *r, size_t n, int block, cJSON *to)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(prev, name))
		if (!in_ranges(r, n, (int)fw_json_num(it, "position", 0), block))
			cJSON_AddItemToArray(to, cJSON_Duplicate(it, 1));
}

/* The result being assembled: what prev (its stored head, or NULL) keeps outside ranges[]. */
static void acc_start(struct history_acc *acc, const cJSON *prev, const int *ranges, size_t n)
{
	*acc = (struct history_acc){ cJSON_CreateArray(), cJSON_CreateArray(), cJSON_CreateArray(), NULL, 1, 0 };
	if (prev) {
		acc->looks = (int)fw_json_num(prev, "looks", 1);
		acc->look = (int)fw_json_num(prev, "look", 0);
		acc->determinism = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(prev, "determinism"), 1);
		keep_outside(prev, "change_points", ranges, n, 1, acc->cps);
		keep_outside(prev, "combined", ranges, n, 0, acc->combined);
	}
}

/* The "history" member: the runs this analysis saw (where the next starts), the ranges computed anew. */
static void history_member(cJSON *res, const struct fw_series_key *k, const int *ranges, size_t n,
			   const long long runs[2])
{
	cJSON *h = cJSON_AddObjectToObject(res, "history");

	cJSON_AddNumberToObject(h, "runs", (double)runs[0]);
	cJSON_AddNumberToObject(h, "max_run", (double)runs[1]);
	cJSON_AddStringToObject(h, "rule", k->rule);
	h = cJSON_AddArrayToObject(h, "computed");
	for (size_t i = 0; i < n; i++) {
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(ranges[2 * i]));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(ranges[2 * i + 1]));
		cJSON_AddItemToArray(h, pair);
	}
}

/*
 * The result of an assembled acc (emptied): the head, "rows" empty, *rows
 * the parts' rows. win: the window the parts ran on (no part: none).
 */
static cJSON *history_result(sqlite3 *db, const char *series, struct fw_series_key *k,
			     const struct fw_analysis_opts *o, struct history_acc *acc, const int *ranges, size_t n,
			     const long long runs[2], const struct data *win, cJSON **rows, struct strbuf *err)
{
	struct data d = { 0 };
	struct fw_store_scope sc = { .series_id = k->sid };
	cJSON *res = NULL, *h;

	if (!win->nc) {  /* no part ran: the commits for the head */
		if (fw_store_scope_commits(db, &sc, fw_data_add_commit, &d, err))
			goto cleanup;
		fw_data_index_commits(&d, k->base);
	}
	fw_an_sort_history(acc->cps, acc->combined);
	res = fw_an_head(series, k, o, 1, win->nc ? win : &d);
	cJSON_AddNumberToObject(res, "looks", acc->looks);
	cJSON_AddNumberToObject(res, "look", acc->look);
	h = cJSON_AddArrayToObject(res, "alpha_at_looks");
	for (int i = 1; i <= acc->looks; i++)
		cJSON_AddItemToArray(h, cJSON_CreateNumber(fw_alpha_at_look(o->alpha, i, acc->looks)));
	cJSON_AddItemToObject(res, "determinism", acc->determinism ? acc->determinism : cJSON_CreateArray());
	cJSON_AddArrayToObject(res, "rows");
	cJSON_AddItemToObject(res, "change_points", acc->cps);
	cJSON_AddItemToObject(res, "combined", acc->combined);
	acc->determinism = acc->cps = acc->combined = NULL;
	history_member(res, k, ranges, n, runs);
	*rows = acc->rows;
	acc->rows = NULL;
cleanup:
	acc_release(acc);
	fw_data_free(&d);
	return res;
}

/*
 * A history's result: the parts ranges[] computed anew, the rest of prev (its
 * stored head; NULL: every position is in a range). *rows gets the parts'
 * rows (sorted); the head has "rows" empty. NULL with err on an error.
 */
static cJSON *history_compute(sqlite3 *db, const char *series, struct fw_series_key *k,
			      const struct fw_analysis_opts *o, const cJSON *prev, const int *ranges, size_t n,
			      long long runs[2], struct data *win, cJSON **rows, struct strbuf *err)
{
	struct history_acc acc, part = { NULL, NULL, NULL, NULL, 1, 0 };

	acc_start(&acc, prev, ranges, n);
	for (size_t i = 0; i < n; i++) {
		if (history_part(db, k, o, ranges[2 * i], ranges[2 * i + 1], win, &part, err)) {
			acc_release(&part);
			acc_release(&acc);
			return NULL;
		}
		acc_merge(&acc, &part, ranges[2 * i], ranges[2 * i + 1]);
	}
	return history_result(db, series, k, o, &acc, ranges, n, runs, win, rows, err);
}

/* The positions a history's runs newer than a mark touch, and its span. */
struct history_dirty {
	int *pos;
	size_t n, alloc;
};

static int dirty_add(int position, void *ctx)
{
	struct history_dirty *dd = ctx;

	FW_ALLOC_GROW(dd->pos, dd->n + 1, dd->alloc);
	dd->pos[dd->n++] = position;
	return 0;
}

/* The first and last positions of the series (*lo > *hi: none) and the base's (-1: none). */
static int history_span(sqlite3 *db, const struct fw_series_key *k, int *lo, int *hi, int *base, struct strbuf *err)
{
	struct data d = { 0 };
	struct fw_store_scope sc = { .series_id = k->sid };

	if (fw_store_scope_commits(db, &sc, fw_data_add_commit, &d, err))
		return -1;
	fw_data_index_commits(&d, k->base);
	*lo = d.nc ? d.c[0].position : 1;
	*hi = d.nc ? d.c[d.nc - 1].position : 0;
	*base = d.base >= 0 ? d.c[d.base].position : -1;
	fw_data_free(&d);
	return 0;
}

/* Ranges [x, x + FW_HISTORY_BEFORE] of each dirty x (sorted) and of the tip, merged, clipped to hi. */
static size_t dirty_ranges(const struct history_dirty *dd, int hi, int *r)
{
	size_t n = 0;

	for (size_t i = 0; i <= dd->n; i++) {
		int x = i < dd->n ? dd->pos[i] : hi, end = x + FW_HISTORY_BEFORE < hi ? x + FW_HISTORY_BEFORE : hi;
		if (n && x <= r[2 * n - 1] + 1)
			r[2 * n - 1] = end > r[2 * n - 1] ? end : r[2 * n - 1];
		else
			r[2 * n] = x, r[2 * n + 1] = end, n++;
	}
	return n;
}

/* Positions a part of a first analysis decides (FOLIOWATCH_HISTORY_CHUNK: tests make small ones). */
static int history_chunk(void)
{
	const char *e = getenv("FOLIOWATCH_HISTORY_CHUNK");
	int n = e ? atoi(e) : 0;

	return n >= 1 ? n : FW_HISTORY_CHUNK;
}

/* Chunks of the whole span lo..hi (the first analysis). */
static size_t chunk_ranges(int lo, int hi, int **r)
{
	int c = history_chunk();
	size_t n = lo > hi ? 0 : (size_t)((hi - lo) / c + 1);

	*r = xmalloc((2 * n + 1) * sizeof(**r));
	for (size_t i = 0; i < n; i++) {
		(*r)[2 * i] = lo + (int)i * c;
		(*r)[2 * i + 1] = lo + (int)(i + 1) * c - 1 < hi ? lo + (int)(i + 1) * c - 1 : hi;
	}
	return n;
}

/* A history analysed whole, a chunk at a time: the result with its rows. */
cJSON *fw_history_whole(sqlite3 *db, const char *series, struct fw_series_key *k,
			    const struct fw_analysis_opts *o, struct strbuf *err)
{
	struct history_dirty none = { 0 };
	struct data win = { 0 };
	long long runs[2] = { 0, 0 }, upto;
	int lo, hi, base, *r = NULL;
	size_t n;
	cJSON *res = NULL, *rows = NULL;

	if (fw_store_series_runs_since(db, k->sid, 0, &runs[0], &runs[1], &upto, dirty_add, &none, err) ||
	    history_span(db, k, &lo, &hi, &base, err))
		goto cleanup;
	n = chunk_ranges(lo, hi, &r);
	if ((res = history_compute(db, series, k, o, NULL, r, n, runs, &win, &rows, err)))
		cJSON_ReplaceItemInObjectCaseSensitive(res, "rows", rows);
cleanup:
	fw_data_free(&win);
	free(none.pos);
	free(r);
	return res;
}

/* The stored head of a history made under k's rule (its rows not read), else NULL. */
static cJSON *history_prev(sqlite3 *db, const struct fw_series_key *k)
{
	static const struct fw_store_cache_part no_rows = { 1, 0, NULL, 0 };
	cJSON *prev = fw_an_cache_get(db, k->key, NULL, &no_rows);

	if (prev && (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(prev, "watched")) ||
		     strcmp(fw_json_str(cJSON_GetObjectItemCaseSensitive(prev, "history"), "rule", ""), k->rule))) {
		cJSON_Delete(prev);
		prev = NULL;
	}
	return prev;
}

/*
 * Where the detection must look again for regressions in a patched history
 * (fw_analysis_regressions_from): the lowest position recomputed since the
 * last analysis whose regressions were stored; the rows below are those it
 * already stored from. Absent (every row) when no stored one is known.
 */
static void regressions_from(sqlite3 *db, const struct fw_series_key *k, const cJSON *prev, const int *r, size_t n,
			     cJSON *res)
{
	const cJSON *ph = cJSON_GetObjectItemCaseSensitive(prev, "history");
	int from = n ? r[0] : INT_MAX, before;

	if (!fw_store_cache_regressions_stored(db, k->key, fw_json_str(prev, "data_hash", ""))) {
		before = (int)fw_json_num(ph, "regressions_from", -1);
		if (before < 0)
			return;  /* the one before was not a patch whose rows were stored either */
		from = before < from ? before : from;
	}
	cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(res, "history"), "regressions_from", from);
}

/*
 * A history's new data analysed where it decides something: the positions of
 * runs newer than the stored analysis saw, each with the 305 after it (whose
 * windows reach back to it), and the tip; patched into the cache. NULL when
 * that cannot be done (nothing stored, a run deleted or replaced, a new boot
 * of the base, a writer in between): the caller analyses the whole.
 */
cJSON *fw_history_update(sqlite3 *db, const char *series, struct fw_series_key *k,
			     const struct fw_analysis_opts *o, const struct fw_store_cache_part *part, double t0)
{
	struct history_dirty dd = { 0 };
	struct data win = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct fw_an_put_iter it = { 0 };
	long long runs[2], upto;
	int lo, hi, base, *r = NULL;
	size_t n = 0;
	cJSON *prev = history_prev(db, k), *res = NULL, *rows = NULL, *hist;
	char *head = NULL, now[32];

	if (!prev)
		return NULL;
	hist = cJSON_GetObjectItemCaseSensitive(prev, "history");
	if (fw_store_series_runs_since(db, k->sid, (long long)fw_json_num(hist, "max_run", 0), &runs[0], &runs[1],
				       &upto, dirty_add, &dd, &err) ||
	    upto != (long long)fw_json_num(hist, "runs", -1) || history_span(db, k, &lo, &hi, &base, &err))
		goto cleanup;
	for (size_t i = 0; i < dd.n; i++)
		if (dd.pos[i] == base)
			goto cleanup;  /* every row compares with the base */
	r = xmalloc((2 * dd.n + 3) * sizeof(*r));
	n = lo <= hi ? dirty_ranges(&dd, hi, r) : 0;
	if (!(res = history_compute(db, series, k, o, prev, r, n, runs, &win, &rows, &err)))
		goto cleanup;
	regressions_from(db, k, prev, r, n, res);
	head = cJSON_PrintUnformatted(res);
	it.next = rows->child;
	fw_now_iso(now);
	if (head && !fw_store_cache_patch(db, k->key, fw_json_str(prev, "data_hash", ""), k->hash, head, now,
					  (long long)((fw_an_seconds_now() - t0) * 1000), r, n, fw_an_put_next, &it)) {
		cJSON_Delete(res);
		res = fw_an_cache_get(db, k->key, k->hash, part);
	} else {
		cJSON_Delete(res);
		res = NULL;
	}
cleanup:
	free(it.body);
	free(head);
	cJSON_Delete(rows);
	cJSON_Delete(prev);
	fw_data_free(&win);
	free(dd.pos);
	free(r);
	strbuf_release(&err);
	return res;
}

/*
 * What a chunk of a first analysis stores as its head until the last chunk:
 * a rule no update starts from, and the commits up to the chunk's end, so a
 * page showing it as an older analysis says how far it got.
 */
static char *partial_head(const cJSON *res, int upto)
{
	cJSON *copy = cJSON_Duplicate(res, 1), *commits = cJSON_GetObjectItemCaseSensitive(copy, "commits"), *c, *next;
	char *head;

	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(copy, "history"), "rule",
					       cJSON_CreateString("partial"));
	for (c = commits ? commits->child : NULL; c; c = next) {
		next = c->next;
		if (fw_json_num(c, "position", 0) > upto)
			cJSON_Delete(cJSON_DetachItemViaPointer(commits, c));
	}
	head = cJSON_PrintUnformatted(copy);
	cJSON_Delete(copy);
	return head;
}

/* The ranges computed, all of them, in the last chunk's head. */
static void computed_all(cJSON *res, const int *r, size_t n)
{
	cJSON *all = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++) {
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(r[2 * i]));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber(r[2 * i + 1]));
		cJSON_AddItemToArray(all, pair);
	}
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(res, "history"), "computed", all);
}

/*
 * A part of a first analysis computed on a thread of its own, with its own
 * connection (reader), while the main one stores the part before: the two
 * take about as long (perf on the 10,000-commit bench: computing 53%,
 * printing and storing the rows 42%). No reader (an in-memory database):
 * computed in place.
 */
struct part_job {
	sqlite3 *db, *reader, *use;
	const struct fw_series_key *k;
	const struct fw_analysis_opts *o;
	struct data *win;      /* the window: the thread's until part_wait */
	struct history_acc acc;
	struct strbuf err;
	int a, b, ret, running;
	pthread_t thread;
};

static void *part_run(void *arg)
{
	struct part_job *j = arg;

	j->ret = history_part(j->use, j->k, j->o, j->a, j->b, j->win, &j->acc, &j->err);
	return NULL;
}

static void part_start(struct part_job *j, int a, int b)
{
	j->a = a;
	j->b = b;
	j->use = j->reader;
	j->running = j->reader && !pthread_create(&j->thread, NULL, part_run, j);
	if (!j->running) {
		j->use = j->db;
		part_run(j);
	}
}

static int part_wait(struct part_job *j)
{
	if (j->running)
		pthread_join(j->thread, NULL);
	j->running = 0;
	return j->ret;
}

/*
 * Chunk i of n, its part computed (job->acc): assembled against the head of
 * the ones before (prev), the next part started (the window is free once the
 * head is made), then stored (the first put, the next ones patched in if the
 * one before is still what is stored). Its head, or NULL. hash: the stored
 * one's, updated.
 */
static cJSON *first_chunk(sqlite3 *db, const char *series, struct fw_series_key *k, const struct fw_analysis_opts *o,
			  const cJSON *prev, const int *r, size_t i, size_t n, long long runs[2], struct part_job *job,
			  char hash[128], double t0)
{
	struct strbuf err = STRBUF_INIT;
	struct fw_an_put_iter it = { 0 };
	struct history_acc acc;
	cJSON *rows = NULL, *res;
	char *head = NULL, now[32], old[128];
	long long ms = (long long)((fw_an_seconds_now() - t0) * 1000);
	int stored = 0;

	acc_start(&acc, prev, &r[2 * i], 1);
	acc_merge(&acc, &job->acc, r[2 * i], r[2 * i + 1]);
	if (!(res = history_result(db, series, k, o, &acc, &r[2 * i], 1, runs, job->win, &rows, &err)))
		goto cleanup;
	if (i + 1 < n)
		part_start(job, r[2 * i + 2], r[2 * i + 3]);
	snprintf(old, sizeof(old), "%s", hash);
	if (i + 1 == n) {
		computed_all(res, r, n);
		head = cJSON_PrintUnformatted(res);
		snprintf(hash, 128, "%s", k->hash);
	} else {
		head = partial_head(res, r[2 * i + 1]);
		snprintf(hash, 128, "partial %zu/%zu %.40s", i + 1, n, k->hash);
	}
	it.next = rows->child;
	fw_now_iso(now);
	if (!head)
		stored = 0;
	else if (!i)
		stored = !fw_store_cache_put(db, k->key, hash, head, now, ms, fw_an_put_next, &it);
	else
		stored = !fw_store_cache_patch(db, k->key, old, hash, head, now, ms, &r[2 * i], 1, fw_an_put_next, &it);
cleanup:
	if (!stored) {
		cJSON_Delete(res);
		res = NULL;
	}
	free(it.body);
	free(head);
	cJSON_Delete(rows);
	strbuf_release(&err);
	return res;
}

cJSON *fw_history_first(sqlite3 *db, const char *series, struct fw_series_key *k,
			const struct fw_analysis_opts *o, const struct fw_store_cache_part *part, double t0)
{
	struct history_dirty none = { 0 };
	struct data win = { 0 };  /* the samples held from one chunk to the next */
	struct part_job job = { .db = db, .k = k, .o = o, .win = &win, .err = STRBUF_INIT };
	long long runs[2] = { 0, 0 }, upto;
	int lo, hi, base, *r = NULL;
	size_t n = 0;
	char hash[128] = "";
	cJSON *prev = NULL, *res = NULL;

	if (fw_store_series_runs_since(db, k->sid, 0, &runs[0], &runs[1], &upto, dirty_add, &none, &job.err) ||
	    history_span(db, k, &lo, &hi, &base, &job.err) || (n = chunk_ranges(lo, hi, &r)) < 2)
		goto cleanup;
	job.reader = fw_db_open_reader(db, &job.err);
	part_start(&job, r[0], r[1]);
	for (size_t i = 0; i < n; i++) {
		cJSON *head = part_wait(&job) ? NULL : first_chunk(db, series, k, o, prev, r, i, n, runs, &job, hash, t0);

		cJSON_Delete(prev);
		if (!(prev = head))
			goto cleanup;  /* a writer in between (or an error): the caller computes the whole */
	}
	fw_data_free(&win);  /* before the stored result is read */
	res = fw_an_cache_get(db, k->key, k->hash, part);
cleanup:
	part_wait(&job);
	acc_release(&job.acc);
	if (job.reader)
		fw_db_close(job.reader);
	fw_data_free(&win);
	cJSON_Delete(prev);
	free(none.pos);
	free(r);
	strbuf_release(&job.err);
	return res;
}
