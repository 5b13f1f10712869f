#ifndef FW_RUN_DOC_H
#define FW_RUN_DOC_H
#include <stddef.h>
#include <cjson/cJSON.h>
#include "strbuf.h"

/*
 * The run document ("foliowatch-run/2", see schema/run-document.md): one boot
 * of one kernel, the only way data enters the DB. This header is the contract
 * between the collector (writes them), import/POST (read them) and the tests.
 */
#define FW_DOC_FORMAT      "foliowatch-run/2"
/* Still accepted, with a warning, for one release: unknown fields are not refused in it. */
#define FW_DOC_FORMAT_OLD  "foliowatch-run/1"
#define FW_DOC_MAX_EXTENSIONS (64 * 1024)  /* bytes of extensions, printed unformatted */
#define FW_DOC_MAX_BYTES   (1024 * 1024)  /* also the server's body limit */
#define FW_DOC_MAX_SAMPLES 10000          /* per result */
#define FW_DOC_MAX_RESULTS 1000
#define FW_DOC_MAX_DEPTH   16
#define FW_DOC_MAX_NAME    100            /* bytes of a workload, variant or metric name */
#define FW_DOC_MAX_PROFILES       4000    /* profiles[] entries in all */
#define FW_DOC_MAX_PROFILE_FUNCS  300     /* profiles[] entries per workload/variant */
#define FW_DOC_MAX_FUNCTION       128     /* bytes of a profiled function's symbol */
#define FW_DOC_MAX_PROFILE_VALUE  1e12    /* hits, time_us, self_us: 0..this */

/* A validation error names the field path, e.g. "results[3].samples[7]". */
struct fw_error {
	char field[256];
	char detail[512];
	char warning[512];  /* set on success too: a foliowatch-run/1 document (deprecated) */
};
void fw_error_set(struct fw_error *e, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Parses and validates a document from raw bytes: size limit, UTF-8, nesting
 * depth, duplicate keys, then every field. Returns the tree or NULL with *e set.
 */
cJSON *fw_doc_parse(const char *buf, size_t len, struct fw_error *e);
/*
 * The byte-level half of fw_doc_parse (size, NUL bytes and \u0000 escapes,
 * UTF-8, depth, trailing data, duplicate keys), without the field checks:
 * for seal, which fills fields before validating, under import's rules.
 */
cJSON *fw_doc_parse_json(const char *buf, size_t len, struct fw_error *e);
/* Field checks on an already parsed tree (fw_doc_parse calls it). 0 ok, -1 invalid. */
int fw_doc_validate(const cJSON *doc, struct fw_error *e);

/* Each object of the format and the keys it may have ("results[]": each result). */
struct fw_doc_object {
	const char *path;
	const char *const *keys;  /* NULL-terminated */
};
/* Every object but the open maps (params, counters, extensions), ended by { NULL, NULL }. */
const struct fw_doc_object *fw_doc_objects(void);
/* 1 and the path of the first key no object of the format has ("results[0].colour"), else 0. */
int fw_doc_unknown_field(const cJSON *doc, struct strbuf *path);

/* The optional profiles[] (schema/run-doc-profiles.c): 0, or -1 with *e naming the field. */
int fw_doc_check_profiles(const cJSON *doc, struct fw_error *e);

/* Field paths (schema/run-doc-paths.c): appends ".key" (control characters escaped). */
void fw_path_key(struct strbuf *sb, const char *key);
/* Index among a document's strings (keys included, in order) of the first with a \u0000 escape, or -1. */
long fw_json_nul_escape_at(const char *s, size_t len);
/* Path of the nth string (nth >= 0) or of the first with invalid UTF-8 (nth < 0): 1 found, 0 not. */
int fw_json_string_path(const cJSON *doc, long nth, struct strbuf *path);
/* 1 and the path of the first duplicate key (the later one's path), else 0. */
int fw_json_duplicate_key(const cJSON *item, struct strbuf *path);

/*
 * Text from outside that is not a run document (a triage note, who): the
 * document's rules for strings (valid UTF-8, minlen..maxlen bytes, no control
 * characters but \n and \t when multiline). NULL when fine, else the problem.
 */
const char *fw_text_problem(const char *s, size_t minlen, size_t maxlen, int multiline);

/* A metric named "workload/variant/metric" (bisect --metric, run --decide-metric): three non-empty names. */
int fw_metric_id_ok(const char *m);

/* Canonical form: keys sorted, unformatted (the idempotency hash is sha256 of it). */
char *fw_json_canonical(const cJSON *item);
void fw_doc_hash(const cJSON *doc, char out[65]);

/* sha256 over the environment's fields (everything but "fingerprint"), in a fixed order. */
void fw_env_fingerprint(const cJSON *env, char out[65]);

/* Identity of a run: "<origin>:" + sha256 over these, newline-separated. */
struct fw_run_key {
	const char *origin;
	const char *series;
	int revision;
	const char *commit_key;
	const char *config_hash;
	const char *env_fingerprint;
	const char *profile;
	const char *workloads;   /* comma-separated, in document order */
	int boot_index;
};
void fw_run_id(const struct fw_run_key *k, struct strbuf *out);
/* The run id a valid document must carry (computed from its fields). */
void fw_doc_expected_run_id(const cJSON *doc, struct strbuf *out);

/*
 * Small accessors: obj's member key if it has that type, else dflt (obj may be
 * NULL). The one set of getters for every folder above schema/.
 */
const char *fw_json_str(const cJSON *obj, const char *key, const char *dflt);
double fw_json_num(const cJSON *obj, const char *key, double dflt);
/* fw_json_num truncated to int, as an (int) cast does. */
int fw_json_int(const cJSON *obj, const char *key, int dflt);
/* The number at obj.k1.k2 (two levels: a row's "a"."median"), else dflt. */
double fw_json_num_at(const cJSON *obj, const char *k1, const char *k2, double dflt);
/* Adds key: v, or key: null when v is NaN or infinite (the one writer of numbers that may be NaN). */
void fw_json_num_or_null(cJSON *obj, const char *key, double v);

#endif
