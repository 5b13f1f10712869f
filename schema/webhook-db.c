/* Webhooks: checks and writes (server/webhook-db.h); delivery is server/deliver.c. */
#include <string.h>
#include <sys/random.h>
#include "webhook-db.h"
#include "fw-db.h"

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
