/* cmdopt: getopt_long and the usage from one table; messages and exit codes of usage errors. */
#include "tap.h"
#include "cmdopt.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static const struct fw_option opts[] = {
	{ "db", 'd', required_argument, 'd', "FILE", "fw.db", "the database" },
	{ "series", 0, required_argument, 's', "NAME", "required", "the series" },
	{ "status", 0, required_argument, 't', "S", "every status", "a filter\non two lines" },
	{ .help = "Output:" },
	{ "json", 'j', no_argument, 'j', NULL, "off", "JSON" },
	{ 0 },
};
static const struct fw_usage usage = { "prog", "cmd", "--series NAME [options]\n--other-form",
	"What it does.", opts, "--series s\n    --db x\n# a comment" };

/* A writable copy of a NULL-terminated argv (getopt permutes it); freev releases it. */
static char **dupv(const char *const *src)
{
	size_t n = 0;
	char **v;

	while (src[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++)
		v[i] = strdup(src[i]);
	if (!v)
		abort();
	return v;
}

static void freev(char **v)
{
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* Parses argv (NULL-terminated) to the end; the vals seen, as a string; *last: the final answer. */
static void parse(char **argv, char *seen, int *last, int *exit_code, int quiet_stdout)
{
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	int argc = 0, opt, saved = -1, n = 0;

	while (argv[argc])
		argc++;
	if (quiet_stdout) {
		fflush(stdout);
		int nul = open("/dev/null", O_WRONLY);
		saved = dup(1);
		dup2(nul, 1);
		close(nul);
	}
	while ((opt = fw_getopt(&g, argc, argv)) > 0)
		seen[n++] = (char)opt;
	seen[n] = 0;
	*last = opt;
	*exit_code = g.exit;
	if (quiet_stdout) {
		fflush(stdout);
		dup2(saved, 1);
		close(saved);
	}
}

int main(void)
{
	char *text = NULL, seen[32];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int last, code, v;
	double d;

	fw_usage_print(f, &usage);
	fclose(f);
	ok(strstr(text, "usage: prog cmd --series NAME [options]\n       prog cmd --other-form\n       prog cmd --help\n"),
	   "usage: every form of the synopsis, then --help");
	ok(strstr(text, "  -d, --db FILE") && strstr(text, "the database (default: fw.db)"), "short and long name, metavar, default");
	ok(strstr(text, "      --series NAME") && strstr(text, "the series (required)"), "a required option says so");
	ok(strstr(text, "a filter\n                            on two lines (default: every status)"),
	   "a description over two lines is indented, the default at its end");
	ok(strstr(text, "\nOptions:\n") && strstr(text, "\nOutput:\n  -j, --json"), "headings");
	ok(strstr(text, "  -h, --help"), "--help is listed");
	ok(strstr(text, "\nExamples:\n  prog cmd --series s\n      --db x\n  # a comment\n"),
	   "examples: prog cmd in front, continuations and comments as they are");
	free(text);

	static const char *const a1c[] = { "cmd", "-d", "x.db", "pos", "--json", "--series=s1", "--status", "new", NULL };
	char **a1 = dupv(a1c), **a;
	parse(a1, seen, &last, &code, 0);
	is_str(seen, "djst", "short, long, --name=value, separate value; in order");
	is_int(last, -1, "then the end");
	is_int(optind, 7, "the non-option is permuted to the end (argv[optind] is it)");
	is_str(a1[optind], "pos", "... and it is 'pos'");
	freev(a1);

	static const char *const a2[] = { "cmd", "--ser", "x", "-j", NULL };
	a = dupv(a2);
	parse(a, seen, &last, &code, 0);
	freev(a);
	is_str(seen, "sj", "a unique abbreviation; a second parse starts afresh");

	static const struct { const char *argv[4]; const char *what; } bad[] = {
		{ { "cmd", "--bogus", NULL }, "an unknown long option" },
		{ { "cmd", "-x", NULL }, "an unknown short option" },
		{ { "cmd", "--s", "x", NULL }, "an ambiguous abbreviation" },
		{ { "cmd", "--db", NULL }, "a missing argument (long)" },
		{ { "cmd", "-d", NULL }, "a missing argument (short)" },
		{ { "cmd", "--json=1", NULL }, "an argument to a flag" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[128];
		a = dupv(bad[i].argv);
		parse(a, seen, &last, &code, 0);
		freev(a);
		snprintf(what, sizeof(what), "%s: FW_OPT_EXIT, exit 2", bad[i].what);
		ok(last == FW_OPT_EXIT && code == 2, what);
	}
	static const char *const h1[] = { "cmd", "--series", "s", "--help", NULL }, *const h2[] = { "cmd", "-h", NULL };
	a = dupv(h1);
	parse(a, seen, &last, &code, 1);
	freev(a);
	ok(last == FW_OPT_EXIT && code == 0 && !strcmp(seen, "s"), "--help: FW_OPT_EXIT, exit 0");
	a = dupv(h2);
	parse(a, seen, &last, &code, 1);
	freev(a);
	ok(last == FW_OPT_EXIT && code == 0, "-h: the same");

	ok(!fw_opt_int(&usage, "n", "42", 1, 100, &v) && v == 42, "fw_opt_int: in range");
	ok(fw_opt_int(&usage, "n", "0", 1, 100, &v) && fw_opt_int(&usage, "n", "101", 1, 100, &v) &&
	   fw_opt_int(&usage, "n", "4x", 1, 100, &v) && fw_opt_int(&usage, "n", "", 1, 100, &v) &&
	   fw_opt_int(&usage, "n", "99999999999999999999", 1, 100, &v), "fw_opt_int: out of range, junk, empty, overflow");
	ok(!fw_opt_double(&usage, "t", "0.5", 0, 10, 1, &d) && d == 0.5, "fw_opt_double: in range");
	ok(fw_opt_double(&usage, "t", "0", 0, 10, 1, &d) && !fw_opt_double(&usage, "t", "0", 0, 10, 0, &d) &&
	   fw_opt_double(&usage, "t", "nan", 0, 10, 0, &d) && fw_opt_double(&usage, "t", "1e400", 0, 10, 0, &d),
	   "fw_opt_double: an open lower end, nan and overflow refused");
	static const char *const ch[] = { "a", "b", "c", NULL };
	ok(!fw_opt_choice(&usage, "c", "b", ch) && fw_opt_choice(&usage, "c", "d", ch) && fw_opt_choice(&usage, "c", "", ch),
	   "fw_opt_choice");
	is_int(fw_usage_error(&usage, "x"), 2, "fw_usage_error returns 2");
	return done_testing();
}
