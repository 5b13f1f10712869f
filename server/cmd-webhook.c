/*
 * foliowatch-server webhook add URL [--secret-file F] | list | remove ID [--db FILE]:
 * where `serve` POSTs regression events (server/deliver.c), each signed with
 * the webhook's secret. add prints a generated secret once (like token add);
 * the DB keeps it in clear, since signing needs it: keep the DB file 0600.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "webhook-db.h"

/* never the secret: id, state, deliveries done and waiting, URL */
static void print_webhook(const struct fw_webhook_info *w, void *ctx)
{
	(void)ctx;
	printf("%lld\t%s\t%s\tdelivered %d\twaiting %d\t%s\n", w->id, w->created_at,
	       w->active ? "active" : "inactive", w->delivered, w->waiting, w->url);
}

static int list(sqlite3 *db)
{
	struct strbuf err = STRBUF_INIT;
	int ret = fw_webhook_list(db, print_webhook, NULL, &err) ? 1 : 0;

	if (ret)
		fprintf(stderr, "webhook: %s\n", err.buf);
	strbuf_release(&err);
	return ret;
}

/* The secret from --secret-file (one line), or a new one (*shown = 1: print it). 0, or -1 said. */
static int get_secret(const char *file, struct strbuf *secret, int *shown)
{
	const char *bad;

	*shown = !file;
	if (!file) {
		if (!fw_webhook_secret_new(secret))
			return 0;
		fprintf(stderr, "webhook: getrandom failed\n");
		return -1;
	}
	if (strbuf_read_file(secret, file, FW_WEBHOOK_SECRET_MAX + 2)) {
		fprintf(stderr, "webhook: cannot read --secret-file %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (secret->len && strchr("\r\n", secret->buf[secret->len - 1]))
		strbuf_setlen(secret, secret->len - 1);
	bad = fw_webhook_secret_problem(secret->buf);
	if (bad || strlen(secret->buf) != secret->len) {
		fprintf(stderr, "webhook: --secret-file %s: the secret %s\n", file, bad ? bad : "holds a NUL byte");
		return -1;
	}
	return 0;
}

static int do_add(sqlite3 *db, const char *url, const char *secret_file)
{
	struct strbuf secret = STRBUF_INIT, err = STRBUF_INIT;
	long long id;
	int shown, ret = 1;

	if (get_secret(secret_file, &secret, &shown))
		goto cleanup;
	if (fw_webhook_add(db, url, secret.buf, &id, &err)) {
		fprintf(stderr, "webhook: %s\n", err.buf);
		goto cleanup;
	}
	if (shown) {
		printf("%s\n", secret.buf);
		fflush(stdout);
	}
	fprintf(stderr, "webhook: added %lld for %s%s\n", id, url,
		shown ? ". The secret above is shown only this once: give it to the receiver now" : "");
	ret = 0;
cleanup:
	strbuf_release(&secret);
	strbuf_release(&err);
	return ret;
}

static int do_remove(sqlite3 *db, const char *arg)
{
	struct strbuf err = STRBUF_INIT;
	char *end;
	long long id;
	int rc;

	errno = 0;
	id = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || id <= 0) {
		fprintf(stderr, "webhook: remove: ID must be a webhook's number from 'webhook list', not '%s'\n", arg);
		return 2;
	}
	rc = fw_webhook_remove(db, id, &err);
	if (rc < 0)
		fprintf(stderr, "webhook: %s\n", err.buf);
	else if (rc == 1)
		fprintf(stderr, "webhook: no webhook %lld\n", id);
	strbuf_release(&err);
	return rc ? 1 : 0;
}

int cmd_webhook(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT,
		  "the database; add creates it if missing, list and remove need it to exist" },
		{ "secret-file", 's', required_argument, 's', "FILE", "a new random secret, printed once",
		  "add: the signing secret, one line of printable ASCII" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "webhook", "add URL [--secret-file FILE] [--db FILE]\n"
		"list [--db FILE]\nremove ID [--db FILE]",
		"Webhooks: `serve` POSTs every regression event (new, fixed, status) to each\n"
		"active webhook as JSON, with X-Foliowatch-Signature: sha256=<HMAC-SHA256 of\n"
		"the body with the webhook's secret> and X-Foliowatch-Event-Id (the same on\n"
		"every retry). add prints a generated secret on stdout, only this once; the\n"
		"database keeps the secret (keep its file mode 0600).\n"
		"list prints id, creation time, state, deliveries done and waiting, URL.\n"
		"Exit: 0 ok, 1 error (no such webhook), 2 usage error.",
		opts, "add https://chat.example.org/hooks/abc --db foliowatch.db > hook.secret\n"
		"add http://127.0.0.1:9000/ --secret-file hook.secret --db foliowatch.db\n"
		"list --db foliowatch.db\nremove 3 --db foliowatch.db" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT, *secret_file = NULL, *verb, *bad;
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = NULL;
	int opt, ret = 2, nargs;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt != 'd' && opt != 's') {
			ret = g.exit;
			goto cleanup;
		}
		*(opt == 'd' ? &dbpath : &secret_file) = optarg;
	}
	if (optind >= argc) {
		fw_usage_error(&usage, "say add URL, list or remove ID");
		goto cleanup;
	}
	verb = argv[optind];
	nargs = argc - optind - 1;
	if (strcmp(verb, "add") && strcmp(verb, "list") && strcmp(verb, "remove")) {
		fw_usage_error(&usage, "unknown action '%s' (add, list or remove)", verb);
		goto cleanup;
	}
	if (nargs != !!strcmp(verb, "list")) {
		fw_usage_error(&usage, nargs ? "unexpected argument '%s'" : "%s needs %s", nargs ? argv[argc - 1] : verb,
			       !strcmp(verb, "add") ? "a URL" : "an ID");
		goto cleanup;
	}
	if (secret_file && strcmp(verb, "add")) {
		fw_usage_error(&usage, "--secret-file goes with add");
		goto cleanup;
	}
	if (!strcmp(verb, "add") && (bad = fw_webhook_url_problem(argv[optind + 1]))) {
		fw_usage_error(&usage, "URL %s, not '%s'", bad, argv[optind + 1]);
		goto cleanup;
	}
	ret = 1;
	db = !strcmp(verb, "add") ? fw_db_open(dbpath, &err) : fw_db_open_existing(dbpath, &err);
	if (!db) {
		fprintf(stderr, "webhook: %s\n", err.buf);
		goto cleanup;
	}
	if (!strcmp(verb, "list"))
		ret = list(db);
	else if (!strcmp(verb, "add"))
		ret = do_add(db, argv[optind + 1], secret_file);
	else
		ret = do_remove(db, argv[optind + 1]);
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
