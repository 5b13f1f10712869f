/*
 * Detection benchmark (make bench; not a test): synthetic commit-metrics with
 * known changes, run through the same row computation and verdict the series
 * table uses (fw_row_compute + fw_row_finish, single test so q = p: BH over a
 * real series only makes false positives rarer). Prints per workload the
 * false-positive rate on unchanged commit-metrics, the detection rate for
 * changes of 1, 2, 5, 10 and 24% at 5 and 12 boots, and the boots advised for
 * 95% power at 5%; then icount mode (1% at 3 boots) and the speed ratios.
 *
 * Noise: between boots and within a boot, as sd in % of the level. Until real
 * runs are in a DB these are ASSUMED values (marked so in the output); pass
 * NAME:BETWEEN:WITHIN arguments to use measured ones.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis-internal.h"
#include "stats.h"

#define ROUNDS 3
#define MAXB 16

struct workload {
	char name[32];
	double between_pct, within_pct;
};

static uint64_t rng = 0x2026b3e7;
static double uniform01(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* One commit's samples: boots x ROUNDS around level. */
static void gen(double *v, long *boot, int boots, double level, const struct workload *w)
{
	for (int b = 0; b < boots; b++) {
		double bl = level * (1 + w->between_pct / 100 * gauss());
		for (int r = 0; r < ROUNDS; r++) {
			v[b * ROUNDS + r] = bl * (1 + w->within_pct / 100 * gauss());
			boot[b * ROUNDS + r] = b;
		}
	}
}

/* Fraction of sims whose verdict is `want` for a change of effect_pct (slower: lower is better). */
static double rate(const struct workload *w, int boots, double effect_pct, int deterministic,
		   const char *want, int sims)
{
	struct fw_analysis_opts o;
	double va[MAXB * ROUNDS], vb[MAXB * ROUNDS], p;
	long ba[MAXB * ROUNDS], bb[MAXB * ROUNDS];
	struct fw_row_meta m = { .higher_is_better = 0, .mode = deterministic ? FW_MODE_FLOOR : FW_MODE_RANK,
				 .min_effect_pct = 2 };
	struct fw_noise nz;
	int hits = 0;

	/* The environment's same-kernel evidence: 20 kernels x 3 boots of this noise. */
	fw_noise_init(&nz);
	for (int k = 0; k < 20; k++) {
		double med[MAXB * ROUNDS];
		long bt[MAXB * ROUNDS];
		gen(va, ba, 3, 100, w);
		memcpy(bt, ba, sizeof(bt));
		fw_noise_add_kernel(&nz, med, fw_group_medians(va, bt, 3 * ROUNDS, med));
	}
	fw_noise_finish(&nz);
	m.noise = &nz;

	fw_analysis_opts_init(&o);
	for (int s = 0; s < sims; s++) {
		struct fw_side a = { va, ba, (size_t)boots * ROUNDS }, b = { vb, bb, (size_t)boots * ROUNDS };
		cJSON *row = cJSON_CreateObject();
		const cJSON *v;
		gen(va, ba, boots, 100, w);
		gen(vb, bb, boots, 100 * (1 + effect_pct / 100), w);
		fw_row_compute(row, &a, &b, &m, &o, &p);
		fw_row_finish(row, p, &o);
		v = cJSON_GetObjectItemCaseSensitive(row, "verdict");
		if (want ? !strcmp(v->valuestring, want)
			 : (!strcmp(v->valuestring, "regression") || !strcmp(v->valuestring, "improvement")))
			hits++;
		cJSON_Delete(row);
	}
	return (double)hits / sims;
}

/*
 * False positives as the series table has them: a series of `commits` commits
 * x the workloads, 10% of commit-metrics changed by 5%, BH over the family;
 * returns the fraction of unchanged commit-metrics called a change.
 */
static double series_fp(const struct workload *w, int nw, int boots, int commits, int series)
{
	struct fw_analysis_opts o;
	double va[MAXB * ROUNDS], vb[MAXB * ROUNDS];
	long ba[MAXB * ROUNDS], bb[MAXB * ROUNDS];
	size_t n = (size_t)commits * (size_t)nw;
	double *p = malloc(n * sizeof(*p)), *q = malloc(n * sizeof(*q));
	cJSON **rows = malloc(n * sizeof(*rows));
	char *changed = malloc(n);
	long fp = 0, nulls = 0;

	if (!p || !q || !rows || !changed)
		abort();
	fw_analysis_opts_init(&o);
	for (int s = 0; s < series; s++) {
		for (size_t i = 0; i < n; i++) {
			struct fw_row_meta m = { .min_effect_pct = 2 };
			struct fw_side a = { va, ba, (size_t)boots * ROUNDS }, b = { vb, bb, (size_t)boots * ROUNDS };
			changed[i] = uniform01() < 0.1;
			gen(va, ba, boots, 100, &w[i % (size_t)nw]);
			gen(vb, bb, boots, changed[i] ? 105 : 100, &w[i % (size_t)nw]);
			rows[i] = cJSON_CreateObject();
			fw_row_compute(rows[i], &a, &b, &m, &o, &p[i]);
		}
		fw_bh_adjust(p, q, n);
		for (size_t i = 0; i < n; i++) {
			const cJSON *v;
			fw_row_finish(rows[i], q[i], &o);
			v = cJSON_GetObjectItemCaseSensitive(rows[i], "verdict");
			if (!changed[i]) {
				nulls++;
				fp += !strcmp(v->valuestring, "regression") || !strcmp(v->valuestring, "improvement");
			}
			cJSON_Delete(rows[i]);
		}
	}
	free(p);
	free(q);
	free(rows);
	free(changed);
	return (double)fp / (double)(nulls ? nulls : 1);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Times analysing n comparisons against computing plain medians of the same samples. */
static void speed(size_t n, double *t_analysis, double *t_medians)
{
	struct workload w = { "speed", 1, 0.5 };
	struct fw_analysis_opts o;
	struct fw_row_meta m = { .min_effect_pct = 2 };
	double va[5 * ROUNDS], vb[5 * ROUNDS], p, sink = 0, t0;
	long ba[5 * ROUNDS], bb[5 * ROUNDS];
	/* A fixed pool cycled through: the ratio measures computing, not page faults. */
	const size_t pool = 10000;
	double *all = malloc(pool * 2 * 5 * ROUNDS * sizeof(*all));

	if (!all)
		abort();
	fw_analysis_opts_init(&o);
	for (size_t i = 0; i < pool * 2 * 5 * ROUNDS; i++)
		all[i] = 100 + gauss();
	gen(va, ba, 5, 100, &w);
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		sink += fw_median(all + (i % pool) * 30, 15);
		sink += fw_median(all + (i % pool) * 30 + 15, 15);
	}
	*t_medians = now_s() - t0;
	t0 = now_s();
	for (size_t i = 0; i < n; i++) {
		struct fw_side a = { all + (i % pool) * 30, ba, 15 }, b = { all + (i % pool) * 30 + 15, bb, 15 };
		cJSON *row = cJSON_CreateObject();
		memcpy(bb, ba, sizeof(bb));
		fw_row_compute(row, &a, &b, &m, &o, &p);
		fw_row_finish(row, p, &o);
		cJSON_Delete(row);
	}
	*t_analysis = now_s() - t0;
	(void)vb;
	if (sink == 42)
		printf("#\n");
	free(all);
}

int main(int argc, char **argv)
{
	static struct workload wl[16] = {
		/* ASSUMED until measured: tcg runs of the four workloads. */
		{ "split", 1.0, 0.5 }, { "mthp", 1.5, 0.8 }, { "lazyfree", 2.0, 1.0 }, { "filemap", 3.0, 1.5 },
	};
	static const double effects[] = { 1, 2, 5, 10, 24 };
	static const int boots[] = { 5, 12 };
	int nw = 4, assumed = 1, sims = 1000;
	struct workload icount = { "icount", 0.05, 0.02 };
	double ta, tm, ta10, tm10;

	if (argc > 1) {
		nw = 0;
		assumed = 0;
		for (int i = 1; i < argc && nw < 16; i++)
			if (sscanf(argv[i], "%31[^:]:%lf:%lf", wl[nw].name, &wl[nw].between_pct, &wl[nw].within_pct) == 3)
				nw++;
	}
	printf("Detection at the defaults (alpha 0.05, min effect 2%%, %d rounds per boot, %d simulations)\n",
	       ROUNDS, sims);
	printf("noise: %s\n\n", assumed ? "ASSUMED (pass NAME:BETWEEN%:WITHIN% measured from real runs)" : "as given");
	printf("%-10s %6s %6s %5s  %6s", "workload", "betw%", "within", "boots", "FP");
	for (size_t e = 0; e < sizeof(effects) / sizeof(*effects); e++)
		printf("  %4.0f%%", effects[e]);
	printf("  boots for 95%% power at 5%%\n");
	for (int i = 0; i < nw; i++) {
		for (size_t b = 0; b < 2; b++) {
			printf("%-10s %6.2f %6.2f %5d  %5.1f%%", wl[i].name, wl[i].between_pct, wl[i].within_pct,
			       boots[b], 100 * rate(&wl[i], boots[b], 0, 0, NULL, 2 * sims));
			for (size_t e = 0; e < sizeof(effects) / sizeof(*effects); e++)
				printf("  %4.0f%%", 100 * rate(&wl[i], boots[b], effects[e], 0, "regression", sims));
			/* Boot medians: between-boot noise plus within-boot noise shrunk by rounds. */
			printf("  %d\n", fw_boots_needed(sqrt(wl[i].between_pct * wl[i].between_pct +
							      wl[i].within_pct * wl[i].within_pct / ROUNDS),
							 5, 0.05, 0.95));
		}
	}
	printf("\nFP is per single test (q = p), the worst case. In a series the table applies BH:\n");
	for (size_t b = 0; b < 2; b++)
		printf("  series of 20 commits x %d workloads, 10%% changed by 5%%, %d boots: FP %.2f%% of unchanged\n",
		       nw, boots[b], 100 * series_fp(wl, nw, boots[b], 20, 100));
	printf("\nicount (deterministic, noise floor 0.5%%), 3 boots: FP %.1f%%, 1%% detected %.1f%%\n",
	       100 * rate(&icount, 3, 0, 1, NULL, sims), 100 * rate(&icount, 3, 1, 1, "regression", sims));

	speed(100000, &ta, &tm);
	speed(1000000, &ta10, &tm10);
	printf("\nspeed: 1e5 comparisons %.3fs vs plain medians %.3fs (ratio %.1f, target <= 20)\n", ta, tm, ta / tm);
	printf("       1e6 comparisons %.3fs (10x data: %.1fx the time, target <= 12)\n", ta10, ta10 / ta);
	return 0;
}
