/*
 * The analysis as a foliowatch built at another version runs it (t0125): this
 * program brings its own fw_version, so the library's is not linked in.
 * other-build DB SERIES prints "VERSION DATA_HASH" of the series' analysis.
 */
#include <stdio.h>
#include "analysis.h"
#include "fw-db.h"
#include "run-doc.h"
#include "version.h"

const char fw_version[] = "another-build-of-the-same-analysis";

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db = NULL;
	struct fw_an *a = NULL;
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: other-build DB SERIES\n");
		return 2;
	}
	if (!(db = fw_db_open(argv[1], &err)) || fw_analysis_series(db, argv[2], 0, NULL, &a, &err))
		fprintf(stderr, "other-build: %s\n", err.buf);
	else if (printf("%s %s\n", fw_version, a->data_hash) > 0)
		ret = 0;
	fw_an_free(a);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
