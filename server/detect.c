/*
 * Detection after ingest (server/notify.h): a queue of series names and one
 * thread that refreshes their regressions, off the request path. POST
 * /api/v1/runs only appends a name (or finds it already waiting).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "notify.h"
#include "webhook-db.h"
#include "analysis.h"
#include "fw-db.h"
#include "xalloc.h"

void fw_notify_series(struct fw_notify *n, const char *series)
{
	int i;

	if (!n || !n->started)
		return;
	pthread_mutex_lock(&n->lock);
	for (i = 0; series && i < n->npending && strcmp(n->pending[i], series); i++)
		;
	if (!series || n->npending == FW_NOTIFY_PENDING_MAX)
		n->pending_all = 1;  /* too many to list: one sweep covers them */
	else if (i == n->npending)
		n->pending[n->npending++] = xstrdup(series);
	pthread_cond_signal(&n->wake_detect);
	pthread_mutex_unlock(&n->lock);
}

/* Takes the waiting names (caller holds the lock): *all set means every series. */
static int take_pending(struct fw_notify *n, char **names, int *all)
{
	int k = n->npending;

	memcpy(names, n->pending, sizeof(*names) * (size_t)k);
	n->npending = 0;
	*all = n->pending_all;
	n->pending_all = 0;
	return k;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);  /* the clock of pthread_cond_timedwait */
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * After a batch that took `busy` seconds, rest FW_DETECT_REST times as long
 * (at least FW_DETECT_MIN_GAP_S) before the next (caller holds the lock):
 * during a bulk ingest the detection takes at most about a fifth of a core,
 * and the POSTs that arrive meanwhile coalesce into the next batch.
 */
#define FW_DETECT_REST 4
#define FW_DETECT_MIN_GAP_S 0.2
static void rest(struct fw_notify *n, double busy)
{
	double gap = busy * FW_DETECT_REST, until;

	until = wall_s() + (gap > FW_DETECT_MIN_GAP_S ? gap : FW_DETECT_MIN_GAP_S);
	while (!n->stop && wall_s() < until) {
		struct timespec ts = { (time_t)until, (long)((until - (double)(time_t)until) * 1e9) };

		pthread_cond_timedwait(&n->wake_detect, &n->lock, &ts);
	}
}

/*
 * Refreshes the regressions of series (NULL: all). The holds of its revisions
 * (schema/holds.c) learn which stored runs it has seen: a hold is released only
 * after a detection that began after its last run. A failed refresh counts as
 * seen too, or one bad series would hold its events for ever (it is logged).
 */
static void detect_one(sqlite3 *db, const char *series, struct strbuf *err)
{
	int marked = !fw_holds_detect_begin(db, series);

	strbuf_reset(err);
	if (fw_db_analyze_if_grown(db, err) < 0)
		fprintf(stderr, "serve: ANALYZE: %s\n", err->buf);
	strbuf_reset(err);
	if (fw_regressions_refresh(db, series, NULL, err))
		fprintf(stderr, "serve: detecting regressions of %s: %s\n", series ? series : "every series", err->buf);
	if (!marked || fw_holds_detect_end(db, series))
		fprintf(stderr, "serve: marking the held runs of %s seen: %s\n", series ? series : "every series",
			fw_db_errmsg(db));
}

static void *detect_main(void *arg)
{
	struct fw_notify *n = arg;
	struct strbuf err = STRBUF_INIT;
	char *names[FW_NOTIFY_PENDING_MAX];
	sqlite3 *db = fw_db_open(n->dbpath, &err);

	if (!db)
		fprintf(stderr, "serve: detection stopped: %s\n", err.buf);
	pthread_mutex_lock(&n->lock);
	while (db && !n->stop) {
		int all, k;
		double t0;

		if (!n->npending && !n->pending_all) {
			pthread_cond_wait(&n->wake_detect, &n->lock);
			continue;
		}
		k = take_pending(n, names, &all);
		pthread_mutex_unlock(&n->lock);
		t0 = wall_s();
		for (int i = 0; i <= k; i++) {
			/* names first, then (i == k) the sweep if one was asked for */
			if ((i < k && !all) || (i == k && all))
				detect_one(db, i < k ? names[i] : NULL, &err);
			if (i < k)
				free(names[i]);
		}
		pthread_mutex_lock(&n->lock);
		n->kick_deliver = 1;  /* new outbox rows may be waiting */
		pthread_cond_signal(&n->wake_deliver);
		rest(n, wall_s() - t0);
	}
	pthread_mutex_unlock(&n->lock);
	fw_db_close(db);
	strbuf_release(&err);
	return NULL;
}

/*
 * 1 when the DB has an active webhook or a hold with runs detection has not
 * seen: then a restart sweeps for changes missed by a crash.
 */
static int needs_sweep(const char *dbpath)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = fw_db_open(dbpath, &err);
	int yes = fw_store_needs_sweep(db) == 1;

	fw_db_close(db);
	strbuf_release(&err);
	return yes;
}

int fw_notify_start(struct fw_notify *n, const char *dbpath, const struct fw_notify_opts *o, struct strbuf *err)
{
	memset(n, 0, sizeof(*n));
	n->o = *o;
	n->dbpath = dbpath;
	pthread_mutex_init(&n->lock, NULL);
	pthread_cond_init(&n->wake_detect, NULL);
	pthread_cond_init(&n->wake_deliver, NULL);
	/* a crash may have come between a stored run and its refresh */
	n->pending_all = needs_sweep(dbpath);
	if (pthread_create(&n->detect_th, NULL, detect_main, n)) {
		strbuf_addstr(err, "cannot start the detection thread");
		return -1;
	}
	if (pthread_create(&n->deliver_th, NULL, fw_deliver_main, n)) {
		strbuf_addstr(err, "cannot start the webhook delivery thread");
		pthread_mutex_lock(&n->lock);
		n->stop = 1;
		pthread_cond_signal(&n->wake_detect);
		pthread_mutex_unlock(&n->lock);
		pthread_join(n->detect_th, NULL);
		return -1;
	}
	n->started = 1;
	return 0;
}

void fw_notify_kick(struct fw_notify *n)
{
	if (!n || !n->started)
		return;
	pthread_mutex_lock(&n->lock);
	n->kick_deliver = 1;
	pthread_cond_signal(&n->wake_deliver);
	pthread_mutex_unlock(&n->lock);
}

void fw_notify_stop(struct fw_notify *n)
{
	if (!n->started)
		return;
	pthread_mutex_lock(&n->lock);
	n->stop = 1;
	pthread_cond_broadcast(&n->wake_detect);
	pthread_cond_broadcast(&n->wake_deliver);
	pthread_mutex_unlock(&n->lock);
	pthread_join(n->detect_th, NULL);
	pthread_join(n->deliver_th, NULL);
	for (int i = 0; i < n->npending; i++)
		free(n->pending[i]);
	n->npending = 0;
	n->started = 0;
	pthread_cond_destroy(&n->wake_detect);
	pthread_cond_destroy(&n->wake_deliver);
	pthread_mutex_destroy(&n->lock);
}
