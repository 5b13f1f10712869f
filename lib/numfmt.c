/* Number formatting shared by pages, the report and the CSV answers. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "numfmt.h"

void fw_num_human(struct strbuf *sb, double v, int sig)
{
	double a = fabs(v);

	if (isfinite(v) && a < 1e15 && (v == floor(v) || a >= pow(10, sig)))
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.*g", sig, v);
}

/* Significant digits of a %g form: leading zeros and, before any exponent, trailing ones not counted. */
static int significant(const char *s)
{
	int n = 0, zeros = 0, lead = 1;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		lead = lead && *s == '0';
		if (lead)
			continue;
		zeros = *s == '0' ? zeros + 1 : 0;
		n++;
	}
	return n - zeros;
}

void fw_num_exact(struct strbuf *sb, double v)
{
	char buf[40];
	int digits;

	if (!isfinite(v)) {
		strbuf_addstr(sb, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return;
	}
	/*
	 * The fewest significant digits that read back (17 always do), in %g's
	 * form. A value that reads back from d <= 15 digits shows just those d
	 * under %.15g (the value is within half a double's ulp of them): so
	 * 15, 16, 17, then %.dg for d < 15. Four tries where trying 1 to 17
	 * took up to seventeen (a measured value has all seventeen: the CSV of
	 * a history spent most of its time here). A subnormal's ulp is wider:
	 * every count is tried.
	 */
	for (digits = fabs(v) < DBL_MIN ? 1 : 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (digits == 15 && significant(buf) < 15)
		snprintf(buf, sizeof(buf), "%.*g", significant(buf) > 0 ? significant(buf) : 1, v);
	strbuf_addstr(sb, buf);
}
