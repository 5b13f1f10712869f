/* Read-side: the environments, for the pages' names of them (see store.h). */
#include <stdlib.h>
#include <string.h>
#include "store.h"
#include "xalloc.h"

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

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
		e->fingerprint = col_dup(st, 0);
		e->host = col_dup(st, 1);
		e->accel = col_dup(st, 2);
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
