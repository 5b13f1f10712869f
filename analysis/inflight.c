/* Per-key single flight (see inflight.h): a small table under one mutex. */
#include <pthread.h>
#include <string.h>
#include "inflight.h"

#define SLOTS 32
#define KEY_MAX 160

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static char keys[SLOTS][KEY_MAX];
static unsigned long waits;

static int find(const char *key)
{
	for (int i = 0; i < SLOTS; i++)
		if (keys[i][0] && !strcmp(keys[i], key))
			return i;
	return -1;
}

int fw_inflight_begin(const char *key)
{
	int waited = 0, free_slot = -1;

	if (strlen(key) >= KEY_MAX)
		return 1;  /* not tracked: computed as before */
	pthread_mutex_lock(&lock);
	while (find(key) >= 0) {
		waited = 1;
		pthread_cond_wait(&done, &lock);
	}
	if (waited) {
		waits++;
		pthread_mutex_unlock(&lock);
		return 0;
	}
	for (int i = 0; i < SLOTS && free_slot < 0; i++)
		if (!keys[i][0])
			free_slot = i;
	/* a full table only loses the sharing, never a result */
	if (free_slot >= 0)
		memcpy(keys[free_slot], key, strlen(key) + 1);
	pthread_mutex_unlock(&lock);
	return 1;
}

void fw_inflight_end(const char *key)
{
	int i;

	pthread_mutex_lock(&lock);
	if ((i = find(key)) >= 0)
		keys[i][0] = '\0';
	pthread_cond_broadcast(&done);
	pthread_mutex_unlock(&lock);
}

unsigned long fw_inflight_waits(void)
{
	unsigned long n;

	pthread_mutex_lock(&lock);
	n = waits;
	pthread_mutex_unlock(&lock);
	return n;
}
