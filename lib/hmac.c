#include "hmac.h"
#include "sha256.h"
#include <string.h>

void fw_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t len,
		    unsigned char out[32])
{
	unsigned char k[64], pad[64], inner[32];
	struct sha256_ctx c;

	memset(k, 0, sizeof(k));
	if (keylen > sizeof(k)) {
		/* keys longer than the block are hashed first (RFC 2104) */
		sha256_init(&c);
		sha256_update(&c, key, keylen);
		sha256_final(&c, k);
	} else if (keylen) {
		memcpy(k, key, keylen);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof(pad));
	sha256_update(&c, msg, len);
	sha256_final(&c, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof(pad));
	sha256_update(&c, inner, sizeof(inner));
	sha256_final(&c, out);
	memset(k, 0, sizeof(k));
	memset(pad, 0, sizeof(pad));
}

void fw_hmac_sha256_hex(const void *key, size_t keylen, const void *msg, size_t len,
			char out[65])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char mac[32];

	fw_hmac_sha256(key, keylen, msg, len, mac);
	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[mac[i] >> 4];
		out[2 * i + 1] = hex[mac[i] & 15];
	}
	out[64] = 0;
}
