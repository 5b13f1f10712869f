#ifndef FW_TAP_H
#define FW_TAP_H
/* Minimal TAP for C unit tests: ok(), is_int(), is_str(), done_testing(). */
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *desc)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, desc);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}
#define ok(cond, desc) tap_ok(!!(cond), __FILE__, __LINE__, desc)
#define is_int(got, want, desc) do { long long g_ = (got), w_ = (want); \
	if (!ok(g_ == w_, desc)) printf("#   got %lld, expected %lld\n", g_, w_); } while (0)
#define is_str(got, want, desc) do { const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && !strcmp(g_, w_), desc)) printf("#   got '%s', expected '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } while (0)
static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
