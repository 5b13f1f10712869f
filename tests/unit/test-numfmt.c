/*
 * lib/numfmt.c: counters in full for people, and the shortest exact form for
 * CSV: fixed cases, then random doubles that must read back exactly with no
 * shorter %g form that would.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "numfmt.h"

static const char *human(double v, int sig)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	fw_num_human(&sb, v, sig);
	return sb.buf;
}

static const char *exact(double v)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	fw_num_exact(&sb, v);
	return sb.buf;
}

/* Significant digits of a %g string (digits before any exponent, leading zeros skipped). */
static int sig_digits(const char *s)
{
	int n = 0, lead = 1;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s != '0')
			lead = 0;
		n += !lead;
	}
	return n;
}

/* The shortest %g form by trying every digit count from 1: what fw_num_exact must print. */
static const char *shortest(double v)
{
	static char buf[40];

	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

int main(void)
{
	unsigned seed = 12345;
	int bad_exact = 0, not_shortest = 0, not_reference = 0;
	char buf[400];

	is_str(human(131072, 4), "131072", "a counter in full, not 1.311e+05");
	is_str(human(-2621440, 4), "-2621440", "... negative too");
	is_str(human(61.92, 4), "61.92", "a time to 4 significant digits");
	is_str(human(0.08830001, 4), "0.0883", "... a small one");
	is_str(human(1234567.8, 4), "1234568", "no exponent for large non-integers");
	is_str(human(NAN, 4), "nan", "NaN");
	is_str(exact(0.0883), "0.0883", "0.0883, not 0.088300000000000003");
	is_str(exact(0.1 + 0.2), "0.30000000000000004", "a value that needs 17 digits keeps them");
	is_str(exact(131072), "131072", "an integer");
	is_str(exact(61.96), "61.96", "a median as measured");
	is_str(exact(-0.5), "-0.5", "negative");
	for (int i = 0; i < 20000; i++) {
		double v;
		const char *s;

		seed = seed * 1103515245u + 12345u;
		v = (double)(seed % 100000) / pow(10, seed % 9) * ((seed >> 20) & 1 ? 1 : -1);
		if (i % 2)
			v = (double)rand() / RAND_MAX * pow(10, (int)(seed % 20) - 10);
		s = exact(v);
		not_reference += strcmp(s, shortest(v)) != 0;
		bad_exact += strtod(s, NULL) != v;
		if (sig_digits(s) > 1) {
			snprintf(buf, sizeof(buf), "%.*g", sig_digits(s) - 1, v);
			not_shortest += strtod(buf, NULL) == v;
		}
	}
	is_int(bad_exact, 0, "20000 values read back exactly");
	is_int(not_shortest, 0, "... and none has a shorter form that would");
	is_int(not_reference, 0, "... each the form found by trying 1 to 17 digits");
	is_str(exact(5e-324), "5e-324", "the smallest subnormal (its ulp is wide: fewer digits read back)");
	is_str(exact(2.5e-310), shortest(2.5e-310), "a subnormal");
	is_str(exact(1.7976931348623157e308), "1.7976931348623157e+308", "the largest double");
	is_str(exact(1e21), "1e+21", "a power of ten");
	return done_testing();
}
