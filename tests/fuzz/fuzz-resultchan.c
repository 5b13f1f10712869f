/*
 * libFuzzer target for the result channel parser (outside input: whatever a
 * guest writes to its serial port) and for turning a parsed capture into the
 * results and profiles of a run document (as the collector does after every boot).
 * Build: make fuzz (build/fuzz/fuzz-resultchan, linked with the libraries).
 * Seeds: the captures in tests/data/resultchan/
 */
#include "resultchan.h"
#include "run-doc-build.h"
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_chan c;
	char why[300];
	cJSON *res;
	int n_errors;

	fw_chan_parse((const char *)data, size, &c);
	fw_chan_describe(&c, why, sizeof(why));
	/* complete captures and the rest alike: a bad one becomes error results */
	res = fw_rundoc_results(&c, "split,mthp,lazyfree,filemap", &n_errors);
	cJSON_Delete(fw_rundoc_profiles(&c, res));  /* the profiling round's records */
	cJSON_Delete(res);
	fw_chan_release(&c);
	return 0;
}
