#ifndef FW_INGEST_H
#define FW_INGEST_H
#include <sqlite3.h>
#include <stddef.h>
#include "run-doc.h"

enum fw_ingest_status {
	FW_INGEST_STORED,     /* new run, committed */
	FW_INGEST_DUPLICATE,  /* same run id, same content: nothing written */
	FW_INGEST_CONFLICT,   /* same run id, other content: nothing written */
	FW_INGEST_INVALID,    /* validation failed: err names the field */
	FW_INGEST_DB_ERROR,   /* SQLite failed (disk full, busy, ...): rolled back */
};

struct fw_ingest_info {
	enum fw_ingest_status status;
	char run_id[160];
	char series[1024];  /* the document's series name (200 characters at most) */
	struct fw_error err;
	int results, samples, profiles;
};

/*
 * Parses, validates and stores one run document in one transaction: all or
 * nothing. Idempotent on run_id (compared by the sha256 of the canonical form).
 * Called inside the caller's transaction, the document is a savepoint of it:
 * stored only when the caller commits.
 */
enum fw_ingest_status fw_ingest(sqlite3 *db, const char *buf, size_t len, struct fw_ingest_info *info);
/* Same for a tree already parsed and validated. */
enum fw_ingest_status fw_ingest_doc(sqlite3 *db, const cJSON *doc, struct fw_ingest_info *info);
/*
 * Documents per transaction of the import command: every commit writes the
 * pages a document touched, and each document touches the same pages of
 * the results index (one place per metric) as the one before.
 */
#define FW_INGEST_BATCH 64
const char *fw_ingest_status_name(enum fw_ingest_status s);

#endif
