#ifndef FW_HOLDS_H
#define FW_HOLDS_H
/*
 * Held events (schema/holds.c, migration 0007): a series revision still being
 * measured keeps its outbox events until the collector says the run is
 * complete or no run came for the settle time; then the net change per
 * regression is released to the webhooks (server/notify.h's threads call these).
 */
#include <sqlite3.h>

/* Detection marks what it has seen (series NULL: all); 0 or -1. */
int fw_holds_detect_begin(sqlite3 *db, const char *series);
int fw_holds_detect_end(sqlite3 *db, const char *series);
/* Releases the holds now due; how many. *next_s: seconds until the next is due, -1 none known. */
int fw_holds_release_due(sqlite3 *db, double settle_s, double *next_s);
/*
 * Up to max names (malloc'd) of series with a hold whose runs detection has
 * not seen and no run for quiet_s: stored by another process (import, run
 * --db), so no POST queued their detection.
 */
int fw_holds_undetected(sqlite3 *db, double quiet_s, char **names, int max);
struct fw_hold_info {
	int revision;     /* the revision marked (the newest when 0 was asked for) */
	int open;         /* a hold was open (runs stored since the last release) */
	int runs;         /* runs stored under it */
	int held_events;  /* events waiting in it */
};
/* The collector's "run complete" for series/revision (0: newest): 0, 1 no such series/revision, -1 DB error. */
int fw_hold_complete(sqlite3 *db, const char *series, int revision, struct fw_hold_info *out);

#endif
