#ifndef FW_RESULTCHAN_H
#define FW_RESULTCHAN_H
#include <stddef.h>

/*
 * Parser of the guest result channel, format 1 (notes/contract.md):
 *   FW1 <seq> <type> <key=value>... *<crc32>
 * The capture is classified as a whole: complete (every line a valid record,
 * seq 0,1,2,... without gaps, a valid end whose count matches), truncated
 * (valid so far but no end record: the guest died or hung) or corrupt (the
 * first bad line is named with the reason). Callers must present numbers only
 * from complete captures: a truncated or corrupt one is never partial data
 * shown as whole.
 *
 * The parser also checks each record type's required keys and values
 * (names without '/', finite numbers, known direction/kind), so that a
 * complete capture always turns into a valid run document.
 */

enum fw_chan_status {
	FW_CHAN_COMPLETE,
	FW_CHAN_TRUNCATED,
	FW_CHAN_CORRUPT,
};

enum fw_chan_type {
	FW_REC_BEGIN, FW_REC_PARAM, FW_REC_SAMPLE, FW_REC_COUNTERS,
	FW_REC_ERROR, FW_REC_INFO, FW_REC_END, FW_REC_PROFILE,
};

struct fw_chan_kv {
	char *key;   /* percent-decoded, NUL-free */
	char *val;
};

struct fw_chan_rec {
	enum fw_chan_type type;
	unsigned long seq;
	int line;            /* 1-based line number in the capture */
	int nkv, akv;        /* kv: nkv used of akv */
	struct fw_chan_kv *kv;
	double value;        /* sample: value=, parsed */
	long round;          /* sample/counters: round= */
};

/* Limits: a hostile or runaway guest cannot make the host allocate without bound. */
#define FW_CHAN_MAX_BYTES   (16u * 1024 * 1024)
#define FW_CHAN_MAX_LINE    (64 * 1024)
#define FW_CHAN_MAX_RECORDS 200000
#define FW_CHAN_MAX_KV      512

struct fw_chan {
	enum fw_chan_status status;
	int bad_line;        /* line of the problem (0: none / end of capture) */
	char why[256];       /* human-readable reason when not complete */
	size_t nrec, alloc;
	struct fw_chan_rec *rec;   /* the valid records in order (up to the problem) */
	/* from the begin record (NULL when absent) */
	const char *kernel, *profile, *workloads;
	long rounds;
};

/*
 * Parses a capture from bytes (the fuzzing entry point: any input is fine,
 * including NULs). Always fills *c (release it with fw_chan_release) and
 * returns c->status.
 */
enum fw_chan_status fw_chan_parse(const char *buf, size_t len, struct fw_chan *c);
/* Reads a capture file and parses it; a missing file counts as an empty capture. */
enum fw_chan_status fw_chan_parse_file(const char *path, struct fw_chan *c);
void fw_chan_release(struct fw_chan *c);

const char *fw_chan_status_name(enum fw_chan_status s);
const char *fw_chan_type_name(enum fw_chan_type t);
/* Value of key in a record, or NULL. */
const char *fw_chan_get(const struct fw_chan_rec *r, const char *key);
/* Diagnosis as one line: "complete (N records)" / "corrupt at line 7: bad crc ..." */
void fw_chan_describe(const struct fw_chan *c, char *out, size_t n);

#endif
