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
