/* Unit tests for the composed header digest and @ defusing. */
#include "tap.h"
#include "clawmd.h"

#include <stdlib.h>

static char *composed(const char *body)
{
	/* The same shape plan.c writes, with the digest computed by hand. */
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const unsigned char *p = (const unsigned char *)body; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	char *s;
	if (asprintf(&s, "%s%016llx -->\n%s", CLAWMD_HEADER, (unsigned long long)h, body) < 0)
		abort();
	return s;
}

static void defuse(const char *in, const char *want, size_t nwant, const char *name)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	size_t n = clawmd_defuse_imports(&out, in, strlen(in));
	is_str(out.ptr, want, "defuse: %s", name);
	is(n, nwant, "defuse count: %s", name);
	clawmd_buf_release(&out);
}

int main(void)
{
	char *s = composed("@./.claude-shared.md\n");
	ok(clawmd_composed_is_ours(s, strlen(s)), "a composed entry is ours");
	s[strlen(s) - 2] = 'X';
	ok(!clawmd_composed_is_ours(s, strlen(s)), "an edited body is not");
	free(s);
	s = composed("@./a.md\n");
	char *more;
	if (asprintf(&more, "%sappended\n", s) < 0)
		abort();
	ok(!clawmd_composed_is_ours(more, strlen(more)), "an appended line is not");
	ok(!clawmd_composed_is_ours("", 0), "empty is not");
	ok(!clawmd_composed_is_ours("# notes\n", 8), "a legacy file is not");
	ok(!clawmd_composed_is_ours(s, strlen(CLAWMD_HEADER) + 5), "a truncated header is not");
	free(s);
	free(more);

	defuse("see @./x.md now", "see `@./x.md` now", 1, "a directive in text");
	defuse("@~/secrets.md", "`@~/secrets.md`", 1, "at the start");
	defuse("mail foo@bar.com", "mail foo@bar.com", 0, "an address is no directive");
	defuse("a @x`y` b", "a ``@x`y` `` b", 1, "backticks inside get a longer fence");
	defuse("no directives", "no directives", 0, "plain text unchanged");
	return done_testing();
}
