/* Webhooks: checks and writes (server/webhook-db.h); delivery is server/deliver.c. */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "webhook-db.h"
#include "fw-db.h"
#include "stmt-cache.h"
#include "xalloc.h"

const char *fw_webhook_url_problem(const char *url)
{
	const char *host;

	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return "must start with http:// or https://";
	if (strlen(url) > FW_WEBHOOK_URL_MAX)
		return "is longer than 2048 bytes";
	host = url + (url[4] == 's' ? 8 : 7);
	if (!*host || *host == '/')
		return "names no host";
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return "must be printable ASCII without spaces (percent-encode the rest)";
	return NULL;
}

const char *fw_webhook_secret_problem(const char *secret)
{
	size_t n = strlen(secret);

	if (!n)
		return "is empty";
	if (n > FW_WEBHOOK_SECRET_MAX)
		return "is longer than 1024 bytes";
	for (const char *p = secret; *p; p++)
		if ((unsigned char)*p < ' ' || (unsigned char)*p >= 0x7f)
			return "must be printable ASCII on one line";
	return NULL;
}

int fw_webhook_secret_new(struct strbuf *out)
{
	unsigned char raw[32];

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -1;
	strbuf_reset(out);
	strbuf_addstr(out, "fwh_");
	for (size_t i = 0; i < sizeof(raw); i++)
		strbuf_addf(out, "%02x", raw[i]);
	return 0;
}

int fw_webhook_add(sqlite3 *db, const char *url, const char *secret, long long *id, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	int ret = -1;

	fw_now_iso(now);
	if (sqlite3_prepare_v2(db, "INSERT INTO webhooks(url, secret, created_at) VALUES (?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, secret, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto dberr;
	*id = sqlite3_last_insert_rowid(db);
	ret = 0;
	goto cleanup;
dberr:
	strbuf_addf(err, "adding a webhook: %s", sqlite3_errmsg(db));
cleanup:
	sqlite3_finalize(st);
	return ret;
}

int fw_webhook_remove(sqlite3 *db, long long id, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	/* its delivery rows go with it (ON DELETE CASCADE); the outbox keeps the events */
	if (sqlite3_prepare_v2(db, "DELETE FROM webhooks WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		goto dberr;
	ret = sqlite3_changes(db) ? 0 : 1;
	goto cleanup;
dberr:
	strbuf_addf(err, "removing webhook %lld: %s", id, sqlite3_errmsg(db));
cleanup:
	sqlite3_finalize(st);
	return ret;
}

int fw_webhook_list(sqlite3 *db, void (*each)(const struct fw_webhook_info *w, void *ctx), void *ctx,
		    struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT w.id, w.created_at, w.active, "
			       "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.delivered_at IS NOT NULL), "
			       "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.delivered_at IS NULL), "
			       "w.url FROM webhooks w ORDER BY w.id", -1, &st, NULL) != SQLITE_OK) {
		strbuf_addstr(err, sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_webhook_info w = {
			.id = sqlite3_column_int64(st, 0),
			.created_at = (const char *)sqlite3_column_text(st, 1),
			.active = sqlite3_column_int(st, 2),
			.delivered = sqlite3_column_int(st, 3),
			.waiting = sqlite3_column_int(st, 4),
			.url = (const char *)sqlite3_column_text(st, 5),
		};
		each(&w, ctx);
	}
	if (rc != SQLITE_DONE)
		strbuf_addstr(err, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_store_needs_sweep(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int yes = -1;

	if (db && sqlite3_prepare_v2(db, "SELECT EXISTS (SELECT 1 FROM webhooks WHERE active = 1) "
				     "OR EXISTS (SELECT 1 FROM series_holds WHERE detected_seq < seq)",
				     -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return yes;
}

int fw_deliveries_due(sqlite3 *db, double now_s, struct fw_delivery *d, int max)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT d.webhook_id, d.outbox_id, d.attempts, w.url, w.secret, o.event_key, o.type, o.payload "
		"FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN outbox o ON o.id = d.outbox_id "
		"WHERE d.delivered_at IS NULL AND d.next_attempt_at <= ?1 AND w.active = 1 "
		"ORDER BY d.outbox_id, d.webhook_id LIMIT ?2"));
	int n = 0;

	if (!st)
		return -1;
	sqlite3_bind_double(st, 1, now_s);
	sqlite3_bind_int(st, 2, max);
	while (n < max && sqlite3_step(st) == SQLITE_ROW) {
		d[n].webhook_id = sqlite3_column_int64(st, 0);
		d[n].outbox_id = sqlite3_column_int64(st, 1);
		d[n].attempts = sqlite3_column_int(st, 2);
		d[n].url = xstrdup(fw_db_text(st, 3));
		d[n].secret = xstrdup(fw_db_text(st, 4));
		d[n].key = xstrdup(fw_db_text(st, 5));
		d[n].type = xstrdup(fw_db_text(st, 6));
		d[n].payload = xstrdup(fw_db_text(st, 7));
		n++;
	}
	fw_stmt_done(st);
	return n;
}

void fw_delivery_release(struct fw_delivery *d)
{
	free(d->url);
	free(d->secret);
	free(d->key);
	free(d->type);
	free(d->payload);
}

int fw_delivery_record(sqlite3 *db, const struct fw_delivery *d, int status, int ok, const char *now_iso,
		       double next_s)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = ?1, "
		"delivered_at = CASE WHEN ?2 THEN ?3 END, next_attempt_at = ?4 "
		"WHERE webhook_id = ?5 AND outbox_id = ?6"));
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int(st, 1, status);
	sqlite3_bind_int(st, 2, ok);
	sqlite3_bind_text(st, 3, now_iso, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 4, next_s);
	sqlite3_bind_int64(st, 5, d->webhook_id);
	sqlite3_bind_int64(st, 6, d->outbox_id);
	rc = sqlite3_step(st);
	fw_stmt_done(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int fw_deliveries_next(sqlite3 *db, double *at_s)
{
	sqlite3_stmt *st = fw_stmt_get(db, FW_CACHED(
		"SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
		"WHERE d.delivered_at IS NULL AND w.active = 1"));
	int ret = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		ret = sqlite3_column_type(st, 0) != SQLITE_NULL;
		if (ret)
			*at_s = sqlite3_column_double(st, 0);
	}
	fw_stmt_done(st);
	return ret;
}
