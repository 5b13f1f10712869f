#include "budget.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fw_budget_parse(const char *s, struct fw_budget *b, char *why, size_t n)
{
	char *end;
	double v;

	memset(b, 0, sizeof(*b));
	if (!strcmp(s, "none")) {
		b->none = 1;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0 || *s == '+' || *s == ' ') {
		snprintf(why, n, "--budget must be a time (45m, 2h, 600s), a number of boots (40boots) or none, not '%s'", s);
		return -1;
	}
	if (!strcmp(end, "boots") || !strcmp(end, "boot")) {
		if (v != floor(v) || v > 1000000) {
			snprintf(why, n, "--budget %s: a number of boots is a whole number up to 1000000", s);
			return -1;
		}
		b->boots = (int)v;
		return 0;
	}
	if (!strcmp(end, "s"))
		b->seconds = v;
	else if (!strcmp(end, "m"))
		b->seconds = v * 60;
	else if (!strcmp(end, "h"))
		b->seconds = v * 3600;
	else {
		snprintf(why, n, "--budget %s: the unit must be s, m, h or boots (45m, 40boots)", s);
		return -1;
	}
	if (b->seconds > 30 * 86400) {
		snprintf(why, n, "--budget %s: at most 30 days", s);
		return -1;
	}
	return 0;
}

int fw_budget_allows(const struct fw_budget *b, double elapsed, double mean_boot, int started)
{
	if (b->boots > 0)
		return started < b->boots;
	if (b->seconds > 0)
		return elapsed + mean_boot <= b->seconds;
	return 1;
}
