/* Strict UTF-8 validation and character-boundary truncation (see utf8.h). */
#include "utf8.h"
#include <limits.h>
#include <string.h>

long utf8_invalid_at(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i], min;
		size_t n;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1; min = 0x80; c &= 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2; min = 0x800; c &= 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3; min = 0x10000; c &= 0x07;
		} else {
			return (long)i;
		}
		if (i + n >= len)
			return (long)i;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return (long)i;
			c = (c << 6) | (s[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return (long)i;
		i += n + 1;
	}
	return -1;
}

int utf8_prefix(const char *str, size_t max_chars)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	/* A character starts at every byte that is not a continuation byte (10xxxxxx). */
	for (size_t chars = 0; s[i]; i++) {
		if ((s[i] & 0xc0) != 0x80 && chars++ == max_chars)
			break;
		if (i >= INT_MAX - 1)
			break;
	}
	return (int)i;
}

int utf8_fit(const char *str, size_t len, size_t max_bytes)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = len < max_bytes ? len : max_bytes;

	if (n > INT_MAX - 1)
		n = INT_MAX - 1;
	/* Back up over continuation bytes to the start of the character that was cut. */
	if (n < len)
		while (n && (s[n] & 0xc0) == 0x80)
			n--;
	return (int)n;
}

void utf8_copy(char *dst, size_t size, const char *src)
{
	int n;

	if (!size)
		return;
	n = utf8_fit(src, strlen(src), size - 1);
	memcpy(dst, src, (size_t)n);
	dst[n] = '\0';
}

void utf8_trim_partial(char *s)
{
	long bad = utf8_invalid_at(s, strlen(s));

	if (bad >= 0)
		s[bad] = '\0';
}

int utf8_has_bidi(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned c = *s;
		int n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;

		if (n)
			c &= 0x3f >> n;
		for (int k = 1; k <= n && s[k]; k++)
			c = (c << 6) | (s[k] & 0x3f);
		if ((c >= 0x590 && c <= 0x8ff) || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
		    (c >= 0x2066 && c <= 0x2069) || (c >= 0xfb1d && c <= 0xfdff) || (c >= 0xfe70 && c <= 0xfeff) ||
		    (c >= 0x10800 && c <= 0x10fff) || (c >= 0x1e800 && c <= 0x1efff))
			return 1;
		for (s++; n-- > 0 && *s; s++)
			;
	}
	return 0;
}
