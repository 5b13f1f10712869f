/* foliowatch-server import --db FILE doc.json...: the file path into the one ingest. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "fw-db.h"
#include "ingest.h"

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = FW_DB_DEFAULT;
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = NULL;
	int opt, quiet = 0, ret = 1;

	while ((opt = getopt_long(argc, argv, "d:q", opts, NULL)) != -1) {
		if (opt == 'd')
			dbpath = optarg;
		else if (opt == 'q')
			quiet = 1;
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;
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
		strbuf_release(&doc);
	}
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-server import [--db FILE] doc.json...\n");
	ret = 2;
cleanup:
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
