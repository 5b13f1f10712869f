/* Number formatting shared by pages, the report and the CSV answers. */
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

void fw_num_exact(struct strbuf *sb, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		strbuf_addstr(sb, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return;
	}
	/* 17 significant digits always read back; most values need far fewer. */
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(sb, buf);
}
