/* N workers over a job list (see boot-pool.h). */
#include "boot-pool.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pool {
	const struct boot_pool_ops *ops;
	void *ctx;
	pthread_mutex_t mu;
	int njobs;
	char *started;      /* per job: taken by a worker */
	int *running;       /* per worker: the commit it boots, -1 idle */
	int workers;
};

/* Under the mutex: the next job to take, or -1 when none is left. */
static int pick(struct pool *p)
{
	int first = -1;

	for (int i = 0; i < p->njobs; i++) {
		int c, busy = 0;
		if (p->started[i])
			continue;
		if (first < 0)
			first = i;
		c = p->ops->commit_of(p->ctx, i);
		for (int w = 0; w < p->workers && !busy; w++)
			busy = p->running[w] == c;
		if (!busy)
			return i;
	}
	return first;
}

struct worker {
	struct pool *p;
	int id;
};

static void *work_loop(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		int i, go;
		if (p->ops->stop(p->ctx) || (i = pick(p)) < 0)
			break;
		p->started[i] = 1;
		if (!(go = p->ops->claim(p->ctx, i)))
			continue;
		p->running[w->id] = p->ops->commit_of(p->ctx, i);
		pthread_mutex_unlock(&p->mu);
		p->ops->work(p->ctx, i);
		pthread_mutex_lock(&p->mu);
		p->running[w->id] = -1;
		p->ops->finish(p->ctx, i);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void boot_pool_run(int workers, int njobs, const struct boot_pool_ops *ops, void *ctx)
{
	struct pool p = { ops, ctx, PTHREAD_MUTEX_INITIALIZER, njobs, NULL, NULL, 0 };
	struct worker *w;
	pthread_t *tid;

	if (workers < 1)
		workers = 1;
	if (workers > njobs)
		workers = njobs > 0 ? njobs : 1;
	p.workers = workers;
	p.started = calloc((size_t)njobs + 1, 1);
	p.running = malloc(sizeof(*p.running) * (size_t)workers);
	w = calloc((size_t)workers, sizeof(*w));
	tid = calloc((size_t)workers, sizeof(*tid));
	if (!p.started || !p.running || !w || !tid)
		abort();
	for (int i = 0; i < workers; i++) {
		p.running[i] = -1;
		w[i].p = &p;
		w[i].id = i;
	}
	/* worker 0 is this thread; a thread that cannot start leaves its share to the others */
	for (int i = 1; i < workers; i++)
		if (pthread_create(&tid[i], NULL, work_loop, &w[i]))
			w[i].p = NULL;
	work_loop(&w[0]);
	for (int i = 1; i < workers; i++)
		if (w[i].p)
			pthread_join(tid[i], NULL);
	free(p.started);
	free(p.running);
	free(w);
	free(tid);
	pthread_mutex_destroy(&p.mu);
}
