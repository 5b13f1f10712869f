#ifndef FW_TOKEN_DB_H
#define FW_TOKEN_DB_H
/* API tokens: only sha256(token) is stored; checks compare in constant time. */
#include <sqlite3.h>
#include "strbuf.h"

/* Creates a token for NAME; the clear token goes to out (shown once). 0 ok, 1 name taken, -1 error. */
int fw_token_add(sqlite3 *db, const char *name, struct strbuf *out, struct strbuf *err);
/* 0 revoked, 1 no such active token, -1 error. */
int fw_token_revoke(sqlite3 *db, const char *name, struct strbuf *err);
/* 1 valid (name copied to name_out), 0 not valid, -1 DB error. */
int fw_token_check(sqlite3 *db, const char *token, char name_out[128]);

#endif
