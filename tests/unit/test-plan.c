/* Boot order: interleaving, sharding (every shard measures every commit, shares disjoint). */
#include "tap.h"
#include "plan.h"

int main(void)
{
	struct plan_job j[64];
	struct plan_opts o = { .commits = 3, .boots = 2, .interleave = 1, .shard = 1, .shards = 1 };
	int n, k, sn, seen[3][4] = { { 0 } };

	n = plan_jobs(&o, j);
	is_int(n, 6, "3 commits x 2 boots");
	ok(j[0].commit == 0 && j[1].commit == 1 && j[2].commit == 2 && j[3].commit == 0 && j[3].boot == 1,
	   "interleaved: base, p1, p2, base, ...");
	o.interleave = 0;
	n = plan_jobs(&o, j);
	ok(j[0].commit == 0 && j[1].commit == 0 && j[1].boot == 1 && j[2].commit == 1, "grouped without --interleave");

	o.boots = 4;
	o.interleave = 1;
	o.shards = 3;
	int total = 0;
	for (int s = 1; s <= 3; s++) {
		int commits_seen[3] = { 0 };
		o.shard = s;
		n = plan_jobs(&o, j);
		total += n;
		for (int i = 0; i < n; i++) {
			seen[j[i].commit][j[i].boot]++;
			commits_seen[j[i].commit]++;
		}
		if (n)
			ok(commits_seen[0] && commits_seen[1] && commits_seen[2], "a shard measures every commit");
	}
	is_int(total, 12, "shards together cover all boots");
	int once = 1;
	for (int c = 0; c < 3; c++)
		for (int b = 0; b < 4; b++)
			once &= seen[c][b] == 1;
	ok(once, "each (commit, boot) measured by exactly one shard");

	ok(plan_parse_shard("2/4", &k, &sn) == 0 && k == 2 && sn == 4, "parses K/N");
	ok(plan_parse_shard("5/4", &k, &sn) < 0, "K > N refused");
	ok(plan_parse_shard("0/4", &k, &sn) < 0, "K = 0 refused");
	ok(plan_parse_shard("1/4x", &k, &sn) < 0, "trailing text refused");
	return done_testing();
}
