/* foliowatch-server token add NAME | list | revoke NAME [--db FILE]: API tokens for POST /api/v1/runs. */
#include <stdio.h>
#include <string.h>
#include "cmdopt.h"
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
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT,
		  "the database; add creates it if missing, list and revoke need it to exist" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "token", "add NAME [--db FILE]\n"
		"list [--db FILE]\nrevoke NAME [--db FILE]",
		"API tokens for POST /api/v1/runs (and regression status changes), one per\n"
		"runner. add prints the new token on stdout: it is shown only this once, the\n"
		"database keeps only its sha256. list prints name, creation time and state;\n"
		"revoke disables a token (its name stays taken).\n"
		"Exit: 0 ok, 1 error (name taken, no such token), 2 usage error.",
		opts, "add runner-1 --db /var/lib/foliowatch/foliowatch.db > runner-1.token\n"
		"list --db foliowatch.db\nrevoke runner-1 --db foliowatch.db" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT, *verb, *name = NULL;
	struct strbuf err = STRBUF_INIT, tok = STRBUF_INIT;
	sqlite3 *db = NULL;
	int opt, ret = 1, rc;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt != 'd') {
			ret = g.exit;
			goto cleanup;
		}
		dbpath = optarg;
	}
	if (optind >= argc) {
		fw_usage_error(&usage, "say add NAME, list or revoke NAME");
		goto usage;
	}
	verb = argv[optind];
	if (!strcmp(verb, "add") || !strcmp(verb, "revoke")) {
		if (optind + 1 == argc || !*argv[optind + 1]) {
			fw_usage_error(&usage, "%s needs a token NAME", verb);
			goto usage;
		}
		if (optind + 2 != argc) {
			fw_usage_error(&usage, "unexpected argument '%s'", argv[optind + 2]);
			goto usage;
		}
		name = argv[optind + 1];
	} else if (strcmp(verb, "list")) {
		fw_usage_error(&usage, "unknown action '%s' (add, list or revoke)", verb);
		goto usage;
	} else if (optind + 1 != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind + 1]);
		goto usage;
	}
	/* only add writes a new row: list and revoke on a mistyped --db must not create a DB */
	db = !strcmp(verb, "add") ? fw_db_open(dbpath, &err) : fw_db_open_existing(dbpath, &err);
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
			fflush(stdout);
			fprintf(stderr, "token: added '%s'. This is the only time the token is shown (the database keeps "
				"only its sha256): store it now, e.g. as the runner's --token-file\n", name);
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
usage: /* the message is out */
	ret = 2;
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&tok);
	return ret;
}
