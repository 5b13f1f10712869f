/*
 * analysis/inflight.c: a second asker for the same key waits for the first
 * to finish (and is told so), other keys do not wait, and an end wakes every
 * waiter.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "inflight.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct asker {
	const char *key;
	int got;
	double at;  /* when fw_inflight_begin returned */
};

static void *ask(void *arg)
{
	struct asker *a = arg;

	a->got = fw_inflight_begin(a->key);
	a->at = now();
	if (a->got)
		fw_inflight_end(a->key);
	return NULL;
}

int main(void)
{
	struct asker same[3] = { { "series:1@abc", -1, 0 }, { "series:1@abc", -1, 0 }, { "series:1@abc", -1, 0 } };
	struct asker other = { "series:2@abc", -1, 0 };
	pthread_t t[4];
	double t0, ended;

	is_int(fw_inflight_begin("series:1@abc"), 1, "the first asker computes");
	t0 = now();
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, ask, &same[i]);
	pthread_create(&t[3], NULL, ask, &other);
	pthread_join(t[3], NULL);
	is_int(other.got, 1, "another key is computed at once");
	ok(other.at - t0 < 0.2, "... without waiting");
	usleep(300 * 1000);
	ended = now();
	fw_inflight_end("series:1@abc");
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 3; i++) {
		is_int(same[i].got, 0, "a second asker of the same key is told another computed it");
		ok(same[i].at >= ended, "... after the first one ended, not before");
	}
	is_int((long long)fw_inflight_waits(), 3, "three waits counted");
	is_int(fw_inflight_begin("series:1@abc"), 1, "after the end the key is free again");
	fw_inflight_end("series:1@abc");
	return done_testing();
}
