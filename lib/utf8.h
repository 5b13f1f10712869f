#ifndef FW_UTF8_H
#define FW_UTF8_H
/*
 * UTF-8 helpers for text that came from outside: validation (strict: no
 * overlong forms, surrogates or code points past U+10FFFF) and display
 * truncation that never splits a character. Identifiers are never truncated.
 */
#include <stddef.h>

/* Offset of the first invalid sequence in s[0..len), or -1 if all valid. */
long utf8_invalid_at(const char *s, size_t len);
/* Bytes of the first max_chars characters of the NUL-terminated s. */
int utf8_prefix(const char *s, size_t max_chars);
/*
 * Bytes of s[0..len) that fit in max_bytes without splitting a character:
 * for "%.*s" of outside text bounded in bytes (a line, a field of a buffer).
 */
int utf8_fit(const char *s, size_t len, size_t max_bytes);
/* snprintf(dst, size, "%s", src) that never leaves half a character at the cut. */
void utf8_copy(char *dst, size_t size, const char *src);
/* Cuts s before its first invalid sequence (e.g. half a character left by snprintf). */
void utf8_trim_partial(char *s);
/*
 * 1 when s holds text that can reorder what follows it in a left-to-right
 * page: bidi controls (U+061C, U+200E/F, U+202A-202E, U+2066-2069) or letters
 * of right-to-left scripts (Hebrew, Arabic, Syriac, ..., U+0590-08FF,
 * U+FB1D-FDFF, U+FE70-FEFF, U+10800-10FFF, U+1E800-1EFFF). Valid UTF-8 assumed.
 */
int utf8_has_bidi(const char *s);
/* printf arguments for "%.*s": the first n characters of s. */
#define UTF8_CUT(s, n) utf8_prefix((s), (n)), (s)
/* printf arguments for "%.*s": at most max bytes of s[0..len), whole characters only. */
#define UTF8_FIT(s, len, max) utf8_fit((s), (len), (max)), (s)

#endif
