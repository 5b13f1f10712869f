/* foliowatch-server import --db FILE doc.json...: the file path into the one ingest. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"

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
		"Exit: 0 all stored, 1 some document refused, 2 usage error.",
		opts, "--db foliowatch.db schema/examples/run-ok.json\n--db fw.db -q runs/*.json" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT;
	struct strbuf err = STRBUF_INIT;
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
	ret = 0;
	for (int i = optind; i < argc; i++) {
		struct strbuf doc = STRBUF_INIT;
		struct fw_ingest_info info;

		if (strbuf_read_file(&doc, argv[i], FW_DOC_MAX_BYTES)) {
			fprintf(stderr, "import: %s: %s%s\n", argv[i], strerror(errno),
				errno == EFBIG ? " (over the document size limit)" : "");
			ret = 1;
			continue;
		}
		switch (fw_ingest(db, doc.buf, doc.len, &info)) {
		case FW_INGEST_STORED:
			if (!quiet)
				printf("stored %s (%d results, %d samples) from %s\n", info.run_id,
				       info.results, info.samples, argv[i]);
			break;
		case FW_INGEST_DUPLICATE:
			if (!quiet)
				printf("unchanged %s (already stored) from %s\n", info.run_id, argv[i]);
			break;
		default:
			fprintf(stderr, "import: %s: %s%s%s%s\n", argv[i],
				info.status == FW_INGEST_CONFLICT ? "conflict: " : "",
				info.err.field, info.err.field[0] ? ": " : "", info.err.detail);
			ret = 1;
		}
		if (info.status <= FW_INGEST_DUPLICATE && info.err.warning[0])
			fprintf(stderr, "import: %s: warning: %s\n", argv[i], info.err.warning);
		strbuf_release(&doc);
	}
	/* statistics for the analysis that follows an import (README "Running the server for a team") */
	if (db && fw_db_analyze_if_grown(db, &err) < 0)
		fprintf(stderr, "import: ANALYZE: %s\n", err.buf);
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
