#ifndef FW_BISECT_RECORD_H
#define FW_BISECT_RECORD_H
#include <cjson/cJSON.h>

/*
 * A bisect's record in the series' database (schema/bisect-db.h), kept as
 * the bisect goes: begun running, a step added after each midpoint, ended
 * done or gave up. A record that cannot be written is said on stderr and
 * costs nothing else: the bisect's answer is printed either way.
 */
struct fw_bisect_record_log {
	const char *db_path;
	long long id;      /* -1: not stored */
	cJSON *steps;      /* [{ sha, position, boots, verdict }] */
};

void fw_bisect_record_begin(struct fw_bisect_record_log *l, const char *db_path, const char *series,
			    const char *metric, const char *direction, const char *good, const char *bad);
void fw_bisect_record_step(struct fw_bisect_record_log *l, const char *sha, int position, long long boots,
			   const char *verdict, long long total_boots, double seconds);
/* state "done" (culprit, or lo..hi when skips left a range) or "gave up" (why). Frees the steps. */
void fw_bisect_record_end(struct fw_bisect_record_log *l, const char *state, const char *culprit, const char *lo,
			  const char *hi, const char *why, long long total_boots, double seconds);
/* A metric the culprit moved: the stored regressions of it at bad move to the culprit (said when any did). */
void fw_bisect_record_move(const struct fw_bisect_record_log *l, const char *workload, const char *variant,
			   const char *metric);

#endif
