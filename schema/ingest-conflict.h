#ifndef FW_INGEST_CONFLICT_H
#define FW_INGEST_CONFLICT_H
#include <sqlite3.h>
#include <cjson/cJSON.h>

/*
 * The first field of doc (in the document's order) that differs from the
 * stored run of run_id: "boot.seconds", or "results" when the run's own
 * fields agree; NULL when the run cannot be read. A static string.
 */
const char *fw_ingest_first_difference(sqlite3 *db, const char *run_id, const cJSON *doc);

#endif
