/* API tokens in api_tokens: random 32 bytes, shown once, stored as sha256 hex. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include "token-db.h"
#include "utf8.h"
#include "fw-db.h"
#include "sha256.h"

static const char *const scope_names[] = { "ingest", "triage", "admin" };

int fw_scopes_parse(const char *list, unsigned *out, struct strbuf *err)
{
	const char *p = list;

	*out = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i = 0;

		while (i < 3 && (strlen(scope_names[i]) != n || strncmp(p, scope_names[i], n)))
			i++;
		if (i == 3) {
			strbuf_addf(err, "unknown scope '%.*s' (ingest, triage or admin)", (int)n, p);
			return -1;
		}
		*out |= 1u << i;
		p += n + (p[n] == ',');
	}
	if (!*out) {
		strbuf_addstr(err, "no scope given (ingest, triage or admin)");
		return -1;
	}
	return 0;
}

void fw_scopes_format(unsigned scopes, struct strbuf *out)
{
	const char *sep = "";

	for (unsigned i = 0; i < 3; i++)
		if (scopes & (1u << i)) {
			strbuf_addf(out, "%s%s", sep, scope_names[i]);
			sep = ",";
		}
}

int fw_scope_grants(unsigned have, unsigned need)
{
	return (have & FW_SCOPE_ADMIN) || (have & need) == need;
}

int fw_token_add(sqlite3 *db, const char *name, unsigned scopes, struct strbuf *out, struct strbuf *err)
{
	struct strbuf sc = STRBUF_INIT;
	unsigned char raw[32];
	char hash[65], now[32];
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	/* The name goes into answers and a triage's "by" (r->token holds 127 bytes). */
	if (!*name || strlen(name) > 127 || utf8_invalid_at(name, strlen(name)) >= 0 ||
	    strcspn(name, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14"
			  "\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f") != strlen(name)) {
		strbuf_addstr(err, "a token name is 1 to 127 bytes of UTF-8 text without control characters");
		return -1;
	}
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		strbuf_addstr(err, "getrandom failed");
		goto cleanup;
	}
	strbuf_reset(out);
	strbuf_addstr(out, "fwt_");
	for (size_t i = 0; i < sizeof(raw); i++)
		strbuf_addf(out, "%02x", raw[i]);
	sha256_hex(out->buf, out->len, hash);
	fw_now_iso(now);
	fw_scopes_format(scopes, &sc);
	if (sqlite3_prepare_v2(db, "INSERT INTO api_tokens (name, hash, created_at, scopes) VALUES (?1, ?2, ?3, ?4)",
			       -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_text(st, 4, sc.buf, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT) { /* extended result codes are on */
		ret = 1;
		goto cleanup;
	}
	if (rc != SQLITE_DONE)
		goto dberr;
	ret = 0;
	goto cleanup;
dberr:
	strbuf_addstr(err, sqlite3_errmsg(db));
cleanup:
	if (ret)
		strbuf_reset(out);
	strbuf_release(&sc);
	sqlite3_finalize(st);
	return ret;
}

int fw_token_revoke(sqlite3 *db, const char *name, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	int ret = -1;

	fw_now_iso(now);
	if (sqlite3_prepare_v2(db, "UPDATE api_tokens SET revoked_at = ?2 WHERE name = ?1 AND revoked_at IS NULL",
			       -1, &st, NULL) != SQLITE_OK || (sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT),
			       sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT), sqlite3_step(st)) != SQLITE_DONE) {
		strbuf_addstr(err, sqlite3_errmsg(db));
		goto cleanup;
	}
	ret = sqlite3_changes(db) ? 0 : 1;
cleanup:
	sqlite3_finalize(st);
	return ret;
}

/* Differences are OR-ed together so the time does not depend on where they are. */
static int ct_equal(const char *a, const char *b, size_t n)
{
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

int fw_token_check(sqlite3 *db, const char *token, char name_out[128], unsigned *scopes)
{
	struct strbuf ignore = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	char hash[65];
	int rc, ret = 0;

	name_out[0] = 0;
	*scopes = 0;
	sha256_hex(token, strlen(token), hash);
	if (sqlite3_prepare_v2(db, "SELECT name, hash, scopes FROM api_tokens WHERE revoked_at IS NULL",
			       -1, &st, NULL) != SQLITE_OK) {
		ret = -1;
		goto cleanup;
	}
	/* Every active token is compared, also after a match. */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *h = (const char *)sqlite3_column_text(st, 1);

		if (h && strlen(h) == 64 && ct_equal(h, hash, 64) && !ret) {
			utf8_copy(name_out, 128, (const char *)sqlite3_column_text(st, 0));
			/* an unreadable scope list grants nothing */
			const char *sc = (const char *)sqlite3_column_text(st, 2);

			if (!sc || fw_scopes_parse(sc, scopes, &ignore))
				*scopes = 0;
			ret = 1;
		}
	}
	if (rc != SQLITE_DONE)
		ret = -1;
cleanup:
	strbuf_release(&ignore);
	sqlite3_finalize(st);
	return ret;
}

int fw_token_list(sqlite3 *db, void (*each)(const struct fw_token_info *t, void *ctx), void *ctx,
		  struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT name, created_at, revoked_at, scopes FROM api_tokens ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK) {
		strbuf_addstr(err, sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *rev = (const char *)sqlite3_column_text(st, 2);
		struct fw_token_info t = {
			.name = (const char *)sqlite3_column_text(st, 0),
			.created_at = (const char *)sqlite3_column_text(st, 1),
			.revoked_at = rev && *rev ? rev : NULL,
			.scopes = (const char *)sqlite3_column_text(st, 3),
		};
		each(&t, ctx);
	}
	if (rc != SQLITE_DONE)
		strbuf_addstr(err, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}
