#ifndef FW_TOKEN_DB_H
#define FW_TOKEN_DB_H
/* API tokens: only sha256(token) is stored; checks compare in constant time. */
#include <sqlite3.h>
#include "strbuf.h"

/*
 * Scopes: what a token may do. Routes declare the one they need (server/routes.c);
 * admin holds every scope. Stored as text, "ingest,triage".
 */
enum { FW_SCOPE_INGEST = 1, FW_SCOPE_TRIAGE = 2, FW_SCOPE_ADMIN = 4 };
#define FW_SCOPE_ALL (FW_SCOPE_INGEST | FW_SCOPE_TRIAGE | FW_SCOPE_ADMIN)
/* "ingest,triage" -> bits; -1 with the unknown name in err. */
int fw_scopes_parse(const char *list, unsigned *out, struct strbuf *err);
void fw_scopes_format(unsigned scopes, struct strbuf *out);
/* 1 when `have` grants `need` (admin grants all). */
int fw_scope_grants(unsigned have, unsigned need);

/* Creates a token for NAME; the clear token goes to out (shown once). 0 ok, 1 name taken, -1 error. */
int fw_token_add(sqlite3 *db, const char *name, unsigned scopes, struct strbuf *out, struct strbuf *err);
/* 0 revoked, 1 no such active token, -1 error. */
int fw_token_revoke(sqlite3 *db, const char *name, struct strbuf *err);
/* 1 valid (name copied to name_out, its scopes to *scopes), 0 not valid, -1 DB error. */
int fw_token_check(sqlite3 *db, const char *token, char name_out[128], unsigned *scopes);

/* One token as `token list` shows it (never the hash): pointers valid during the callback. */
struct fw_token_info {
	const char *name, *created_at, *revoked_at, *scopes;  /* revoked_at NULL: active */
};
/* Calls each() for every token, ordered by name. 0, or -1 with err. */
int fw_token_list(sqlite3 *db, void (*each)(const struct fw_token_info *t, void *ctx), void *ctx,
		  struct strbuf *err);

#endif
