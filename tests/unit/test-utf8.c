/*
 * lib/utf8.c: strict validation (overlong forms, surrogates, past U+10FFFF,
 * cut sequences) and character-boundary truncation for every character width
 * at every byte alignment.
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "utf8.h"

static void check_prefixes(const char *ch)
{
	char s[64], cut[64], desc[96];
	int bad = 0;

	for (int off = 0; off < 4; off++) {
		/* off ASCII bytes, then the character repeated: every cut must stay valid UTF-8. */
		snprintf(s, sizeof(s), "%.*s%s%s%s%s", off, "xxxx", ch, ch, ch, ch);
		for (size_t n = 0; n <= 8; n++) {
			int len = utf8_prefix(s, n);

			snprintf(cut, sizeof(cut), "%.*s", UTF8_CUT(s, n));
			bad += utf8_invalid_at(cut, strlen(cut)) >= 0 || (size_t)len > strlen(s);
			/* n characters (or all of s): off ASCII ones and the rest whole characters */
			bad += n <= (size_t)off ? len != (int)n
				: len != (int)(strlen(s) < off + (n - off) * strlen(ch) ? strlen(s)
					       : off + (n - off) * strlen(ch));
		}
	}
	snprintf(desc, sizeof(desc), "utf8_prefix never splits a %zu-byte character", strlen(ch));
	is_int(bad, 0, desc);
}

/* utf8_fit and utf8_copy at every byte budget: valid, whole characters, as long as fits. */
static void check_byte_cuts(const char *ch)
{
	char s[64], dst[64], desc[96];
	size_t w = strlen(ch);
	int bad = 0;

	for (int off = 0; off < 4; off++) {
		snprintf(s, sizeof(s), "%.*s%s%s%s%s", off, "xxxx", ch, ch, ch, ch);
		for (size_t max = 0; max <= strlen(s) + 1; max++) {
			int n = utf8_fit(s, strlen(s), max);
			/* the longest prefix of whole characters that fits */
			size_t want = max >= strlen(s) ? strlen(s)
				: max <= (size_t)off ? max : off + (max - off) / w * w;

			bad += n != (int)want;
			utf8_copy(dst, max + 1, s);
			bad += strlen(dst) != want || utf8_invalid_at(dst, strlen(dst)) >= 0;
		}
	}
	snprintf(desc, sizeof(desc), "utf8_fit and utf8_copy never split a %zu-byte character", w);
	is_int(bad, 0, desc);
}

int main(void)
{
	is_int(utf8_invalid_at("abc", 3), -1, "ASCII is valid");
	is_int(utf8_invalid_at("x\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10), -1, "2, 3 and 4 bytes are valid");
	is_int(utf8_invalid_at("x\xc3", 2), 1, "a cut 2-byte character is invalid at its start");
	is_int(utf8_invalid_at("x\xe2\x82", 3), 1, "a cut 3-byte character");
	is_int(utf8_invalid_at("\xc0\xaf", 2), 0, "overlong '/' is invalid");
	is_int(utf8_invalid_at("\xed\xa0\x80", 3), 0, "a surrogate is invalid");
	is_int(utf8_invalid_at("\xf4\x90\x80\x80", 4), 0, "past U+10FFFF is invalid");
	is_int(utf8_invalid_at("a\xff\xfe", 3), 1, "0xff is invalid");
	check_prefixes("\xc3\xa9");
	check_prefixes("\xe2\x82\xac");
	check_prefixes("\xf0\x9f\x98\x80");
	check_byte_cuts("\xc3\xa9");
	check_byte_cuts("\xe2\x82\xac");
	check_byte_cuts("\xf0\x9f\x98\x80");
	is_int(utf8_fit("ab\xc3\xa9", 2, 100), 2, "utf8_fit stays within len");
	is_int(utf8_prefix("abc", 12), 3, "a short string is kept whole");
	{
		char s[] = "ab\xe2\x82";

		utf8_trim_partial(s);
		is_str(s, "ab", "utf8_trim_partial drops half a character at the end");
	}
	is_int(utf8_has_bidi("plain ASCII, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80"), 0, "LTR text has no bidi");
	is_int(utf8_has_bidi("evil\xe2\x80\xae"), 1, "U+202E (RLO) is bidi");
	is_int(utf8_has_bidi("\xe2\x81\xa6x"), 1, "U+2066 (LRI) is bidi");
	is_int(utf8_has_bidi("x \xd8\xb9"), 1, "an Arabic letter is bidi");
	is_int(utf8_has_bidi("\xd7\x90"), 1, "a Hebrew letter is bidi");
	is_int(utf8_has_bidi("\xe2\x80\x8f"), 1, "U+200F (RLM) is bidi");
	return done_testing();
}
