#ifndef FW_RUNDOC_FACTS_H
#define FW_RUNDOC_FACTS_H
/* The least a document needs (tree, series, commit, config hash, host, accel, CPUs, memory, workloads). */
#include "run-doc-build.h"

static inline void min_facts(struct fw_rundoc_facts *f, const struct fw_hostfacts *host)
{
	f->tree_name = "t";
	f->series = "s";
	f->series_base = "b";
	f->commit_sha = "c";
	f->config_hash = "32b1e20d58ea96611a9de39a373547344052db4368a4c02696edd4b8920a74af";
	f->host = host;
	f->accel = "tcg";
	f->vcpus = 2;
	f->memory_mib = 2048;
	f->workloads = "split";
}

#endif
