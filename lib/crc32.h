#ifndef FW_CRC32_H
#define FW_CRC32_H
#include <stddef.h>
#include <stdint.h>
/* CRC-32 (IEEE 802.3, as zlib's crc32()); crc32_update(0, ...) starts a new one. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);
#endif
