/* Unit tests for what nanoclaw's SessionStart memory hook injects of a file
 * (lib/render/nanoclaw.c, clawmd_hook_memory_text): JavaScript's trim, the
 * cut at 16,000 UTF-16 code units, a surrogate pair split by the cut, the
 * notice line, invalid UTF-8 read as Node reads it. */
#include <stdlib.h>
#include <string.h>

#include "clawmd.h"
#include "tap.h"

#define NOTICE "\n[truncated: slim this file and move detail into linked memory files]"

static char *text(const char *data, size_t len, size_t *units, bool *cut)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_hook_memory_text(&b, data, len, units, cut);
	clawmd_buf_put(&b, "", 0);
	return clawmd_buf_detach(&b);
}

/* `n` copies of `unit` after `head`, then `tail`. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail, size_t *len)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_puts(&b, head);
	for (size_t i = 0; i < n; i++)
		clawmd_buf_puts(&b, unit);
	clawmd_buf_puts(&b, tail);
	*len = b.len;
	return clawmd_buf_detach(&b);
}

int main(void)
{
	size_t u, len;
	bool cut;
	char *s, *in;

	in = "\n\n  # Index\n\nCore.\n\n\t";
	s = text(in, strlen(in), &u, &cut);
	is_str(s, "# Index\n\nCore.", "trimmed at both ends");
	is(u, 14, "its length in code units");
	ok(!cut, "not truncated");
	free(s);

	/* U+FEFF, U+00A0, U+3000 and U+2028 are JavaScript whitespace */
	s = text("\xef\xbb\xbf\xc2\xa0x\xe3\x80\x80\xe2\x80\xa8", 12, &u, &cut);
	is_str(s, "x", "JavaScript's whitespace trimmed");
	free(s);

	s = text("", 0, &u, &cut);
	is_str(s, "", "an empty file is empty");
	ok(!cut && u == 0, "... not truncated");
	free(s);

	/* exactly the budget: kept whole */
	in = repeat("", "a", CLAWMD_HOOK_MEMORY_CHARS, "\n", &len);
	s = text(in, len, &u, &cut);
	ok(!cut && strlen(s) == CLAWMD_HOOK_MEMORY_CHARS, "16000 characters are kept whole");
	free(s);
	free(in);

	/* one over: cut at 16000, the notice on its own line */
	in = repeat("", "a", CLAWMD_HOOK_MEMORY_CHARS, "b", &len);
	s = text(in, len, &u, &cut);
	ok(cut, "16001 characters are truncated");
	is(u, CLAWMD_HOOK_MEMORY_CHARS + 1, "... the length is the whole file's");
	ok(strlen(s) == CLAWMD_HOOK_MEMORY_CHARS + strlen(NOTICE) &&
		   !strcmp(s + CLAWMD_HOOK_MEMORY_CHARS, NOTICE) && s[CLAWMD_HOOK_MEMORY_CHARS - 1] == 'a',
	   "... to 16000 characters and the notice");
	free(s);
	free(in);

	/* a three-byte character is one code unit: 16000 of them fit */
	in = repeat("", "\xe2\x82\xac", CLAWMD_HOOK_MEMORY_CHARS + 1, "", &len);
	s = text(in, len, &u, &cut);
	ok(cut && strlen(s) == 3 * CLAWMD_HOOK_MEMORY_CHARS + strlen(NOTICE),
	   "characters are counted, not bytes");
	free(s);
	free(in);

	/* a surrogate pair split by the cut: its high half is dropped too */
	in = repeat("", "a", CLAWMD_HOOK_MEMORY_CHARS - 1, "\xf0\x9f\x98\x80z", &len);
	s = text(in, len, &u, &cut);
	is(u, CLAWMD_HOOK_MEMORY_CHARS + 2, "an emoji is two code units");
	ok(cut && strlen(s) == CLAWMD_HOOK_MEMORY_CHARS - 1 + strlen(NOTICE) &&
		   !strcmp(s + CLAWMD_HOOK_MEMORY_CHARS - 1, NOTICE),
	   "the pair split at 16000 is left out whole");
	free(s);
	free(in);
	in = repeat("", "a", CLAWMD_HOOK_MEMORY_CHARS - 2, "\xf0\x9f\x98\x80z", &len);
	s = text(in, len, &u, &cut);
	ok(cut && !strncmp(s + CLAWMD_HOOK_MEMORY_CHARS - 2, "\xf0\x9f\x98\x80\n[", 6),
	   "a pair ending at 16000 is kept");
	free(s);
	free(in);

	/* leading blanks do not count against the budget */
	in = repeat("\n\n\n", "a", CLAWMD_HOOK_MEMORY_CHARS, "   \n", &len);
	s = text(in, len, &u, &cut);
	ok(!cut && u == CLAWMD_HOOK_MEMORY_CHARS, "the budget is the trimmed file's");
	free(s);
	free(in);

	/* invalid UTF-8 reads as U+FFFD, as Node's readFileSync(p, 'utf-8') */
	s = text("a\xffz", 3, &u, &cut);
	is_str(s, "a\xef\xbf\xbdz", "an invalid byte is U+FFFD");
	is(u, 3, "... one code unit");
	free(s);
	return done_testing();
}
