#ifndef FW_NOTIFY_H
#define FW_NOTIFY_H
/*
 * Telling people (issue 16), two background threads of `serve`, each with its
 * own DB connection, never on the request path:
 * - detection (server/detect.c): after a stored run, the regressions of its
 *   series are refreshed (fw_regressions_refresh); requests for a series
 *   already waiting are coalesced. The triggers of migration 0005 write an
 *   outbox event for every regression change in the same transaction.
 * - delivery (server/deliver.c): every undelivered (webhook, event) row is
 *   POSTed, signed, with retries on an exponential backoff; rows survive a
 *   crash, so a restart sends what was not acknowledged (same event key).
 *   It also releases held events (schema/holds.c, migration 0007): a series
 *   revision still being measured keeps its events until the collector says
 *   the run is complete or no run came for settle_s; then the net change
 *   per regression goes out (or nothing, for a flip that undid itself).
 */
#include <pthread.h>
#include <sqlite3.h>
#include "strbuf.h"
#include "holds.h"

struct fw_notify_opts {
	double backoff_s;      /* first retry delay; doubles per failed attempt */
	double backoff_max_s;  /* the cap of that delay */
	const char *public_url; /* prefix of the events' links, or NULL: links are paths */
	double settle_s;       /* a series revision no run came for this long is complete */
};

#define FW_NOTIFY_PENDING_MAX 256  /* more waiting series: refresh them all at once */

struct fw_notify {
	struct fw_notify_opts o;
	const char *dbpath;
	pthread_mutex_t lock;
	pthread_cond_t wake_detect, wake_deliver;
	char *pending[FW_NOTIFY_PENDING_MAX];
	int npending, pending_all, kick_deliver, stop;
	pthread_t detect_th, deliver_th;
	int started;
};

/* Starts both threads; 0, or -1 with err. An active webhook makes detection sweep every series once first. */
int fw_notify_start(struct fw_notify *n, const char *dbpath, const struct fw_notify_opts *o, struct strbuf *err);
/* Asks for a refresh of `series` (NULL: of every series) soon; returns at once. */
void fw_notify_series(struct fw_notify *n, const char *series);
/* Wakes the delivery thread (a hold may be due: POST .../complete). */
void fw_notify_kick(struct fw_notify *n);
/* Stops and joins the threads (a refresh or POST under way finishes first). */
void fw_notify_stop(struct fw_notify *n);

/* server/deliver.c: the delivery thread's body (arg: the struct fw_notify). */
void *fw_deliver_main(void *arg);
/* server/webhook-body.c: the JSON an event is POSTed as (payload: the outbox row's). NULL if it does not parse. */
char *fw_webhook_body(const char *type, const char *event_key, const char *payload, const char *public_url);

#endif
