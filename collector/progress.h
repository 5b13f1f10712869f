#ifndef FW_PROGRESS_H
#define FW_PROGRESS_H
#include <stdio.h>

/*
 * Progress a person can follow: the current step with elapsed time and an
 * estimate of the time left (from the boots measured so far). Steps are bold
 * on a terminal; when stdout is not a terminal every line is plain text.
 */
struct progress {
	int quiet, tty;
	double start, boots_time, mark;
	int boots_total, boots_done, boots_measured;
	FILE *out;
};

void progress_init(struct progress *p, int quiet);
void progress_step(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_note(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_begin_boots(struct progress *p, int total);
/* More boots planned (a look of the adaptive design added some). */
void progress_more_boots(struct progress *p, int more);
/* measured: 1 when a guest ran (its time counts toward the estimate), 0 when skipped. */
void progress_boot_done(struct progress *p, int measured);

#endif
