/* HMAC-SHA256 against the RFC 4231 test vectors (cases 1-7; case 5 truncated to 128 bits). */
#include <stdlib.h>
#include "hmac.h"
#include "tap.h"

/* Hex to bytes (test vectors only); returns the length. */
static size_t unhex(const char *h, unsigned char *out)
{
	size_t n = 0;

	for (; h[0] && h[1]; h += 2) {
		char b[3] = { h[0], h[1], 0 };
		out[n++] = (unsigned char)strtoul(b, NULL, 16);
	}
	return n;
}

static void fill(unsigned char *b, unsigned char v, size_t n)
{
	memset(b, v, n);
}

int main(void)
{
	static const char big_key_msg[] = "Test Using Larger Than Block-Size Key - Hash Key First";
	static const char big_both_msg[] =
		"This is a test using a larger than block-size key and a larger than block-size data. "
		"The key needs to be hashed before being used by the HMAC algorithm.";
	unsigned char key[256], msg[256];
	char hex[65];
	size_t kl, ml;

	fill(key, 0x0b, 20);
	fw_hmac_sha256_hex(key, 20, "Hi There", 8, hex);
	is_str(hex, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", "RFC 4231 case 1");

	fw_hmac_sha256_hex("Jefe", 4, "what do ya want for nothing?", 28, hex);
	is_str(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "case 2 (key shorter than the output)");

	fill(key, 0xaa, 20);
	fill(msg, 0xdd, 50);
	fw_hmac_sha256_hex(key, 20, msg, 50, hex);
	is_str(hex, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", "case 3 (50 bytes of 0xdd)");

	kl = unhex("0102030405060708090a0b0c0d0e0f10111213141516171819", key);
	fill(msg, 0xcd, 50);
	fw_hmac_sha256_hex(key, kl, msg, 50, hex);
	is_str(hex, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", "case 4 (25-byte key)");

	fill(key, 0x0c, 20);
	fw_hmac_sha256_hex(key, 20, "Test With Truncation", 20, hex);
	hex[32] = 0;
	is_str(hex, "a3b6167473100ee06e0c796c2955552b", "case 5 (first 128 bits)");

	fill(key, 0xaa, 131);
	fw_hmac_sha256_hex(key, 131, big_key_msg, sizeof(big_key_msg) - 1, hex);
	is_str(hex, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", "case 6 (131-byte key, hashed first)");

	ml = sizeof(big_both_msg) - 1;
	fw_hmac_sha256_hex(key, 131, big_both_msg, ml, hex);
	is_str(hex, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", "case 7 (long key and data)");

	/* a key of exactly one block is used as it is, not hashed */
	fill(key, 0x01, 64);
	fw_hmac_sha256_hex(key, 64, "x", 1, hex);
	{
		char hex65[65];
		fill(key, 0x01, 65);
		fw_hmac_sha256_hex(key, 65, "x", 1, hex65);
		ok(strcmp(hex, hex65) != 0, "a 64-byte key and a 65-byte key sign differently");
	}
	return done_testing();
}
