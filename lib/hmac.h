#ifndef FW_HMAC_H
#define FW_HMAC_H
#include <stddef.h>

/* HMAC-SHA256 (RFC 2104 over lib/sha256): signs webhook bodies. */
void fw_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t len,
		    unsigned char out[32]);
/* The same as 64 lowercase hex digits plus NUL. */
void fw_hmac_sha256_hex(const void *key, size_t keylen, const void *msg, size_t len,
			char out[65]);

#endif
