#ifndef FW_CMDOPT_H
#define FW_CMDOPT_H
#include <getopt.h>
#include <stdio.h>

/*
 * Command-line options of one subcommand, from one table. Each subcommand
 * declares every option it accepts in a struct fw_option[]; fw_getopt builds
 * getopt_long's option array from that table, and --help / -h (and
 * `PROG help CMD`) print the usage from the same table: an option cannot be
 * accepted without being documented.
 *
 *	static const struct fw_option opts[] = {
 *		{ "db", 'd', required_argument, 'd', "FILE", "foliowatch.db", "the database" },
 *		{ .help = "Output:" },          (a heading in the usage)
 *		{ "json", 0, no_argument, 'j', NULL, "off", "print JSON" },
 *		{ 0 },
 *	};
 *	static const struct fw_usage usage = { "foliowatch-server", "x", "[options]",
 *		"what it does", opts, "x --db fw.db" };
 *	struct fw_getopt g = FW_GETOPT_INIT(&usage);
 *	while ((opt = fw_getopt(&g, argc, argv)) != -1)
 *		switch (opt) { case 'd': ...; default: return g.exit; }
 */
struct fw_option {
	const char *name;    /* long name without "--"; NULL with help set: a heading; all 0: the end */
	int short_name;      /* 0, or a letter also accepted as -x (then val is that letter) */
	int has_arg;         /* no_argument or required_argument */
	int val;             /* what fw_getopt returns for it: > 0, not 'h', '?' or ':' */
	const char *metavar; /* the argument's placeholder ("FILE"); NULL for flags */
	const char *dflt;    /* the default in words ("foliowatch.db", "off"); "required" if there is none */
	const char *help;    /* what it does; '\n' starts another line */
};

struct fw_usage {
	const char *prog;     /* "foliowatch-server" */
	const char *cmd;      /* "report" */
	const char *synopsis; /* what follows "usage: PROG CMD "; '\n' starts an alternative form */
	const char *about;    /* what the command does, a few lines */
	const struct fw_option *opts;
	const char *examples; /* command lines without PROG CMD, one per line; lines starting with
				 "#" (a comment) or " " (a continuation) are printed as they are */
};

struct fw_getopt {
	const struct fw_usage *u;
	int started;
	int exit; /* after fw_getopt returned FW_OPT_EXIT: 0 (help printed) or 2 (usage error printed) */
	char shorts[80];
	struct option longopts[72];
};
#define FW_GETOPT_INIT(usage) { .u = (usage) }

/* fw_getopt's answer when the command should return g.exit (help printed, or a usage error). */
#define FW_OPT_EXIT (-2)

/*
 * getopt_long over u->opts, reset for every new parse (optind = 0), with
 * argument permutation: returns the option's val (optarg set), -1 at the end
 * (non-options from optind on), or FW_OPT_EXIT after printing the usage for
 * --help/-h (stdout, g->exit 0) or a message naming a bad option (stderr,
 * g->exit 2). Aborts on a malformed table (a programming error).
 */
int fw_getopt(struct fw_getopt *g, int argc, char **argv);

/* The full usage: synopsis, about, every option with its default, examples. */
void fw_usage_print(FILE *f, const struct fw_usage *u);

/* "PROG CMD: <message>" and "try 'PROG CMD --help'" on stderr; returns 2 (exit code of usage errors). */
int fw_usage_error(const struct fw_usage *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A whole number in [lo, hi] for option --name; else a usage error naming it. 0 ok, -1 reported. */
int fw_opt_int(const struct fw_usage *u, const char *name, const char *arg, long lo, long hi, int *out);
/* A number (seconds, fractions allowed) in [lo, hi]; lo itself excluded when open_lo. */
int fw_opt_double(const struct fw_usage *u, const char *name, const char *arg, double lo, double hi,
		  int open_lo, double *out);
/* arg is one of the NULL-terminated choices; else a usage error naming the allowed values. */
int fw_opt_choice(const struct fw_usage *u, const char *name, const char *arg, const char *const *choices);

#endif
