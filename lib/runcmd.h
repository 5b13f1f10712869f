#ifndef FW_RUNCMD_H
#define FW_RUNCMD_H
#include <sys/types.h>
#include "strbuf.h"

/*
 * The one way foliowatch starts a child process (after git's run-command.h):
 * an argv vector, execvp, never a shell. Outside text can appear in argv
 * elements or in files, never in a command line that something parses.
 */
struct runcmd {
	const char *const *argv;   /* argv[0] is looked up in PATH */
	const char *dir;           /* chdir() here first, or NULL */
	const char *const *env;    /* extra "K=V" entries added to the environment, or NULL */
	const char *stdin_path;    /* NULL: /dev/null */
	const char *stdout_path;   /* file to write (truncated), or NULL */
	struct strbuf *out;        /* capture stdout here (if no stdout_path), or NULL: inherit */
	int merge_stderr;          /* 1: stderr goes where stdout goes; 0: inherited */
	double timeout_s;          /* 0: none; on expiry the process group gets SIGKILL */
	void (*tick)(void *arg);   /* called at least every tick_ms while the child runs, or NULL */
	void *tick_arg;
	int tick_ms;
	/* results */
	int timed_out;
	int exit_code;             /* exit status, or 128+signal */
	double seconds;            /* wall time */
};

/* Returns the child's exit code (0 = success), or -1 if it could not be started. */
int runcmd_run(struct runcmd *rc);
/* Convenience: run argv, capture stdout (trailing newline stripped) into out; 0 on exit 0. */
int runcmd_capture(const char *const *argv, const char *dir, struct strbuf *out);
/* Renders argv for logs with shell-style single quoting (display only, never executed). */
void runcmd_quote(struct strbuf *sb, const char *const *argv);

#endif
