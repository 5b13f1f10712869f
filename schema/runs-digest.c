/*
 * The digest of what a series' analysis rests on (its runs, and the runs of
 * their environments up to the series' newest), remembered while the
 * database's runs generation stays the same (migration 0014: triggers set
 * runs_stamp.generation to a new random value on every change to a run, a
 * commit's series or an environment's fingerprint, whichever process
 * writes). Reading every run of the series cost 0.3 s, half of each cold
 * page at 10,000 commits, though a busy server's runs change far less often
 * than its pages are asked for.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "fw-db.h"
#include "sha256.h"
#include "store-analysis.h"

#define MEMO_SLOTS 64  /* a feed or the regressions page reads up to 50 series */

struct digest_memo {
	char where[65];       /* sha256 of the database's file name and db_id; "" when empty */
	long long generation, series_id;
	char digest[65];
	unsigned long used;
};

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct digest_memo memo[MEMO_SLOTS];
static unsigned long memo_uses;

/* Each run (id, content hash, boot status), then each environment's run count and newest run. */
static int hash_series_runs(sqlite3 *db, long long series_id, char out[65], struct strbuf *err)
{
	static const char *const sql[] = {
		"SELECT r.run_id, r.doc_hash, r.boot_status FROM runs r "
		"JOIN commits c ON c.id = r.commit_id WHERE c.series_id = ?1 ORDER BY r.id",
		"SELECT e.fingerprint, COUNT(*), MAX(r2.id) FROM runs r2 JOIN environments e ON e.id = r2.env_id "
		"WHERE r2.env_id IN (SELECT r.env_id FROM runs r JOIN commits c ON c.id = r.commit_id "
		"WHERE c.series_id = ?1) AND r2.id <= (SELECT MAX(r.id) FROM runs r JOIN commits c "
		"ON c.id = r.commit_id WHERE c.series_id = ?1) GROUP BY e.fingerprint ORDER BY e.fingerprint",
	};
	struct sha256_ctx h;

	sha256_init(&h);
	for (int q = 0; q < 2; q++) {
		sqlite3_stmt *st = NULL;
		int rc;

		if (sqlite3_prepare_v2(db, sql[q], -1, &st, NULL) != SQLITE_OK) {
			strbuf_addf(err, "hashing runs: %s", sqlite3_errmsg(db));
			return -1;
		}
		sqlite3_bind_int64(st, 1, series_id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			for (int col = 0; col < 3; col++) {
				const char *t = fw_db_text(st, col);

				sha256_update(&h, t, strlen(t));
				sha256_update(&h, "\n", 1);
			}
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			strbuf_addf(err, "hashing runs: %s", sqlite3_errmsg(db));
			return -1;
		}
		sha256_update(&h, "--\n", 3);
	}
	sha256_final_hex(&h, out);
	return 0;
}

/*
 * Which database (file name and db_id) and its runs generation: 0, or 1 when
 * it cannot be told (an in-memory or temporary database), -1 with err.
 */
static int runs_stamp(sqlite3 *db, char where[65], long long *generation, struct strbuf *err)
{
	const char *file = sqlite3_db_filename(db, "main");
	sqlite3_stmt *st = NULL;
	struct sha256_ctx h;
	int rc;

	if (!file || !*file)
		return 1;
	if (sqlite3_prepare_v2(db, "SELECT db_id, generation FROM runs_stamp WHERE id = 1", -1, &st, NULL) !=
	    SQLITE_OK) {
		strbuf_addf(err, "reading the runs generation: %s", sqlite3_errmsg(db));
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		sha256_init(&h);
		sha256_update(&h, file, strlen(file) + 1);  /* with its NUL: the name ends here */
		sha256_update(&h, fw_db_text(st, 0), strlen(fw_db_text(st, 0)));
		sha256_final_hex(&h, where);
		*generation = sqlite3_column_int64(st, 1);
	} else if (rc != SQLITE_DONE) {
		strbuf_addf(err, "reading the runs generation: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

static struct digest_memo *memo_find(const char *where, long long generation, long long series_id)
{
	for (int i = 0; i < MEMO_SLOTS; i++)
		if (memo[i].series_id == series_id && memo[i].generation == generation && !strcmp(memo[i].where, where))
			return &memo[i];
	return NULL;
}

static int memo_get(const char *where, long long generation, long long series_id, char out[65])
{
	struct digest_memo *m;

	pthread_mutex_lock(&memo_lock);
	if ((m = memo_find(where, generation, series_id))) {
		memcpy(out, m->digest, 65);
		m->used = ++memo_uses;
	}
	pthread_mutex_unlock(&memo_lock);
	return m != NULL;
}

/* Keeps it in the slot used longest ago (this database's older generations go first that way too). */
static void memo_put(const char *where, long long generation, long long series_id, const char digest[65])
{
	struct digest_memo *m = &memo[0];

	pthread_mutex_lock(&memo_lock);
	for (int i = 1; i < MEMO_SLOTS && m->used; i++)
		if (memo[i].used < m->used)
			m = &memo[i];
	memcpy(m->where, where, 65);
	m->generation = generation;
	m->series_id = series_id;
	memcpy(m->digest, digest, 65);
	m->used = ++memo_uses;
	pthread_mutex_unlock(&memo_lock);
}

int fw_store_series_runs_digest(sqlite3 *db, long long series_id, char out[65], struct strbuf *err)
{
	struct strbuf again = STRBUF_INIT;
	char where[65];
	long long before = 0, after = 0;
	int known = runs_stamp(db, where, &before, err);

	if (known < 0)
		return -1;
	if (!known && memo_get(where, before, series_id, out))
		return 0;
	if (hash_series_runs(db, series_id, out, err))
		return -1;
	/*
	 * Kept only when no writer committed in between (each commit draws a new
	 * generation, so equal readings around the scan mean it read that one),
	 * and not from inside a write transaction, which may yet roll back.
	 */
	if (!known && sqlite3_txn_state(db, "main") != SQLITE_TXN_WRITE && !runs_stamp(db, where, &after, &again) &&
	    after == before)
		memo_put(where, before, series_id, out);
	strbuf_release(&again);
	return 0;
}
