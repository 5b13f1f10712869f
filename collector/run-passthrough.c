/* run's options, accepted by the commands that call run and passed on to it. */
#include "run-passthrough.h"
#include "commands.h"
#include "strbuf.h"
#include <stdlib.h>
#include <string.h>

size_t fw_run_passthrough_table(struct fw_option *opts, size_t cap, const char *own_heading,
				const struct fw_option *own, size_t nown, const char *const *decided)
{
	size_t n = 0;

	if (nown + 3 > cap)
		abort();
	opts[n++] = (struct fw_option){ .help = own_heading };
	for (size_t i = 0; i < nown; i++)
		opts[n++] = own[i];
	opts[n++] = (struct fw_option){ .help = "Run options (passed on to each run; 'foliowatch-collect run --help'):" };
	for (int i = 0; fw_run_options[i].name || fw_run_options[i].help; i++) {
		int skip = !fw_run_options[i].name;
		for (int k = 0; !skip && decided[k]; k++)
			skip = !strcmp(decided[k], fw_run_options[i].name);
		if (skip)
			continue;
		if (n + 2 >= cap)
			abort();
		opts[n] = fw_run_options[i];
		opts[n++].val = FW_RUN_PASSTHROUGH + i;
	}
	opts[n] = (struct fw_option){ 0 };
	return n;
}

char *fw_run_passthrough_arg(int val, const char *optarg_value)
{
	const struct fw_option *o = &fw_run_options[val - FW_RUN_PASSTHROUGH];
	struct strbuf a = STRBUF_INIT;

	/* as --name=value: run parses it again */
	strbuf_addf(&a, "--%s", o->name);
	if (o->has_arg)
		strbuf_addf(&a, "=%s", optarg_value);
	return strbuf_detach(&a, NULL);
}
