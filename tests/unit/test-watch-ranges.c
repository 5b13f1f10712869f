/*
 * watch --bisect's list of bisects (collector/watch-bisect.c): one per range
 * and workload. Two metrics of a workload moved by one range share a bisect;
 * another workload moved by the same range gets its own (its midpoints must
 * run that workload); neighbours, undecided rows and ranges done before are
 * left out, also from a state file written before workloads were told apart.
 */
#include <stdlib.h>
#include "tap.h"
#include "watch-bisect.h"
#include "analysis-json.h"

#define ROW(sha, ref, w, v, m, verdict, decided) \
	"{\"sha\":\"" sha "\",\"ref_sha\":\"" ref "\",\"against\":\"parent\",\"workload\":\"" w "\",\"variant\":\"" v \
	"\",\"metric\":\"" m "\",\"verdict\":\"" verdict "\",\"decided\":" decided "}"

static const char analysis[] =
	"{\"commits\":[{\"sha\":\"aa\",\"position\":1},{\"sha\":\"bb\",\"position\":5},{\"sha\":\"cc\",\"position\":6}],"
	"\"rows\":["
	ROW("bb", "aa", "split", "pmd", "ms", "regression", "true") ","
	ROW("bb", "aa", "split", "pmd", "cpu_ms", "regression", "true") ","
	ROW("bb", "aa", "filemap", "4k", "bw", "regression", "true") ","
	ROW("bb", "aa", "lazyfree", "pmd", "reclaim_s", "unsure", "false") ","
	ROW("bb", "aa", "mthp", "16k", "cpu_s", "improvement", "true") ","
	ROW("cc", "bb", "split", "pmd", "ms", "regression", "true") "]}";

static char *ranges(const char *done_text, const char *want)
{
	struct strbuf done = STRBUF_INIT, todo = STRBUF_INIT;
	struct fw_an *a = fw_an_from_json(cJSON_Parse(analysis));

	strbuf_addstr(&done, done_text);
	fw_watch_ranges(a, want, &done, &todo);
	fw_an_free(a);
	strbuf_release(&done);
	return strbuf_detach(&todo, NULL);
}

int main(void)
{
	char *t = ranges("", "regression");

	is_str(t, "aa bb split/pmd/ms\naa bb filemap/4k/bw\n",
	       "one bisect per workload of a range: split (its two metrics share it) and filemap; "
	       "not the neighbours bb..cc, not an unsure row, not an improvement");
	free(t);
	t = ranges("aa bb split/pmd/ms found\n", "regression");
	is_str(t, "aa bb filemap/4k/bw\n", "split bisected before: filemap still is");
	free(t);
	t = ranges("aa bb split/pmd/cpu_ms gave-up\naa bb filemap/4k/bw found\n", "regression");
	is_str(t, "", "both workloads done (whichever metric did it, found or gave up)");
	free(t);
	t = ranges("", "improvement");
	is_str(t, "aa bb mthp/16k/cpu_s\n", "--bisect-improvements: the improvement");
	free(t);
	return done_testing();
}
