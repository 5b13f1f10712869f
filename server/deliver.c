/*
 * Webhook delivery (server/notify.h): POSTs each due, undelivered
 * (webhook, event) row of webhook_deliveries, oldest event first, and writes
 * the outcome back: 2xx delivered; anything else (or no answer) another
 * attempt after base * 2^attempts seconds, at most the cap. Never gives up:
 * nothing is lost, and a resent event carries the same X-Foliowatch-Event-Id.
 * HTTP is curl (already a dependency: the collector posts with it), started
 * through runcmd with an argv vector; the body goes on its stdin from a 0600
 * temp file. Signature: X-Foliowatch-Signature: sha256=HMAC-SHA256(secret, body).
 * Before each batch it releases the held events that fell due (schema/holds.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "notify.h"
#include "fw-db.h"
#include "hmac.h"
#include "runcmd.h"
#include "webhook-db.h"
#include "version.h"

#define BATCH 16
#define IDLE_S 5.0  /* look again at least this often: `webhook add` runs in another process */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int post_one(const struct fw_delivery *d, const char *body)
{
	struct strbuf sig = STRBUF_INIT, id = STRBUF_INIT, ev = STRBUF_INIT, ua = STRBUF_INIT, out = STRBUF_INIT;
	char hex[65];
	const char *tmp = getenv("TMPDIR");
	struct strbuf tpath = STRBUF_INIT;
	struct runcmd rc = { 0 };
	int fd, status = 0;
	size_t len = strlen(body);

	strbuf_addf(&tpath, "%s/fw-hook-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(tpath.buf);  /* mode 0600 */
	if (fd < 0 || write(fd, body, len) != (ssize_t)len) {
		fprintf(stderr, "serve: webhook: cannot write the body to a temp file %s\n", tpath.buf);
		goto cleanup;
	}
	fw_hmac_sha256_hex(d->secret, strlen(d->secret), body, len, hex);
	strbuf_addf(&sig, "X-Foliowatch-Signature: sha256=%s", hex);
	strbuf_addf(&id, "X-Foliowatch-Event-Id: %s", d->key);
	strbuf_addf(&ev, "X-Foliowatch-Event: %s", d->type);
	strbuf_addf(&ua, "User-Agent: foliowatch/%s", fw_version);
	{
		const char *argv[] = { "curl", "-sS", "--max-time", "10", "--proto", "=http,https",
			"-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
			"-H", "Content-Type: application/json", "-H", ua.buf,
			"-H", sig.buf, "-H", id.buf, "-H", ev.buf, "--data-binary", "@-", "--url", d->url, NULL };
		rc.argv = argv;
		rc.stdin_path = tpath.buf;
		rc.out = &out;
		rc.timeout_s = 30;
		runcmd_run(&rc);
	}
	status = atoi(out.buf);
cleanup:
	if (fd >= 0) {
		close(fd);
		unlink(tpath.buf);
	}
	strbuf_release(&tpath);
	strbuf_release(&sig);
	strbuf_release(&id);
	strbuf_release(&ev);
	strbuf_release(&ua);
	strbuf_release(&out);
	return status;
}

static void record(sqlite3 *db, const struct fw_notify_opts *o, const struct fw_delivery *d, int status)
{
	int ok = status >= 200 && status < 300;
	double wait = o->backoff_s * pow(2, d->attempts < 60 ? d->attempts : 60);
	char now[32];

	fw_now_iso(now);
	if (wait > o->backoff_max_s)
		wait = o->backoff_max_s;
	if (fw_delivery_record(db, d, status, ok, now, now_s() + wait))
		fprintf(stderr, "serve: webhook: recording a delivery: %s\n", fw_db_errmsg(db));
	if (!ok)
		fprintf(stderr, "serve: webhook %lld: event %s: %s %d; next attempt in %.1f s\n", d->webhook_id, d->key,
			status ? "HTTP" : "no answer", status, wait);
}

/* Seconds until the next row falls due (IDLE_S at most). */
static double until_next(sqlite3 *db)
{
	double at, t = IDLE_S;

	if (fw_deliveries_next(db, &at) == 1)
		t = at - now_s();
	return t < 0 ? 0 : t > IDLE_S ? IDLE_S : t;
}

/* Sends one batch; the number of rows tried, or -1. */
static int deliver_batch(sqlite3 *db, const struct fw_notify_opts *o)
{
	struct fw_delivery d[BATCH];
	int n = fw_deliveries_due(db, now_s(), d, BATCH);

	for (int i = 0; i < n; i++) {
		char *body = fw_webhook_body(d[i].type, d[i].key, d[i].payload, o->public_url);

		record(db, o, &d[i], body ? post_one(&d[i], body) : 0);
		free(body);
		fw_delivery_release(&d[i]);
	}
	return n;
}

/*
 * Runs another process stored (import, run --db) opened holds that no POST
 * queued a detection for: ask for one once they have been quiet a moment
 * (a POSTed run's own detection is queued at once and usually done by then).
 */
#define FOREIGN_QUIET_S 5.0
static void ask_detection(struct fw_notify *n, sqlite3 *db)
{
	char *names[16];
	int k = fw_holds_undetected(db, FOREIGN_QUIET_S, names, 16);

	for (int i = 0; i < k; i++) {
		fw_notify_series(n, names[i]);
		free(names[i]);
	}
}

void *fw_deliver_main(void *arg)
{
	struct fw_notify *n = arg;
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = fw_db_open(n->dbpath, &err);

	if (!db)
		fprintf(stderr, "serve: webhook delivery stopped: %s\n", err.buf);
	pthread_mutex_lock(&n->lock);
	while (db && !n->stop) {
		double wait, hold_s;
		struct timespec ts;
		int released;

		pthread_mutex_unlock(&n->lock);
		ask_detection(n, db);
		released = fw_holds_release_due(db, n->o.settle_s, &hold_s);
		if (deliver_batch(db, &n->o) > 0 || released > 0) {
			pthread_mutex_lock(&n->lock);
			continue;
		}
		wait = until_next(db);
		if (hold_s >= 0 && hold_s < wait)
			wait = hold_s;  /* a hold falls due first */
		pthread_mutex_lock(&n->lock);
		if (n->kick_deliver || n->stop) {
			n->kick_deliver = 0;
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		wait += ts.tv_sec + ts.tv_nsec / 1e9;
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&n->wake_deliver, &n->lock, &ts);
		n->kick_deliver = 0;
	}
	pthread_mutex_unlock(&n->lock);
	fw_db_close(db);
	strbuf_release(&err);
	return NULL;
}
