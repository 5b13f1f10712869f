/*
 * foliowatch-server seal [FILE]: reads a run document (stdin by default) and
 * prints it with environment.fingerprint, build.config_hash (when build.config
 * is given) and run_id computed, then checks it. For CI systems and tests that
 * write their own documents.
 * foliowatch-server seal --out-dir DIR FILE...: the same for many documents in
 * one process (DIR/<basename of FILE>), so a test can seal thousands quickly.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "atomic-file.h"
#include "cmdopt.h"
#include "commands.h"
#include "run-doc.h"
#include "sha256.h"
#include "xalloc.h"

static void set_str(cJSON *obj, const char *key, const char *val)
{
	if (!cJSON_IsObject(obj))
		return;
	cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
	cJSON_AddStringToObject(obj, key, val);
}

/* Seals one document from path into out (text plus newline). 0 ok, 1 error (reported). */
static int seal_one(const char *path, struct strbuf *out)
{
	struct strbuf in = STRBUF_INIT, rid = STRBUF_INIT;
	struct fw_error e;
	cJSON *doc = NULL, *env, *build;
	const char *cfg;
	char fp[65];
	char *txt = NULL;
	int ret = 1;

	if (strbuf_read_file(&in, path, FW_DOC_MAX_BYTES)) {
		fprintf(stderr, "seal: %s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	/* the byte-level rules of import (NUL escapes, UTF-8, duplicates) before any field is filled */
	if (!(doc = fw_doc_parse_json(in.buf, in.len, &e))) {
		fprintf(stderr, "seal: %s: %s%s%s\n", path, e.field, e.field[0] ? ": " : "", e.detail);
		goto cleanup;
	}
	if (!cJSON_IsObject(doc)) {
		fprintf(stderr, "seal: %s: not a JSON object\n", path);
		goto cleanup;
	}
	env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
	fw_env_fingerprint(env, fp);
	set_str(env, "fingerprint", fp);
	build = cJSON_GetObjectItemCaseSensitive(doc, "build");
	cfg = fw_json_str(build, "config", NULL);
	if (cfg) {
		char h[65];
		sha256_hex(cfg, strlen(cfg), h);
		set_str(build, "config_hash", h);
	}
	fw_doc_expected_run_id(doc, &rid);
	set_str(doc, "run_id", rid.buf);
	txt = cJSON_PrintUnformatted(doc); /* documents are for machines; keeps under the size limit */
	if (fw_doc_validate(doc, &e)) {
		fprintf(stderr, "seal: %s%s%s\n", e.field, e.field[0] ? ": " : "", e.detail);
		goto cleanup;
	}
	if (e.warning[0])
		fprintf(stderr, "seal: %s: warning: %s\n", path, e.warning);
	strbuf_addstr(out, txt);
	strbuf_addch(out, '\n');
	ret = 0;
cleanup:
	free(txt);
	cJSON_Delete(doc);
	strbuf_release(&in);
	strbuf_release(&rid);
	return ret;
}

static int write_to(const char *dir, const char *src, const struct strbuf *data)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	char *copy = xstrdup(src);
	int ret = 1;

	strbuf_addf(&path, "%s/%s", dir, basename(copy));
	if (fw_write_file_atomic(path.buf, data->buf, data->len, 0644, &err)) {
		fprintf(stderr, "seal: %s\n", err.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	free(copy);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

int cmd_seal(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "out-dir", 'o', required_argument, 'o', "DIR", "off: one document, to stdout",
		  "seal every FILE into DIR/<its file name>" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "seal", "[FILE]\n--out-dir DIR FILE...",
		"Fills in what a run document derives from its other fields: environment.\n"
		"fingerprint, build.config_hash (when build.config is given) and run_id,\n"
		"then validates it. For CI systems and tests that write their own documents:\n"
		"the server refuses a document without them (\"environment.fingerprint:\n"
		"required string is missing\"). Reads FILE, or stdin without one.\n"
		"Exit: 0 ok, 1 a document invalid or unreadable, 2 usage error.",
		opts, "my-doc.json > sealed.json\n--out-dir sealed/ docs/*.json\n"
		"# then: foliowatch-server import --db foliowatch.db sealed.json" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct strbuf out = STRBUF_INIT;
	const char *dir = NULL;
	int opt, ret = 0;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		if (opt != 'o') {
			ret = g.exit;
			goto cleanup;
		}
		dir = optarg;
	}
	if (!dir) {
		if (argc - optind > 1) {
			fw_usage_error(&usage, "one FILE at a time to stdout; for several use --out-dir DIR");
			goto usage;
		}
		ret = seal_one(optind < argc ? argv[optind] : "/dev/stdin", &out);
		if (!ret)
			fwrite(out.buf, 1, out.len, stdout);
		goto cleanup;
	}
	if (optind == argc) {
		fw_usage_error(&usage, "--out-dir needs the documents to seal (FILE...)");
		goto usage;
	}
	for (int i = optind; i < argc; i++) {
		strbuf_reset(&out);
		if (seal_one(argv[i], &out) || write_to(dir, argv[i], &out))
			ret = 1;
	}
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	strbuf_release(&out);
	return ret;
}
