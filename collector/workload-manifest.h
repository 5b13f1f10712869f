#ifndef FW_WORKLOAD_MANIFEST_H
#define FW_WORKLOAD_MANIFEST_H
/*
 * A user's workload (issue 33): a folder with workload.json and a program.
 * The schema, with an example, is kernel/workloads/README.md; this reads and
 * validates it, naming the file and the field of the first problem, and
 * reads what one run of the program printed (the line format there).
 */
#include <stddef.h>
#include "strbuf.h"

#define FW_WL_FORMAT "foliowatch-workload/1"
#define FW_WL_NAME_MAX 48
#define FW_WL_MAX_ITEMS 32      /* variants, metrics, counters, checks, args, params each */

struct fw_wl_param {
	char *name, *value;     /* value as text: numbers are passed to the program as written */
};

struct fw_wl_variant {
	char *name;
	struct fw_wl_param params[FW_WL_MAX_ITEMS];  /* defaults, then the profile's values over them */
	int nparams;
	struct fw_wl_param quick[FW_WL_MAX_ITEMS], seed[FW_WL_MAX_ITEMS];
	int nquick, nseed;
};

enum fw_wl_kind { FW_WL_TIME, FW_WL_RATE, FW_WL_COUNT };

struct fw_wl_metric {
	char *name, *unit;
	int higher_is_better;
	enum fw_wl_kind kind;
	int timed;              /* "timed": true: foliowatch times the whole run (s); the program does not print it */
};

/* "counter grew by at least min" or "counter grew by at least min_ratio x what `of` grew". */
struct fw_wl_check {
	char *counter, *of;     /* of: NULL for an absolute minimum */
	double min, min_ratio;
};

struct fw_wl_needs {
	int memcg;              /* 0 none, 1 cgroup v1, 2 cgroup v2 */
	char *tmpfs_huge;       /* NULL, or always|within_size|advise|never */
	int debugfs, block_device;
	char *thp_enabled, *thp_defrag;  /* NULL: as the kernel boots */
	char *mthp_size[8], *mthp_enabled[8];  /* "16kB" -> always|inherit|madvise|never */
	int nmthp;
};

struct fw_workload_def {
	char *dir, *name, *description;
	char *program;          /* absolute path of the program in dir */
	char *args[FW_WL_MAX_ITEMS];  /* {param} is replaced by the variant's value */
	int nargs;
	double timeout_s;       /* a run of the program longer than this is killed and reported */
	int icount;             /* measure under icount (default: TCG) */
	struct fw_wl_variant variants[FW_WL_MAX_ITEMS];
	int nvariants;
	struct fw_wl_metric metrics[FW_WL_MAX_ITEMS];
	int nmetrics;
	char *counters[FW_WL_MAX_ITEMS];  /* vmstat names, or mthp/SIZE/STAT */
	int ncounters;
	struct fw_wl_check checks[FW_WL_MAX_ITEMS];
	int nchecks;
	struct fw_wl_needs needs;
};

/*
 * Reads DIR/workload.json and checks DIR's program: 0, or -1 with err naming
 * the file and field ("DIR/workload.json: metrics[1].kind: must be time, rate
 * or count"). builtin (NULL-terminated): names it must not take.
 */
int fw_workload_load(const char *dir, const char *const *builtin, struct fw_workload_def *w, struct strbuf *err);
void fw_workload_release(struct fw_workload_def *w);
/* The same from text already read (file: the name errors use); the program is not looked for. */
int fw_workload_parse(const char *text, const char *file, const char *const *builtin, struct fw_workload_def *w,
		      struct strbuf *err);

/* One run's output, as the line format has it: a value per metric, the program's own counters. */
struct fw_wl_output {
	double value[FW_WL_MAX_ITEMS];   /* by the manifest's metric order */
	char *counter[FW_WL_MAX_ITEMS];
	double counter_value[FW_WL_MAX_ITEMS];
	int ncounters;
};
/*
 * Parses what one run printed: 0, or -1 with err naming the line ("line 3:
 * 'abc' is not a number for metric wall_s") or the metric never printed.
 */
int fw_workload_parse_output(const struct fw_workload_def *w, const char *text, struct fw_wl_output *out,
			     struct strbuf *err);
void fw_wl_output_release(struct fw_wl_output *out);
/*
 * The program's argv for variant v under profile ("quick", "seed", or NULL:
 * the defaults): args with each {param} replaced; NULL-terminated, never a
 * shell line. fw_workload_argv_free() it.
 */
char **fw_workload_argv(const struct fw_workload_def *w, const struct fw_wl_variant *v, const char *profile);
void fw_workload_argv_free(char **argv);

#endif
