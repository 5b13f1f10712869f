#ifndef FW_ATOMIC_FILE_H
#define FW_ATOMIC_FILE_H
#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"

/*
 * Replacing a file so that readers (and a crash) see the old or the new
 * contents, never a part: a unique temp file in the same folder, written in
 * full, fsync'd, renamed over the file, then the folder fsync'd.
 *
 * fw_write_file_atomic: writes data[0..len) to path with permissions mode
 * (exactly, not masked by the umask). 0 ok; -1 with a message naming path in
 * err (when not NULL): path is then untouched and no temp file is left.
 */
int fw_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 struct strbuf *err);

/*
 * The same in two halves, for writers that stream into the temp (e.g. a
 * child's stdout): fw_atomic_temp creates the temp next to path
 * ("DIR/.NAME.tmp-XXXXXX", mkstemp) and returns its descriptor (its name in
 * *tmp), or -1 (err). fw_atomic_commit takes fd (or -1: the temp is opened
 * again), sets mode, fsyncs, closes, renames tmp to path and fsyncs the
 * folder; on failure it removes the temp. 0 ok, -1 (err).
 */
int fw_atomic_temp(const char *path, struct strbuf *tmp, struct strbuf *err);
int fw_atomic_commit(int fd, const char *tmp, const char *path, mode_t mode, struct strbuf *err);
#endif
