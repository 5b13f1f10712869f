#ifndef FW_WORKLOAD_DIRS_H
#define FW_WORKLOAD_DIRS_H
/*
 * The user workloads of a `boot` or `run` (--workload-dir DIR, repeatable;
 * issue 33): each folder loaded and checked, its content hashed, before any
 * kernel is built or booted.
 */
#include "workload-manifest.h"

#define FW_WL_DIRS_MAX 16

/* The built-in workloads' names, NULL-terminated: no user workload takes one. */
extern const char *const fw_builtin_workloads[];

struct fw_user_workloads {
	struct fw_workload_def *def;  /* FW_WL_DIRS_MAX of them, allocated by the first add (each is ~50 KB) */
	char hash[FW_WL_DIRS_MAX][65];
	int n;
	struct strbuf content;     /* "name@sha256,..." for the run document (run-doc-build.h) */
	struct strbuf names;       /* "name,name" */
	const char *queued[FW_WL_DIRS_MAX];  /* --workload-dir as given, loaded after the options parse */
	int nqueued;
};
#define FW_USER_WORKLOADS_INIT { .content = STRBUF_INIT, .names = STRBUF_INIT }

/*
 * Loads DIR: 0, or -1 with err naming the file and field (a manifest error,
 * a second workload of that name, cgroup v2, a script, a library ldd cannot find).
 */
int fw_user_workloads_add(struct fw_user_workloads *u, const char *dir, struct strbuf *err);
/*
 * Option parsing queues each --workload-dir (0, or -1: too many), and loads
 * them once every option is known (a usage error first): 0, or -1 with err.
 */
int fw_user_workloads_queue(struct fw_user_workloads *u, const char *dir);
int fw_user_workloads_load(struct fw_user_workloads *u, struct strbuf *err);
/* The default --workloads: the built-ins, then each user workload. */
void fw_user_workloads_default(const struct fw_user_workloads *u, struct strbuf *out);
void fw_user_workloads_release(struct fw_user_workloads *u);

#endif
