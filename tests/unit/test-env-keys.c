/*
 * Environment keys of the series answer (server/env-keys.c): 12 characters
 * of the fingerprint, longer only as far as needed to tell two environments
 * of the series apart, the same key for every metric of one environment.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "ui.h"

#define FP_A  "0123456789ab0000000000000000000000000000000000000000000000000000"
#define FP_A2 "0123456789ab0001000000000000000000000000000000000000000000000000"
#define FP_B  "ffe305346641d2a90ef758d8ebd4bbdbebf17ec163d267def7ebffef8a472a54"

static char **keys_of(struct fw_series *s, struct fw_metric *m, const char *const *envs, int n)
{
	memset(s, 0, sizeof(*s));
	memset(m, 0, sizeof(*m) * (size_t)n);
	for (int i = 0; i < n; i++)
		m[i].env = (char *)(uintptr_t)envs[i];
	s->metrics = m;
	s->nmetrics = n;
	return fw_env_keys(s);
}

int main(void)
{
	struct fw_series s;
	struct fw_metric m[4];
	char **k;

	k = keys_of(&s, m, (const char *const[]){ FP_B }, 1);
	is_str(k[0], "ffe305346641", "one environment: its first 12 characters");
	fw_env_keys_free(&s, k);

	k = keys_of(&s, m, (const char *const[]){ FP_A, FP_B, FP_A, FP_B }, 4);
	is_str(k[0], "0123456789ab", "two environments, different starts: 12 characters each");
	is_str(k[1], "ffe305346641", "... the other one");
	ok(!strcmp(k[0], k[2]) && !strcmp(k[1], k[3]), "... every metric of one environment has the same key");
	fw_env_keys_free(&s, k);

	k = keys_of(&s, m, (const char *const[]){ FP_A, FP_A2, FP_B }, 3);
	is_str(k[0], "0123456789ab0000", "same 12 first characters: as long as needed to differ");
	is_str(k[1], "0123456789ab0001", "... for both");
	is_str(k[2], "ffe305346641", "... a third environment keeps 12");
	fw_env_keys_free(&s, k);

	k = keys_of(&s, m, (const char *const[]){ "combined", FP_A }, 2);
	is_str(k[0], "combined", "a name shorter than 12 characters is its own key");
	fw_env_keys_free(&s, k);

	k = keys_of(&s, m, (const char *const[]){ FP_A2 }, 0);
	ok(k && !k[0], "no metrics: an empty list");
	fw_env_keys_free(&s, k);
	return done_testing();
}
