/* Read-side: the environments, for the pages' names of them (see store.h). */
#include <stdlib.h>
#include <string.h>
#include "fw-db.h"
#include "stmt-cache.h"
#include "store.h"
#include "xalloc.h"

int fw_store_envs(sqlite3 *db, struct fw_store_env **out, int *n)
{
	sqlite3_stmt *st = NULL;
	int alloc = 0, rc;

	*out = NULL;
	*n = 0;
	if (!db || sqlite3_prepare_v2(db, "SELECT fingerprint, host, accel, vcpus FROM environments"
				      " ORDER BY host, accel, vcpus, fingerprint", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fw_store_env *e;

		FW_ALLOC_GROW(*out, *n + 1, alloc);
		e = &(*out)[(*n)++];
		e->fingerprint = xstrdup(fw_db_text(st, 0));
		e->host = xstrdup(fw_db_text(st, 1));
		e->accel = xstrdup(fw_db_text(st, 2));
		e->vcpus = sqlite3_column_int(st, 3);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

void fw_store_envs_free(struct fw_store_env *e, int n)
{
	for (int i = 0; i < n; i++) {
		free(e[i].fingerprint);
		free(e[i].host);
		free(e[i].accel);
	}
	free(e);
}

int fw_store_env_get(sqlite3 *db, const char *fingerprint, struct fw_store_env *e)
{
	sqlite3_stmt *st = db ? fw_stmt_get(db, FW_CACHED("SELECT host, accel, vcpus FROM environments"
							  " WHERE fingerprint = ?1")) : NULL;
	int rc;

	memset(e, 0, sizeof(*e));
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, fingerprint, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		e->fingerprint = xstrdup(fingerprint);
		e->host = xstrdup(fw_db_text(st, 0));
		e->accel = xstrdup(fw_db_text(st, 1));
		e->vcpus = sqlite3_column_int(st, 2);
	}
	fw_stmt_done(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

void fw_store_env_release(struct fw_store_env *e)
{
	free(e->fingerprint);
	free(e->host);
	free(e->accel);
	memset(e, 0, sizeof(*e));
}
