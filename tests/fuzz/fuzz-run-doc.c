/* libFuzzer target: the run-document parser and validator (all outside input passes here). */
#include <stdint.h>
#include <stdlib.h>
#include "run-doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_error e;
	cJSON *doc = fw_doc_parse((const char *)data, size, &e);

	if (doc) {
		char *c = fw_json_canonical(doc);
		free(c);
		cJSON_Delete(doc);
	}
	return 0;
}
