#include "progress.h"
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void clock_str(char *out, size_t n, double s)
{
	int t = s < 0 ? 0 : (int)(s + 0.5);
	snprintf(out, n, t >= 3600 ? "%d:%02d:%02d" : "%.0d%02d:%02d", t / 3600, (t / 60) % 60, t % 60);
}

void progress_init(struct progress *p, int quiet)
{
	p->quiet = quiet;
	p->out = stdout;
	p->tty = isatty(fileno(stdout));
	p->start = now_s();
	p->boots_time = 0;
	p->boots_total = p->boots_done = p->boots_measured = 0;
}

static void line(struct progress *p, int step, const char *fmt, va_list ap)
{
	char el[32], eta[64] = "";
	double elapsed = now_s() - p->start;

	if (p->quiet)
		return;
	clock_str(el, sizeof(el), elapsed);
	if (step && p->boots_measured > 0 && p->boots_total > p->boots_done) {
		char left[32];
		/* boots left times the mean boot so far: builds are done before boots start */
		clock_str(left, sizeof(left),
			  p->boots_time / p->boots_measured * (p->boots_total - p->boots_done));
		snprintf(eta, sizeof(eta), ", about %s left", left);
	}
	/* a terminal gets steps in bold; a log file gets the same lines, plain */
	fprintf(p->out, "%s[%s%s] ", p->tty && step ? "\033[1m" : "", el, eta);
	vfprintf(p->out, fmt, ap);
	fputs(p->tty && step ? "\033[0m\n" : "\n", p->out);
	fflush(p->out);
}

void progress_step(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(p, 1, fmt, ap);
	va_end(ap);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(p, 0, fmt, ap);
	va_end(ap);
}

void progress_begin_boots(struct progress *p, int total)
{
	p->boots_total = total;
	p->boots_done = p->boots_measured = 0;
	p->boots_time = 0;
	p->mark = now_s();
}

void progress_more_boots(struct progress *p, int more)
{
	p->boots_total += more;
	p->mark = now_s();
}

void progress_boot_done(struct progress *p, int measured)
{
	double t = now_s();

	if (measured) {
		p->boots_time += t - p->mark;
		p->boots_measured++;
	}
	p->boots_done++;
	p->mark = t;
}
