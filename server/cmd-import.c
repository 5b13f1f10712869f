/* foliowatch-server import --db FILE doc.json...: the file path into the one ingest. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"

/*
 * Documents stored FW_INGEST_BATCH to a transaction (each a savepoint of
 * it): the lines of a batch wait for its commit, so "stored" is never said
 * of a document a failed commit lost.
 */
struct batch {
	sqlite3 *db;
	int open, n, quiet;
	struct strbuf said;    /* stdout lines of the batch's documents */
	struct strbuf stored;  /* the files of those stored, NUL after each */
};

/* The batch's documents lost (a failed commit, or SQLite rolled it back): each named. 1. */
static int batch_lost(struct batch *b, const char *why)
{
	for (size_t i = 0; i < b->stored.len; i += strlen(b->stored.buf + i) + 1)
		fprintf(stderr, "import: %s: not stored: its batch of documents was rolled back (%s)\n",
			b->stored.buf + i, why);
	strbuf_reset(&b->said);
	strbuf_reset(&b->stored);
	b->open = b->n = 0;
	return 1;
}

/* Commits the open batch and says what it stored: 0, or 1 when it was lost. */
static int batch_commit(struct batch *b)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&err, "its commit: ");
	if (b->open && fw_db_end(b->db, 1, &err)) {
		ret = batch_lost(b, err.buf);
	} else {
		if (!b->quiet)
			fputs(b->said.buf, stdout);
		strbuf_reset(&b->said);
		strbuf_reset(&b->stored);
		b->open = b->n = 0;
	}
	strbuf_release(&err);
	return ret;
}

/* One document into the batch (opened when none is): 0, or 1 when it (or the batch) was refused or lost. */
static int import_one(struct batch *b, const char *file)
{
	struct strbuf doc = STRBUF_INIT;
	struct fw_ingest_info info;
	int ret = 0;

	if (strbuf_read_file(&doc, file, FW_DOC_MAX_BYTES)) {
		fprintf(stderr, "import: %s: %s%s\n", file, strerror(errno),
			errno == EFBIG ? " (over the document size limit)" : "");
		return 1;
	}
	if (!b->open)
		b->open = !fw_db_begin(b->db, NULL);  /* else: a transaction of its own, as before */
	switch (fw_ingest(b->db, doc.buf, doc.len, &info)) {
	case FW_INGEST_STORED:
		strbuf_addf(&b->said, "stored %s (%d results, %d samples) from %s\n", info.run_id, info.results,
			    info.samples, file);
		strbuf_add(&b->stored, file, strlen(file) + 1);
		break;
	case FW_INGEST_DUPLICATE:
		strbuf_addf(&b->said, "unchanged %s (already stored) from %s\n", info.run_id, file);
		break;
	default:
		fprintf(stderr, "import: %s: %s%s%s%s\n", file, info.status == FW_INGEST_CONFLICT ? "conflict: " : "",
			info.err.field, info.err.field[0] ? ": " : "", info.err.detail);
		ret = 1;
	}
	if (info.status <= FW_INGEST_DUPLICATE && info.err.warning[0])
		fprintf(stderr, "import: %s: warning: %s\n", file, info.err.warning);
	strbuf_release(&doc);
	if (b->open && !fw_db_in_transaction(b->db)) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "by the error of %s", file);
		batch_lost(b, why.buf);
		strbuf_release(&why);
		return 1;
	}
	if (!b->open || ++b->n == FW_INGEST_BATCH)
		ret |= batch_commit(b);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; created if missing" },
		{ "quiet", 'q', no_argument, 'q', NULL, "off", "print nothing for documents stored or unchanged" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "import", "[--db FILE] [--quiet] doc.json...",
		"Stores sealed run documents (see 'foliowatch-server seal') in the database: one\n"
		"line per document, \"stored\" or \"unchanged\" (already there). A document that\n"
		"fails validation is named with the field at fault; the others are still stored.\n"
		"Documents go 64 to a transaction; their lines are printed once it is committed.\n"
		"Exit: 0 all stored, 1 some document refused, 2 usage error.",
		opts, "--db foliowatch.db schema/examples/run-ok.json\n--db fw.db -q runs/*.json" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT;
	struct strbuf err = STRBUF_INIT;
	struct batch b = { .said = STRBUF_INIT, .stored = STRBUF_INIT };
	sqlite3 *db = NULL;
	int opt, quiet = 0, ret = 1;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt == 'd') {
			dbpath = optarg;
		} else if (opt == 'q') {
			quiet = 1;
		} else {
			ret = g.exit;
			goto cleanup;
		}
	}
	if (optind >= argc) {
		ret = fw_usage_error(&usage, "no documents given (doc.json...)");
		goto cleanup;
	}
	db = fw_db_open(dbpath, &err);
	if (!db) {
		fprintf(stderr, "import: %s\n", err.buf);
		goto cleanup;
	}
	b.db = db;
	b.quiet = quiet;
	ret = 0;
	for (int i = optind; i < argc; i++)
		ret |= import_one(&b, argv[i]);
	ret |= batch_commit(&b);
	/* statistics for the analysis that follows an import (README "Running the server for a team") */
	if (db && fw_db_analyze_if_grown(db, &err) < 0)
		fprintf(stderr, "import: ANALYZE: %s\n", err.buf);
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&b.said);
	strbuf_release(&b.stored);
	return ret;
}
