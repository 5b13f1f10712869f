/*
 * foliowatch-server undecided --db F --series S [--revision N] [--max-looks K]
 *     [--max-boots N] [--determinism FILE]:
 * the sequential design's question as JSON (fw_analysis_undecided): which
 * rows are still unsure, and how many boots each commit should have after the
 * next look. For collectors that are not foliowatch-collect, and for tests.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "analysis.h"
#include "commands.h"
#include "fw-db.h"

static int positive(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 1 || v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

int cmd_undecided(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "series", required_argument, NULL, 's' },
		{ "revision", required_argument, NULL, 'r' },
		{ "max-looks", required_argument, NULL, 'k' },
		{ "max-boots", required_argument, NULL, 'b' },
		{ "determinism", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = FW_DB_DEFAULT, *series = NULL;
	struct fw_seq_opts seq = { .max_looks = 4, .max_boots = 24 };
	struct strbuf err = STRBUF_INIT;
	struct fw_analysis_opts o;
	sqlite3 *db = NULL;
	cJSON *res = NULL;
	char *text;
	int opt, revision = 0, ret = 1;

	fw_analysis_opts_init(&o);
	while ((opt = getopt_long(argc, argv, "d:s:r:k:b:D:", opts, NULL)) != -1) {
		switch (opt) {
		case 'd': dbpath = optarg; break;
		case 's': series = optarg; break;
		case 'D': o.determinism_file = optarg; break;
		case 'r':
			if (positive(optarg, &revision))
				goto usage;
			break;
		case 'k':
			if (positive(optarg, &seq.max_looks))
				goto usage;
			break;
		case 'b':
			if (positive(optarg, &seq.max_boots))
				goto usage;
			break;
		default: goto usage;
		}
	}
	if (!series || optind != argc)
		goto usage;
	db = fw_db_open(dbpath, &err);
	if (!db || fw_analysis_undecided(db, series, revision, &o, &seq, &res, &err)) {
		fprintf(stderr, "undecided: %s\n", err.buf);
		goto cleanup;
	}
	text = cJSON_Print(res);
	printf("%s\n", text ? text : "{}");
	cJSON_free(text);
	ret = 0;
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-server undecided --db FILE --series NAME [--revision N] "
		"[--max-looks K] [--max-boots N] [--determinism FILE]\n");
	ret = 2;
cleanup:
	cJSON_Delete(res);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
