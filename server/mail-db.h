#ifndef FW_MAIL_DB_H
#define FW_MAIL_DB_H
#include <sqlite3.h>
#include <cjson/cJSON.h>
#include "strbuf.h"

/*
 * What a mail reply to a series needs besides the analysis: the mail the
 * series was measured from and how it was measured. *out (caller deletes):
 * { "cover": { message_id, subject } | absent,
 *   "patches": [ { position, sha, author, message_id, from_addr, to_addrs, cc_addrs, subject } ]
 *               (every commit but the base, mail fields null when not kept),
 *   "envs": [ { host, accel, vcpus, memory_mib, qemu_version, host_kernel, cpu_model,
 *               foliowatch_version, fio_version, kernel_version, compiler, profile,
 *               workloads (comma list, every workload booted), rounds, boots } ] }
 * 0, or -1 with err.
 */
int fw_mail_facts(sqlite3 *db, const char *series, int revision, cJSON **out, struct strbuf *err);

#endif
