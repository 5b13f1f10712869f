#ifndef FW_RUN_PASSTHROUGH_H
#define FW_RUN_PASSTHROUGH_H
#include <stddef.h>
#include "cmdopt.h"

/*
 * Commands that hand work to `run` (watch, bisect) accept run's options and
 * pass them on. Their option table is their own options, then run's but the
 * ones they decide themselves; a passed-on option's val is
 * FW_RUN_PASSTHROUGH + its index in fw_run_options.
 */
#define FW_RUN_PASSTHROUGH 1000

/* Fills opts (room for cap entries; aborts beyond) and returns how many. */
size_t fw_run_passthrough_table(struct fw_option *opts, size_t cap, const char *own_heading,
				const struct fw_option *own, size_t nown, const char *const *decided);
/* "--name" or "--name=value" for run's option val (malloc()ed). */
char *fw_run_passthrough_arg(int val, const char *optarg_value);

#endif
