/*
 * Query plans of every statement run, for the plan test (sql-plans.h). The plan
 * comes from EXPLAIN QUERY PLAN on a second, read-only connection to the same
 * file: a trace callback must not use the connection it traces. A statement
 * whose plan cannot be read there (a temp table) is logged as such.
 */
#include "sql-plans.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan_conn {
	sqlite3 *plans;           /* the second connection */
	struct plan_conn *next;   /* kept reachable: they live as long as the process */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct plan_conn *conns;
static uint64_t *seen;        /* FNV-1a hashes of the SQL already logged */
static size_t nseen, aseen;

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* 1 the first time this process sees sql. */
static int first_time(const char *sql)
{
	uint64_t h = fnv1a(sql);
	for (size_t i = 0; i < nseen; i++)
		if (seen[i] == h)
			return 0;
	if (nseen == aseen) {
		size_t a = aseen ? 2 * aseen : 64;
		uint64_t *n = realloc(seen, a * sizeof(*n));
		if (!n)
			return 0;
		seen = n;
		aseen = a;
	}
	seen[nseen++] = h;
	return 1;
}

static void log_plan(FILE *f, sqlite3 *plans, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *q = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sql);

	fprintf(f, "SQL %s\n", sql);
	if (q && sqlite3_prepare_v2(plans, q, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			fprintf(f, "PLAN %s\n", (const char *)sqlite3_column_text(st, 3));
	} else {
		fprintf(f, "NOPLAN %s\n", sqlite3_errmsg(plans));
	}
	sqlite3_finalize(st);
	sqlite3_free(q);
}

static int traced(unsigned type, void *ctx, void *p, void *x)
{
	struct plan_conn *c = ctx;
	const char *sql = sqlite3_sql(p), *path = getenv("FW_SQL_PLANS");
	(void)type;
	(void)x;

	if (!sql || !path)
		return 0;
	pthread_mutex_lock(&lock);
	if (first_time(sql)) {
		FILE *f = fopen(path, "a");
		if (f) {
			log_plan(f, c->plans, sql);
			fclose(f);
		}
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

void fw_sql_plans_attach(sqlite3 *db, const char *path)
{
	const char *log = getenv("FW_SQL_PLANS");
	struct plan_conn *c;

	if (!log || !*log || !(c = calloc(1, sizeof(*c))))
		return;
	if (sqlite3_open_v2(path, &c->plans, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(c->plans);
		free(c);
		return;
	}
	pthread_mutex_lock(&lock);
	c->next = conns;
	conns = c;
	pthread_mutex_unlock(&lock);
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, traced, c);
}
