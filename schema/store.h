#ifndef FW_STORE_H
#define FW_STORE_H
/*
 * The read side of the database, for callers that must tell "unknown name"
 * from "nothing there" (a gate on a mistyped series must fail, not pass).
 */
#include <sqlite3.h>
#include <cjson/cJSON.h>
#include "strbuf.h"

/* 1 when a series of that name is stored, 0 when not, -1 on a database error. */
int fw_store_series_exists(sqlite3 *db, const char *name);
/*
 * The environments, ordered by host, accelerator, vCPUs and fingerprint.
 * *out is the caller's (fw_store_envs_free); on -1 (a DB error) it holds the
 * ones read so far.
 */
struct fw_store_env {
	char *fingerprint, *host, *accel;
	int vcpus;
};
int fw_store_envs(sqlite3 *db, struct fw_store_env **out, int *n);
void fw_store_envs_free(struct fw_store_env *e, int n);

/*
 * Lists handed row by row to a callback (schema/store-lists.c): the struct's
 * strings live until the callback returns; a callback returning non-zero
 * stops the list. Each returns 0, or -1 when the DB cannot be read.
 */
/* Every environment with its facts and how many runs it holds, by host and fingerprint. */
struct fw_store_env_info {
	const char *fingerprint, *host, *accel, *qemu_version, *host_kernel;
	int vcpus, memory_mib, runs;
};
int fw_store_env_table(sqlite3 *db, int (*each)(const struct fw_store_env_info *e, void *ctx), void *ctx);
/* The newest `limit` new or acknowledged regressions of the series' newest revisions. */
struct fw_store_regression_brief {
	const char *series, *workload, *variant, *metric, *sha, *status, *env_fingerprint;
	double delta_pct;
};
int fw_store_open_regressions(sqlite3 *db, int limit,
			      int (*each)(const struct fw_store_regression_brief *g, void *ctx), void *ctx);
/* The newest revision of each series (only `name` when not NULL), the newest ingest first, at most limit. */
struct fw_store_series_brief {
	const char *name, *last_ingest;  /* last_ingest NULL: no runs */
	int revision;
};
int fw_store_newest_series(sqlite3 *db, const char *name, int limit,
			   int (*each)(const struct fw_store_series_brief *s, void *ctx), void *ctx);

/* The newest revision of every series, by name, with its counts (the series list and front page). */
struct fw_store_series_summary {
	const char *name, *base, *created_at, *last_ingest;  /* last_ingest NULL: no runs */
	int revision, commits, runs, failed_boots, failed_builds;
};
int fw_store_series_list(sqlite3 *db, int (*each)(const struct fw_store_series_summary *s, void *ctx), void *ctx);
/* The stored .config of every build of a series (once each). 0; 1 when each() stopped it; -1 on a DB error. */
int fw_store_series_configs(sqlite3 *db, long long series_id,
			    int (*each)(const char *hash, const char *body, void *ctx), void *ctx);

/*
 * One commit as its page shows it (schema/store-commit.c), callbacks as above.
 * Seconds not measured are FW_STORE_UNKNOWN (NaN): say "unknown", never 0.
 */
#define FW_STORE_UNKNOWN (__builtin_nan(""))
/* One block per kernel config, in build order; env_fingerprints: the environments that
 * used it, separated by char 31; seconds: the longest report (reuses report 0). */
struct fw_store_build {
	const char *status, *kernel_version, *compiler, *config_hash, *log_tail, *env_fingerprints;
	double seconds;
	int config_stored;  /* 1: the .config is stored (fw_store_config) */
};
int fw_store_commit_builds(sqlite3 *db, long long commit_id,
			   int (*each)(const struct fw_store_build *b, void *ctx), void *ctx);
/* The boots of a commit, by boot index. */
struct fw_store_boot {
	long long id;  /* runs.id, for fw_store_run_results */
	const char *run_id, *status, *qemu_cmdline, *kernel_cmdline, *log_tail, *profile, *accel, *host,
		*env_fingerprint;
	double seconds;
	int taint, boot_index;
};
int fw_store_commit_boots(sqlite3 *db, long long commit_id,
			  int (*each)(const struct fw_store_boot *b, void *ctx), void *ctx);
/* The results of a boot by workload, variant, metric; error NULL: samples[nsamples] by round. */
struct fw_store_result {
	long long id;  /* results.id, for fw_store_result_counters */
	const char *workload, *variant, *metric, *unit, *params, *error;
	const double *samples;
	int nsamples;
};
int fw_store_run_results(sqlite3 *db, long long run, int (*each)(const struct fw_store_result *r, void *ctx),
			 void *ctx);
/* A result's counters by name, then round. */
struct fw_store_counter {
	const char *name;
	int round;
	double value;
};
int fw_store_result_counters(sqlite3 *db, long long result_id,
			     int (*each)(const struct fw_store_counter *c, void *ctx), void *ctx);
/* A stored .config appended to body: 1, 0 no such config, -1 on a DB error. */
int fw_store_config(sqlite3 *db, const char *hash, struct strbuf *body);

/* 1 when a run of that id is stored, 0 when not, -1 on a database error. */
int fw_store_run_exists(sqlite3 *db, const char *run_id);
/* The environment of a fingerprint into *e (its strings the caller's: fw_store_env_release):
 * 1 found, 0 no such environment (e zeroed), -1 on a database error. */
int fw_store_env_get(sqlite3 *db, const char *fingerprint, struct fw_store_env *e);
void fw_store_env_release(struct fw_store_env *e);

/* Runs stored (what /healthz reads to prove the database answers), or -1 when it cannot be read. */
long long fw_store_run_count(sqlite3 *db);

/*
 * What a report or a mail reply needs besides the analysis: the mail the
 * series was measured from and how it was measured. *out (caller deletes):
 * { "cover": { message_id, subject } | absent,
 *   "patches": [ { position, sha, author, message_id, from_addr, to_addrs, cc_addrs, subject } ]
 *               (every commit but the base, mail fields null when not kept),
 *   "envs": [ { host, accel, vcpus, memory_mib, qemu_version, host_kernel, cpu_model,
 *               foliowatch_version, fio_version, kernel_version, compiler, config_hash
 *               (the newest; configs: how many), profile, workloads (comma list, every
 *               workload booted), rounds, boots } ] }
 * 0, or -1 with err.
 */
int fw_mail_facts(sqlite3 *db, const char *series, int revision, cJSON **out, struct strbuf *err);

#endif
