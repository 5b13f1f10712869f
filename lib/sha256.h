#ifndef FW_SHA256_H
#define FW_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sha256_ctx {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char block[64];
	size_t fill;
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, unsigned char out[32]);
/* One-shot digest as 64 lowercase hex digits plus NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);
void sha256_final_hex(struct sha256_ctx *c, char out[65]);
#endif
