#ifndef FW_WEBHOOK_DB_H
#define FW_WEBHOOK_DB_H
/* Webhooks in the DB (migration 0005): URL and signing secret, kept in clear (the HMAC needs it). */
#include <sqlite3.h>
#include "strbuf.h"

#define FW_WEBHOOK_URL_MAX    2048
#define FW_WEBHOOK_SECRET_MAX 1024

/* Why url is no webhook URL (http(s)://, printable ASCII, no spaces), or NULL. */
const char *fw_webhook_url_problem(const char *url);
/* Why secret is no usable secret (1..FW_WEBHOOK_SECRET_MAX printable ASCII bytes), or NULL. */
const char *fw_webhook_secret_problem(const char *secret);
/* A new random secret ("fwh_" + 64 hex digits) into out; 0 or -1. */
int fw_webhook_secret_new(struct strbuf *out);
/* Adds an active webhook: 0 with its id, -1 with err. */
int fw_webhook_add(sqlite3 *db, const char *url, const char *secret, long long *id, struct strbuf *err);
/* Removes it and its pending deliveries: 0, 1 when there is no such id, -1 with err. */
int fw_webhook_remove(sqlite3 *db, long long id, struct strbuf *err);

/* One webhook as `webhook list` shows it (never the secret): valid during the callback. */
struct fw_webhook_info {
	long long id;
	const char *created_at, *url;
	int active, delivered, waiting;  /* deliveries done and still waiting */
};
/* Calls each() for every webhook, ordered by id. 0, or -1 with err. */
int fw_webhook_list(sqlite3 *db, void (*each)(const struct fw_webhook_info *w, void *ctx), void *ctx,
		    struct strbuf *err);
/* One due (webhook, event) delivery: strings malloc'd (fw_delivery_release). */
struct fw_delivery {
	long long webhook_id, outbox_id;
	int attempts;
	char *url, *secret, *key, *type, *payload;
};
/* Up to max undelivered rows due at now_s (epoch seconds) of active webhooks, oldest event first; how many, or -1. */
int fw_deliveries_due(sqlite3 *db, double now_s, struct fw_delivery *d, int max);
void fw_delivery_release(struct fw_delivery *d);
/*
 * Writes one attempt's outcome: HTTP status (0: no answer); delivered_at =
 * now_iso when ok, and the next attempt at next_s (epoch seconds). 0 or -1.
 */
int fw_delivery_record(sqlite3 *db, const struct fw_delivery *d, int status, int ok, const char *now_iso,
		       double next_s);
/* When the next undelivered row of an active webhook falls due (epoch seconds): 1, 0 none, -1 DB error. */
int fw_deliveries_next(sqlite3 *db, double *at_s);
/*
 * 1 when the DB has an active webhook or a hold with runs detection has not
 * seen (a restart then sweeps for changes missed by a crash), 0 when not,
 * -1 when it cannot be read.
 */
int fw_store_needs_sweep(sqlite3 *db);

#endif
