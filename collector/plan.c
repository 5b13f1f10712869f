#include "plan.h"
#include <stdio.h>
#include <stdlib.h>

int plan_jobs(const struct plan_opts *o, struct plan_job *jobs)
{
	int n = 0, shards = o->shards > 0 ? o->shards : 1, shard = o->shard > 0 ? o->shard : 1;

	if (o->interleave) {
		for (int b = 0; b < o->boots; b++)
			for (int c = 0; c < o->commits; c++)
				if (b % shards == shard - 1)
					jobs[n++] = (struct plan_job){ c, b };
	} else {
		for (int c = 0; c < o->commits; c++)
			for (int b = 0; b < o->boots; b++)
				if (b % shards == shard - 1)
					jobs[n++] = (struct plan_job){ c, b };
	}
	return n;
}

int plan_parse_shard(const char *s, int *k, int *n)
{
	char tail;

	if (sscanf(s, "%d/%d%c", k, n, &tail) != 2 || *n < 1 || *k < 1 || *k > *n)
		return -1;
	return 0;
}
