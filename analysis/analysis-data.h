#ifndef FW_ANALYSIS_DATA_H
#define FW_ANALYSIS_DATA_H
/*
 * Inside the analysis: the samples of a series as analysed (analysis-data.c
 * loads them), the cached result's rows (analysis-cache.c), a history a part
 * at a time (analysis-history.c) and the engine over them (analysis-db.c).
 */
#include <stddef.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "analysis-internal.h"
#include "store-analysis.h"
#include "strbuf.h"

struct commit_info {
	long long id;
	char *sha, *key, *subject, *parent_sha;
	int position;
	long parent;   /* index of the parent commit in the series, -1 none */
};

struct key_info {
	char *workload, *variant, *params, *metric, *unit, *direction, *kind;
	double min_effect;   /* NaN when no result declared one */
	size_t rank;         /* a loaded key's: of its workload, variant, params, metric */
};

/* A boot's document run_id (the samples' order within a commit), by its row. */
struct run_key {
	long long id;
	char *key;
	int look;            /* sequential.look as stored, 0 not recorded */
};

struct env_info {
	char *fp, *host, *accel;
	long long cutoff;    /* oldest build of the newest FW_EVIDENCE_KERNELS here; -1 not looked up */
};

/*
 * Observations in parallel arrays: v/run can then be handed to stats as-is.
 * They are loaded in any order and sorted by fw_data_sort: by key, then
 * environment, position, commit, run, round. k[] are the keys in that order;
 * kv[] what was loaded (a key as each result declared its unit, direction,
 * kind), which k[] points into.
 */
struct data {
	struct commit_info *c;
	size_t nc, ac;
	long base;           /* index of the base commit, -1 none */
	struct key_info *k;
	size_t nk, ak;
	struct env_info *e;
	size_t ne, ae;
	struct key_info *kv;
	size_t nkv, akv, last_kv;
	struct run_key *runs;
	size_t nruns, aruns;
	size_t *ob_key, *ob_env, *ob_commit, *ob_kv, *ob_runi;
	long *ob_run;
	int *ob_round;
	double *ob_min_effect;
	size_t sorted_no;    /* observations [0, sorted_no) are sorted; those after were added since */
	int skip_base;       /* the base's samples are held already (a history's window): not added again */
	int *ob_looks;       /* planned looks of the boot (sequential.max_looks; 1: fixed design) */
	int *ob_look;        /* the boot's look (sequential.look; 1 when not recorded) */
	double *ob_v;
	size_t no, ao;
	long max_run;        /* newest run read: the same-kernel evidence stops there */
	int max_look;        /* largest look recorded (0: none) */
	long long *sorted_ids;   /* commit ids sorted, with their index below */
	size_t *sorted_idx;
	int watched;         /* a history: decided commit by commit (history-window.h) */
	int tip;             /* the newest position of the series (a history) */
	int partial, keep_from, keep_to;  /* partial: only what positions keep_from..keep_to decide is kept */
	int win_from, win_to;             /* a history's window: the positions whose samples are held */
};

/* Whether the result keeps what position pos decides (a history computed a part at a time). */
static inline int fw_data_keeps(const struct data *d, int pos)
{
	return !d->partial || (pos >= d->keep_from && pos <= d->keep_to);
}


/* Loading a series' commits, then its samples (fw_store_scope_commits/_samples callbacks). */
void fw_data_free(struct data *d);
int fw_data_add_commit(const struct fw_store_commit_row *r, void *ctx);
/* Indexes the commits read: the base (base_sha, NULL none) and each commit's parent. Before fw_data_add_obs. */
void fw_data_index_commits(struct data *d, const char *base_sha);
int fw_data_add_obs(const struct fw_store_obs *o, void *ctx);
/* Puts the observations added since the last sort in order, and the keys with them. */
void fw_data_sort(struct data *d);
/* The samples of scope sc added to d (commits indexed), and sorted: 0, or -1 with err. */
int fw_data_load_samples(sqlite3 *db, const struct fw_store_scope *sc, struct data *d, struct strbuf *err);
/* Drops the observations of positions below pos, except the base's (a history's window moving on). */
void fw_data_drop_before(struct data *d, int pos);
/*
 * win (zeroed, or a window of series sid before) made the samples of
 * positions from..to and of the base. A history's parts come in increasing
 * order, so the window moves on: the positions it leaves are dropped, the
 * new ones loaded and merged in; a window that would move back is loaded
 * anew. 0, or -1 with err.
 */
int fw_data_window(sqlite3 *db, long long sid, const char *base_sha, struct data *win, int from, int to,
		   struct strbuf *err);

/* What names one series' cached analysis: its id, revision, base, and the data hash. */
struct fw_series_key {
	long long sid;
	int revision, watched;
	char *base;
	char key[64], hash[65], rule[65];
	struct fw_det_table det;
};

/* The analysis of d into out (rows, change points, combined rows, determinism); 0 or -1 with err. */
int fw_analyse(sqlite3 *db, struct data *d, const struct fw_analysis_opts *o, const struct fw_det_table *det,
	       cJSON *out, int pair_mode, struct strbuf *err);
void fw_an_opts_json(cJSON *out, const struct fw_analysis_opts *o, int watched);
void fw_an_commits_json(cJSON *out, const struct data *d);
/* A result's head: the series, its key, the options and the commits of d. */
cJSON *fw_an_head(const char *series, const struct fw_series_key *k, const struct fw_analysis_opts *o, int watched,
		  const struct data *d);
/* A history's change points and combined rows (NULL: none) in one order however computed. */
void fw_an_sort_history(cJSON *cps, cJSON *combined);
double fw_an_seconds_now(void);

/* The cached result under key (hash NULL: whichever is stored), its rows those part keeps; NULL none. */
cJSON *fw_an_cache_get(sqlite3 *db, const char *key, const char *hash, const struct fw_store_cache_part *part);
/* Stores body (its rows one by one); a cache that cannot be written only costs time. */
void fw_an_cache_put(sqlite3 *db, const char *key, const char *hash, cJSON *body, double seconds);
/* What one row is selected by (fw_store_cache_row). */
struct fw_an_row_sel {
	char metric_key[3 * FW_DOC_MAX_NAME + 3];
	int position, decided;
};
/* Rows handed to the store one at a time from a list: next is its first item. */
struct fw_an_put_iter {
	const cJSON *next;
	char *body;
	struct fw_an_row_sel rs;
};
int fw_an_put_next(struct fw_store_cache_row *row, void *ctx);
/* Marks an analysis of older data than hash "stale", with the newest commit it saw. */
void fw_an_mark_stale(cJSON *res, const char *hash);
/* Drops the rows part does not keep from a freshly computed result. */
void fw_an_keep_part(cJSON *res, const struct fw_store_cache_part *part);

/* A history (a watched series) analysed whole, a part at a time: the result with its rows; NULL with err. */
cJSON *fw_history_whole(sqlite3 *db, const char *series, struct fw_series_key *k,
			const struct fw_analysis_opts *o, struct strbuf *err);
/*
 * The first analysis of a history of more than one chunk, stored a chunk at a
 * time (memory: a chunk's, not the history's): the result (rows as part
 * keeps), or NULL (one chunk, or a writer in between: do the whole).
 */
cJSON *fw_history_first(sqlite3 *db, const char *series, struct fw_series_key *k,
			const struct fw_analysis_opts *o, const struct fw_store_cache_part *part, double t0);
/* Only what its new runs decide, patched into the cache: the result (rows as part keeps), or NULL (do the whole). */
cJSON *fw_history_update(sqlite3 *db, const char *series, struct fw_series_key *k,
			 const struct fw_analysis_opts *o, const struct fw_store_cache_part *part, double t0);

#endif
