#include "fw-db.h"
#include "fw-migrations.h"
#include "sql-plans.h"
#include "stmt-cache.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void fw_now_iso(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int fw_db_exec(sqlite3 *db, const char *sql, struct strbuf *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	if (err)
		strbuf_addf(err, "sqlite: %s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

int fw_db_begin(sqlite3 *db, struct strbuf *err)
{
	return fw_db_exec(db, "BEGIN IMMEDIATE", err);
}

int fw_db_end(sqlite3 *db, int ok, struct strbuf *err)
{
	if (ok && !fw_db_exec(db, "COMMIT", err))
		return 0;
	fw_db_exec(db, "ROLLBACK", NULL);
	return -1;
}

/* One integer from sql (0 when no row or no such table). */
static long long one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int fw_db_analyze_if_grown(sqlite3 *db, struct strbuf *err)
{
	/* the largest id tracks the row count closely (results go only by prune) and costs one seek */
	long long now = one_int(db, "SELECT max(id) FROM results");
	/* 0 also when sqlite_stat1 does not exist yet (the prepare fails) */
	long long then = one_int(db, "SELECT CAST(stat AS INTEGER) FROM sqlite_stat1 WHERE tbl = 'results' LIMIT 1");

	if (now < 1000 || now <= 2 * then)
		return 0;
	return fw_db_exec(db, "ANALYZE", err) ? -1 : 1;
}

int fw_db_user_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int fw_db_latest_version(void)
{
	return fw_migration_count;
}

/* Each migration and its user_version bump commit together, or not at all. */
static int migrate(sqlite3 *db, int target, struct strbuf *err)
{
	int v;

	/*
	 * Current already: nothing to write, so no write lock. A connection
	 * opened to read (the streamed CSV, a page's) waited behind whatever
	 * wrote (the first analysis of a history) and failed after the busy
	 * timeout: "database is locked".
	 */
	if (fw_db_user_version(db) == target)
		return 0;
	if (fw_db_begin(db, err))
		return -1;
	v = fw_db_user_version(db);
	if (v > fw_migration_count) {
		strbuf_addf(err, "database schema version %d is newer than this program knows (%d)",
			    v, fw_migration_count);
		goto fail;
	}
	for (; v < target; v++) {
		char pragma[64];
		if (fw_db_exec(db, fw_migrations[v], err)) {
			strbuf_addf(err, " (in migration %d)", v + 1);
			goto fail;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if (fw_db_exec(db, pragma, err))
			goto fail;
	}
	return fw_db_end(db, 1, err);
fail:
	return fw_db_end(db, 0, NULL);
}

/*
 * A new DB file is made 0600 before SQLite opens it (SQLite would make it
 * 0644 less the umask): it holds token hashes and webhook secrets. SQLite
 * gives its -wal and -shm files the mode of the DB file. An empty file is an
 * empty database. An existing file keeps its mode.
 */
static int make_private(const char *path, struct strbuf *err)
{
	int fd;

	if (!*path || *path == ':' || !strncmp(path, "file:", 5))
		return 0;  /* SQLite's in-memory and URI names are not plain files */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		return close(fd);
	if (errno == EEXIST)
		return 0;
	strbuf_addf(err, "cannot create database %s: %s", path, strerror(errno));
	return -1;
}

static sqlite3 *open_db(const char *path, int target, int create, struct strbuf *err)
{
	sqlite3 *db = NULL;

	if (target < 0 || target > fw_migration_count)
		target = fw_migration_count;
	if (create && make_private(path, err))
		goto fail;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
			    SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		strbuf_addf(err, "cannot open database %s: %s", path,
			    db ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(db, 10000);
	sqlite3_extended_result_codes(db, 1);
	if (fw_db_exec(db, "PRAGMA journal_mode = WAL", err) ||
	    fw_db_exec(db, "PRAGMA synchronous = NORMAL", err) ||
	    fw_db_exec(db, "PRAGMA foreign_keys = ON", err))
		goto fail;
	if (migrate(db, target, err))
		goto fail;
	fw_sql_plans_attach(db, path);
	return db;
fail:
	if (err->len && db)
		strbuf_addf(err, " [%s]", path);
	fw_db_close(db);
	return NULL;
}

sqlite3 *fw_db_open_at(const char *path, int target, struct strbuf *err)
{
	return open_db(path, target, 1, err);
}

sqlite3 *fw_db_open(const char *path, struct strbuf *err)
{
	return open_db(path, -1, 1, err);
}

sqlite3 *fw_db_open_existing(const char *path, struct strbuf *err)
{
	struct stat st;

	if (stat(path, &st)) {
		strbuf_addf(err, "no database %s: %s (check --db; import or serve create one)", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s is not a database file", path);
		return NULL;
	}
	/* without SQLITE_OPEN_CREATE: a file removed since stat() is not made again */
	return open_db(path, -1, 0, err);
}

sqlite3 *fw_db_open_reader(sqlite3 *db, struct strbuf *err)
{
	const char *file = sqlite3_db_filename(db, "main");

	return file && *file ? fw_db_open_existing(file, err) : NULL;
}

const char *fw_db_errmsg(sqlite3 *db)
{
	return db ? sqlite3_errmsg(db) : "no database";
}

int fw_db_in_transaction(sqlite3 *db)
{
	return db && !sqlite3_get_autocommit(db);
}

long long fw_db_data_version(sqlite3 *db)
{
	sqlite3_stmt *st = db ? fw_stmt_get(db, FW_CACHED("PRAGMA data_version")) : NULL;
	long long v = -1;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	fw_stmt_done(st);
	return v;
}

const char *fw_db_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}
