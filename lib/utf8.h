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
/* Cuts s before its first invalid sequence (e.g. half a character left by snprintf). */
void utf8_trim_partial(char *s);
/* printf arguments for "%.*s": the first n characters of s. */
#define UTF8_CUT(s, n) utf8_prefix((s), (n)), (s)

#endif
