#ifndef FW_RUN_DOC_BUILD_H
#define FW_RUN_DOC_BUILD_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "mbox-mail.h"
#include "resultchan.h"
#include "run-doc.h"
#include "strbuf.h"

/*
 * Turns a parsed result channel plus the facts around it (build, host,
 * boot) into a run document (schema/run-document.md). Every document leaves
 * here validated by fw_doc_validate(); numbers come only from a complete
 * capture, and a failed boot or build gives a document that says so.
 */

/* Facts about the measuring host (the "environment" object minus accel/vcpus/memory). */
struct fw_hostfacts {
	char host[201];
	char qemu_version[201];
	char host_kernel[201];
	char cpu_model[201];
	char fio_version[101];
};
/* Fills f (host_label overrides gethostname()); qemu may be NULL for the default binary. */
void fw_hostfacts_collect(struct fw_hostfacts *f, const char *host_label, const char *qemu);

struct fw_rundoc_facts {
	const char *origin;        /* NULL: "local" */
	const char *tree_name, *tree_url;
	const char *series, *series_base;
	int revision;              /* 0: 1 */
	const char *commit_sha, *commit_key, *commit_subject, *commit_author, *commit_parent;
	int position;
	int watched;               /* series.watched: a history, decided commit by commit */
	const struct fw_mail *mail, *cover;  /* from an mbox: the patch's mail, the cover letter (NULL: none) */
	/* build */
	int build_failed;
	double build_seconds;      /* < 0: unknown */
	const char *kernel_version, *config, *config_hash, *compiler, *build_log_tail;
	/* environment */
	const struct fw_hostfacts *host;
	const char *accel;
	int vcpus, memory_mib;
	/* boot */
	const char *boot_status;   /* ok|panic|oops|warn|timeout|error (not_run is set by build_failed) */
	unsigned long taint;
	double boot_seconds;       /* < 0: unknown */
	double phases[4];          /* kernel up, workloads, profiling, shutdown (s); < 0 unknown; all 0: none */
	int has_phases;
	int parallel;              /* boots of this collector at once; 0: not recorded */
	const char *qemu_cmdline, *kernel_cmdline, *boot_log_tail;
	const char *profile;
	int boot_index;
	const char *workloads;     /* requested, comma-separated */
	const char *workload_content;  /* user workloads' content hashes, "name@sha256,..." or NULL */
	int seq_look, seq_max_looks;  /* a boot of an adaptive design (`sequential`); max_looks 0: fixed */
};

/*
 * Converts a capture into the document's results array. A complete capture
 * gives samples/counters/params per (workload, variant, metric); workload
 * error records turn that workload/variant's results into errors; a result
 * with fewer samples than the begin record's rounds, or a requested workload
 * with nothing at all, becomes an error too. A capture that is not complete
 * gives one error result per requested workload and no numbers. May downgrade
 * c to corrupt (duplicate sample). *n_errors counts error results.
 */
cJSON *fw_rundoc_results(struct fw_chan *c, const char *workloads, int *n_errors);

/*
 * profiles[] from the capture's profile records (collector/run-doc-profiles.c),
 * bounded as the validator requires; NULL when the boot has none.
 */
#define FW_PROFILE_MAX_PER_WV FW_DOC_MAX_PROFILE_FUNCS
#define FW_PROFILE_MAX        FW_DOC_MAX_PROFILES
cJSON *fw_rundoc_profiles(const struct fw_chan *c, const cJSON *results);
/* The profiling round's info records (time per workload, why one has no profile), a line each. */
void fw_rundoc_profile_notes(const struct fw_chan *c, FILE *out);

/* Whole document for a boot; NULL with *e set if it would not validate (a bug). */
cJSON *fw_rundoc_build(const struct fw_rundoc_facts *f, struct fw_chan *c, struct fw_error *e);
/* Document for a commit whose build failed: boot "not_run", no results. */
cJSON *fw_rundoc_not_run(const struct fw_rundoc_facts *f, struct fw_error *e);

/* Writes the document (formatted) to path through a temp file and rename(). 0 or -1 (err set). */
int fw_rundoc_write(const cJSON *doc, const char *path, struct strbuf *err);

#endif
