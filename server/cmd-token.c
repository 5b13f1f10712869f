/* foliowatch-server token add NAME [--scopes LIST] | list | revoke NAME [--db FILE]: API tokens and their scopes. */
#include <stdio.h>
#include <string.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "token-db.h"

static void print_token(const struct fw_token_info *t, void *ctx)
{
	(void)ctx;
	printf("%s\t%s\t%s\t%s\n", t->name, t->created_at, t->revoked_at ? t->revoked_at : "active", t->scopes);
}

static int list(sqlite3 *db)
{
	struct strbuf err = STRBUF_INIT;
	int ret = fw_token_list(db, print_token, NULL, &err) ? 1 : 0;

	if (ret)
		fprintf(stderr, "token: %s\n", err.buf);
	strbuf_release(&err);
	return ret;
}

int cmd_token(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT,
		  "the database; add creates it if missing, list and revoke need it to exist" },
		{ "scopes", 's', required_argument, 's', "LIST", "ingest",
		  "add: what the token may do, comma-separated: ingest (POST runs),\ntriage (change a regression's status), admin (everything)" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "token", "add NAME [--scopes LIST] [--db FILE]\n"
		"list [--db FILE]\nrevoke NAME [--db FILE]",
		"API tokens for POST /api/v1/runs (scope ingest, the default: one per runner)\n"
		"and regression status changes (scope triage). add prints the new token on\n"
		"stdout: it is shown only this once, the database keeps only its sha256.\n"
		"list prints name, creation time, state and scopes;\n"
		"revoke disables a token (its name stays taken).\n"
		"Exit: 0 ok, 1 error (name taken, no such token), 2 usage error.",
		opts, "add runner-1 --db /var/lib/foliowatch/foliowatch.db > runner-1.token\n"
		"add alice --scopes triage --db foliowatch.db\nlist --db foliowatch.db\nrevoke runner-1 --db foliowatch.db" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT, *verb, *name = NULL;
	struct strbuf err = STRBUF_INIT, tok = STRBUF_INIT;
	sqlite3 *db = NULL;
	unsigned scopes = FW_SCOPE_INGEST;
	int opt, ret = 1, rc, scoped = 0;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt == 's' && fw_scopes_parse(optarg, &scopes, &err)) {
			fw_usage_error(&usage, "--scopes: %s", err.buf);
			goto usage;
		} else if (opt != 'd' && opt != 's') {
			ret = g.exit;
			goto cleanup;
		}
		dbpath = opt == 'd' ? optarg : dbpath;
		scoped |= opt == 's';
	}
	if (optind >= argc) {
		fw_usage_error(&usage, "say add NAME, list or revoke NAME");
		goto usage;
	}
	verb = argv[optind];
	if (scoped && strcmp(verb, "add")) {
		fw_usage_error(&usage, "--scopes goes with add");
		goto usage;
	}
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
		rc = fw_token_add(db, name, scopes, &tok, &err);
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
