/* foliowatch-server token add NAME | list | revoke NAME [--db FILE]: API tokens for POST /api/v1/runs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "fw-db.h"
#include "token-db.h"

static int list(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT name, created_at, coalesce(revoked_at, '') FROM api_tokens ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "token: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *rev = (const char *)sqlite3_column_text(st, 2);

		printf("%s\t%s\t%s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		       rev && *rev ? rev : "active");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : 1;
}

int cmd_token(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = FW_DB_DEFAULT, *verb, *name = NULL;
	struct strbuf err = STRBUF_INIT, tok = STRBUF_INIT;
	sqlite3 *db = NULL;
	int opt, ret = 1, rc;

	while ((opt = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
		if (opt != 'd')
			goto usage;
		dbpath = optarg;
	}
	if (optind >= argc)
		goto usage;
	verb = argv[optind];
	if (!strcmp(verb, "add") || !strcmp(verb, "revoke")) {
		if (optind + 2 != argc || !*argv[optind + 1])
			goto usage;
		name = argv[optind + 1];
	} else if (strcmp(verb, "list") || optind + 1 != argc) {
		goto usage;
	}
	db = fw_db_open(dbpath, &err);
	if (!db) {
		fprintf(stderr, "token: %s\n", err.buf);
		goto cleanup;
	}
	if (!strcmp(verb, "list")) {
		ret = list(db);
	} else if (!strcmp(verb, "add")) {
		rc = fw_token_add(db, name, &tok, &err);
		if (rc == 0) {
			/* The only time the clear token exists outside the client. */
			printf("%s\n", tok.buf);
			ret = 0;
		} else if (rc == 1) {
			fprintf(stderr, "token: a token named '%s' exists (names stay taken after revoke: pick another name)\n", name);
		} else {
			fprintf(stderr, "token: %s\n", err.buf);
		}
	} else {
		rc = fw_token_revoke(db, name, &err);
		if (rc == 0)
			ret = 0;
		else if (rc == 1)
			fprintf(stderr, "token: no active token named '%s'\n", name);
		else
			fprintf(stderr, "token: %s\n", err.buf);
	}
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-server token add NAME | list | revoke NAME [--db FILE]\n");
	ret = 2;
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&tok);
	return ret;
}
