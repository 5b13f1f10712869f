/* One option table per subcommand: getopt_long's array and the --help text both come from it. */
#include "cmdopt.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's val for --help: outside any table's range (tables use letters or small numbers). */
#define HELP_VAL 0x7ffffff0
#define LEFT_COLUMN 28

static int is_heading(const struct fw_option *o)
{
	return !o->name && o->help;
}

static int is_end(const struct fw_option *o)
{
	return !o->name && !o->help;
}

static void table_bug(const struct fw_usage *u, const struct fw_option *o, const char *what)
{
	fprintf(stderr, "%s %s: internal error: option table, --%s: %s\n", u->prog, u->cmd,
		o && o->name ? o->name : "?", what);
	abort();
}

/* Checks the table (every rule the usage and getopt rely on) and builds getopt's arrays. */
static void build(struct fw_getopt *g)
{
	const struct fw_usage *u = g->u;
	size_t n = 0, ns = 0;

	g->shorts[ns++] = ':'; /* missing arguments come back as ':' */
	g->shorts[ns++] = 'h';
	for (const struct fw_option *o = u->opts; o && !is_end(o); o++) {
		if (is_heading(o))
			continue;
		if (!*o->name || strchr(o->name, '=') || !strcmp(o->name, "help"))
			table_bug(u, o, "bad name");
		if (o->has_arg != no_argument && o->has_arg != required_argument)
			table_bug(u, o, "has_arg must be no_argument or required_argument");
		if ((o->has_arg == required_argument) != !!o->metavar)
			table_bug(u, o, "an option with an argument needs a metavar, a flag none");
		if (!o->dflt || !o->help)
			table_bug(u, o, "every option says its default and what it does");
		if (o->val <= 0 || o->val == 'h' || o->val == '?' || o->val == ':' || o->val == HELP_VAL)
			table_bug(u, o, "val must be > 0 and not 'h', '?' or ':'");
		if (o->short_name && (o->short_name != o->val || !isalnum(o->short_name)))
			table_bug(u, o, "a short name is a letter and equals val");
		for (const struct fw_option *p = u->opts; p < o; p++)
			if (!is_heading(p) && (!strcmp(p->name, o->name) || p->val == o->val))
				table_bug(u, o, "name or val used twice");
		if (n + 2 >= sizeof(g->longopts) / sizeof(g->longopts[0]) || ns + 3 >= sizeof(g->shorts))
			table_bug(u, o, "too many options for struct fw_getopt");
		g->longopts[n++] = (struct option){ o->name, o->has_arg, NULL, o->val };
		if (o->short_name) {
			g->shorts[ns++] = (char)o->short_name;
			if (o->has_arg == required_argument)
				g->shorts[ns++] = ':';
		}
	}
	g->longopts[n++] = (struct option){ "help", no_argument, NULL, HELP_VAL };
	g->longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	g->shorts[ns] = '\0';
}

static const struct fw_option *by_val(const struct fw_usage *u, int val)
{
	for (const struct fw_option *o = u->opts; o && !is_end(o); o++)
		if (!is_heading(o) && o->val == val)
			return o;
	return NULL;
}

/* An unknown long option: ambiguous abbreviation (naming the candidates) or unrecognized. */
static void bad_long(const struct fw_usage *u, const char *arg)
{
	size_t len = strcspn(arg + 2, "=");
	char names[512] = "";
	int n = 0;

	for (const struct fw_option *o = u->opts; o && !is_end(o); o++)
		if (!is_heading(o) && len && !strncmp(o->name, arg + 2, len)) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s--%s", n ? ", " : "", o->name);
			n++;
		}
	if (n > 1)
		fw_usage_error(u, "ambiguous option '%.*s' (%s?)", (int)len + 2, arg, names);
	else
		fw_usage_error(u, "unrecognized option '%.*s'", (int)len + 2, arg);
}

int fw_getopt(struct fw_getopt *g, int argc, char **argv)
{
	const struct fw_option *o;
	const char *prev;
	int opt;

	if (!g->started) {
		build(g);
		g->started = 1;
		optind = 0; /* a full reset: watch parses run's options many times in one process */
	}
	opterr = 0;
	opt = getopt_long(argc, argv, g->shorts, g->longopts, NULL);
	prev = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	switch (opt) {
	case -1:
		return -1;
	case 'h':
	case HELP_VAL:
		fw_usage_print(stdout, g->u);
		g->exit = fflush(stdout) ? 1 : 0;
		return FW_OPT_EXIT;
	case ':':
		o = by_val(g->u, optopt);
		if (!strncmp(prev, "--", 2))
			fw_usage_error(g->u, "option '%s' needs an argument (%s)", prev, o ? o->metavar : "a value");
		else
			fw_usage_error(g->u, "option '-%c' needs an argument (%s)", optopt, o ? o->metavar : "a value");
		g->exit = 2;
		return FW_OPT_EXIT;
	case '?':
		if (optopt && !strncmp(prev, "--", 2) && strchr(prev, '='))
			fw_usage_error(g->u, "option '%.*s' takes no argument", (int)strcspn(prev, "="), prev);
		else if (optopt)
			fw_usage_error(g->u, "unrecognized option '-%c'", optopt);
		else
			bad_long(g->u, !strncmp(prev, "--", 2) ? prev : "--?");
		g->exit = 2;
		return FW_OPT_EXIT;
	default:
		return opt;
	}
}

/* Text with '\n' inside, each further line indented to the description column. */
static void put_indented(FILE *f, const char *s)
{
	for (; *s; s++) {
		fputc(*s, f);
		if (*s == '\n')
			fprintf(f, "%*s", LEFT_COLUMN, "");
	}
}

static void put_option(FILE *f, const struct fw_option *o)
{
	char left[160];
	int n;

	if (o->short_name)
		n = snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->short_name, o->name,
			     o->metavar ? " " : "", o->metavar ? o->metavar : "");
	else
		n = snprintf(left, sizeof(left), "      --%s%s%s", o->name, o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	if (n < LEFT_COLUMN - 1)
		fprintf(f, "%-*s", LEFT_COLUMN, left);
	else
		fprintf(f, "%s\n%*s", left, LEFT_COLUMN, "");
	put_indented(f, o->help);
	if (!strcmp(o->dflt, "required"))
		fputs(" (required)\n", f);
	else
		fprintf(f, " (default: %s)\n", o->dflt);
}

void fw_usage_print(FILE *f, const struct fw_usage *u)
{
	const char *s = u->synopsis ? u->synopsis : "";
	int headed = 0;

	/* every form of the synopsis on a line of its own, each after "PROG CMD" */
	fprintf(f, "usage: %s %s ", u->prog, u->cmd);
	for (; *s; s++) {
		if (*s == '\n')
			fprintf(f, "\n       %s %s ", u->prog, u->cmd);
		else
			fputc(*s, f);
	}
	fprintf(f, "\n       %s %s --help\n", u->prog, u->cmd);
	if (u->about)
		fprintf(f, "\n%s\n", u->about);
	for (const struct fw_option *o = u->opts; o && !is_end(o); o++) {
		if (is_heading(o)) {
			fprintf(f, "\n%s\n", o->help);
			headed = 1;
			continue;
		}
		if (!headed) {
			fputs("\nOptions:\n", f);
			headed = 1;
		}
		put_option(f, o);
	}
	if (!headed)
		fputs("\nOptions:\n", f);
	fprintf(f, "%-*s%s\n", LEFT_COLUMN, "  -h, --help", "print this help and exit");
	if (u->examples) {
		fputs("\nExamples:\n", f);
		for (const char *l = u->examples; *l;) {
			size_t len = strcspn(l, "\n");
			if (*l == '#' || *l == ' ') /* a comment, or the continuation of a long command */
				fprintf(f, "  %.*s\n", (int)len, l);
			else
				fprintf(f, "  %s %s%s%.*s\n", u->prog, u->cmd, len ? " " : "", (int)len, l);
			l += len;
			if (*l)
				l++;
		}
	}
}

int fw_usage_error(const struct fw_usage *u, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", u->prog, u->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry '%s %s --help'\n", u->prog, u->cmd);
	return 2;
}

int fw_opt_int(const struct fw_usage *u, const char *name, const char *arg, long lo, long hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		fw_usage_error(u, "--%s must be a whole number from %ld to %ld, not '%s'", name, lo, hi, arg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int fw_opt_double(const struct fw_usage *u, const char *name, const char *arg, double lo, double hi,
		  int open_lo, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < lo || (open_lo && v == lo) || v > hi) {
		fw_usage_error(u, "--%s must be a number %s %g and at most %g, not '%s'", name,
			       open_lo ? "above" : "from", lo, hi, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int fw_opt_choice(const struct fw_usage *u, const char *name, const char *arg, const char *const *choices)
{
	char all[256] = "";

	for (size_t i = 0; choices[i]; i++) {
		size_t used = strlen(all);
		if (!strcmp(arg, choices[i]))
			return 0;
		snprintf(all + used, sizeof(all) - used, "%s%s", i ? (choices[i + 1] ? ", " : " or ") : "",
			 choices[i]);
	}
	fw_usage_error(u, "--%s must be %s, not '%s'", name, all, arg);
	return -1;
}
