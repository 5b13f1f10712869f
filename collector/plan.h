#ifndef FW_PLAN_H
#define FW_PLAN_H

/*
 * The order of boots for a series. Boots are the independent unit: with
 * --interleave the kernels take turns (base, p1, p2, ..., base, p1, ...) so
 * that drift of a noisy machine spreads evenly over the commits, as the seeds'
 * "medians over 12 interleaved rounds per kernel" did. With --shard K/N each
 * shard takes boot indices i with i % N == K-1: every shard measures every
 * commit, so each host holds a complete, comparable set.
 */
struct plan_job {
	int commit;   /* index into the series (0 = base) */
	int boot;     /* boot index within the commit */
};

struct plan_opts {
	int commits, boots;
	int interleave;
	int shard, shards;   /* 1-based K of N; 1/1 = everything */
};

/* Fills jobs (caller allocates commits*boots entries); returns the number of jobs. */
int plan_jobs(const struct plan_opts *o, struct plan_job *jobs);
/* Parses "K/N" with 1 <= K <= N; 0 or -1. */
int plan_parse_shard(const char *s, int *k, int *n);

#endif
