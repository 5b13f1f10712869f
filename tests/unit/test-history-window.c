/* Unit tests of analysis/history-window.c: a watched series' bounded windows. */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "history-window.h"

static void test_bh_window(void)
{
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.2, 0.001 }, q[6], whole[6];
	int same[] = { 5, 5, 5, 5, 5, 5 }, pos[] = { 1, 1, 2, 60, 60, 61 };
	int ok_all = 1;

	/* one position, or a window covering all: plain BH */
	fw_bh_window(same, p, 6, FW_HISTORY_BH_WINDOW, q);
	fw_bh_adjust(p, whole, 6);
	for (int i = 0; i < 6; i++)
		ok_all &= isnan(p[i]) ? isnan(q[i]) : q[i] == whole[i];
	ok(ok_all, "window over every row: the series' BH");
	/* positions 1 and 60 are 59 apart: each family is the window up to its row's position */
	fw_bh_window(pos, p, 6, 50, q);
	ok(fabs(q[0] - 0.02 * 2 / 2) < 1e-15 && fabs(q[1] - 0.04) < 1e-15, "position 1: its own two rows (0.02, 0.04)");
	ok(isnan(q[2]), "a row without p has no q");
	ok(fabs(q[3] - 0.06) < 1e-15 && fabs(q[4] - 0.2) < 1e-15, "position 60: rows 1..60 are out of its window");
	ok(fabs(q[5] - 0.003) < 1e-15, "position 61: the three rows of 12..61");
	/* a later row never changes an earlier one's q */
	fw_bh_window(pos, p, 5, 50, whole);
	ok(whole[0] == q[0] && whole[3] == q[3] && whole[4] == q[4], "a row added at 61 moves no q of 1 or 60");
}

static void test_history_noise(void)
{
	/* 300 kernels of 3 boots of 1 round: medians 100, 101, 102 (a CV of 1%) */
	static struct fw_kernel_noise k[300];
	double v[3] = { 100, 101, 102 }, tmp[3];
	long run[3] = { 1, 2, 3 };
	struct fw_noise nz;

	for (int i = 0; i < 300; i++)
		fw_kernel_noise_of(&k[i], i, v, run, 3, tmp);
	fw_history_noise(k, 0, &nz);
	ok(nz.kernels == 1 && nz.boots == 3 && fabs(nz.cv_pct - 0.990099) < 1e-5, "the first kernel alone");
	fw_history_noise(k, 299, &nz);
	ok(nz.kernels == FW_EVIDENCE_KERNELS, "at most 128 kernels");
	fw_history_noise(k, 10, &nz);
	ok(nz.kernels == 11 && nz.boots == 33, "all 11 kernels up to position 10");
	for (int i = 0; i < 300; i++)
		k[i].position = i * 3;   /* sparse: 3 positions apart */
	fw_history_noise(k, 299, &nz);
	ok(nz.kernels == FW_HISTORY_LOOKBACK / 3 + 1, "no further back than 256 positions (86 kernels 3 apart)");
}

int main(void)
{
	test_bh_window();
	test_history_noise();
	return done_testing();
}
