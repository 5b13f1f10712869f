#ifndef FW_NUMFMT_H
#define FW_NUMFMT_H
/* Numbers as text: for people (pages, the report) and for machines (CSV). */
#include "strbuf.h"

/*
 * For people: a whole number in full (131072, not 1.311e+05), any other
 * value to `sig` significant digits, and never an exponent between 1 and
 * 1e15 (1234567.8 with sig 4 is 1234568).
 */
void fw_num_human(struct strbuf *sb, double v, int sig);
/*
 * For machines: the shortest decimal that reads back (strtod) as exactly v,
 * 0.0883 rather than %.17g's 0.088300000000000003. NaN and infinities as
 * "nan", "inf", "-inf".
 */
void fw_num_exact(struct strbuf *sb, double v);

#endif
