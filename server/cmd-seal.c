/*
 * foliowatch-server seal [FILE]: reads a run document (stdin by default) and
 * prints it with environment.fingerprint, build.config_hash (when build.config
 * is given) and run_id computed, then checks it. For CI systems and tests that
 * write their own documents.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "run-doc.h"
#include "sha256.h"

static void set_str(cJSON *obj, const char *key, const char *val)
{
	if (!cJSON_IsObject(obj))
		return;
	cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
	cJSON_AddStringToObject(obj, key, val);
}

int cmd_seal(int argc, char **argv)
{
	struct strbuf in = STRBUF_INIT, rid = STRBUF_INIT;
	struct fw_error e;
	cJSON *doc = NULL, *env, *build;
	const char *cfg;
	char fp[65];
	char *out = NULL;
	int ret = 1;

	if (argc > 2) {
		fprintf(stderr, "usage: foliowatch-server seal [FILE]\n");
		return 2;
	}
	if (strbuf_read_file(&in, argc == 2 ? argv[1] : "/dev/stdin", FW_DOC_MAX_BYTES)) {
		fprintf(stderr, "seal: %s: %s\n", argc == 2 ? argv[1] : "stdin", strerror(errno));
		goto cleanup;
	}
	doc = cJSON_ParseWithLength(in.buf, in.len);
	if (!cJSON_IsObject(doc)) {
		fprintf(stderr, "seal: not a JSON object\n");
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
	out = cJSON_PrintUnformatted(doc); /* documents are for machines; keeps under the size limit */
	if (fw_doc_validate(doc, &e)) {
		fprintf(stderr, "seal: %s%s%s\n", e.field, e.field[0] ? ": " : "", e.detail);
		goto cleanup;
	}
	printf("%s\n", out);
	ret = 0;
cleanup:
	free(out);
	cJSON_Delete(doc);
	strbuf_release(&in);
	strbuf_release(&rid);
	return ret;
}
