#ifndef FW_INFLIGHT_H
#define FW_INFLIGHT_H
/*
 * One computation of a cached result per key in this process at a time: the
 * server's page that misses the analysis cache and its detection thread used
 * to compute the same analysis side by side (two cores' worth for one answer).
 */

/*
 * 1: the caller computes key's result and must call fw_inflight_end(key);
 * 0: another thread was computing it and has finished (the caller looks in
 * the cache again, then calls fw_inflight_begin again if it is not there).
 */
int fw_inflight_begin(const char *key);
void fw_inflight_end(const char *key);
/* How many fw_inflight_begin calls waited for another thread (for tests and /metrics). */
unsigned long fw_inflight_waits(void);

#endif
