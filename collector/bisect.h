#ifndef FW_BISECT_H
#define FW_BISECT_H

/* A bisect of one metric between two measured commits of a series (cmd-bisect.c; watch --bisect calls it too). */
struct fw_bisect_args {
	const char *series, *metric, *good, *bad;
	const char *tree;      /* NULL: the default tree */
	const char *db_path;   /* NULL: FW_DB_DEFAULT */
	int improvement;       /* look for an improvement, not a regression */
	int max_steps;         /* 0: ceil(log2(commits)) + 4 */
	const char *budget;    /* --bisect-budget ("30m", "40boots"); NULL: none */
	char **run_opts;       /* run options passed on to each step's run ("--name=value") */
	int nrun;
};

/*
 * Prints its steps and the culprit. 0: culprit or narrowest range found; 1:
 * it gave up (recorded, with why); 2: it could not start (no such commit or
 * series, positions not in first-parent order, another bisect of the range
 * running, the database): nothing recorded, worth trying again.
 */
int fw_bisect(const struct fw_bisect_args *a);
/* run's options bisect decides itself (not passed on). */
extern const char *const fw_bisect_decided[];

#endif
