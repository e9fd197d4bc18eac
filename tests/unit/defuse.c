/* Unit tests for defusing @ directives (issue 9, item 7): cases in
 * tests/unit/defuse.txt, and every scanner case of tests/unit/mdscan.txt
 * defused must leave no live import, by Claude Code's rule, Gemini CLI's
 * (issue 28, item 6), caliban's or chimera's (issue 38). */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"
#include "base/util.h"
#include "runtime/imports.h"

#include <stdio.h>
#include <stdlib.h>

static int count(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

/* Live imports by any runtime that follows them: Claude Code's rule,
 * Gemini CLI's (issue 28 item 6), caliban's and chimera's (issue 38). */
static size_t live(const char *text, size_t len)
{
	size_t n = 0;
	clawmd_md_imports(text, len, count, &n);
	clawmd_gemini_imports(text, len, count, &n);
	clawmd_caliban_imports(text, len, count, &n);
	clawmd_chimera_imports(text, len, count, &n);
	return n;
}

/* The directives any rule finds, each '@' once. */
struct at {
	size_t v[4096], n;
};

static int note(size_t off, size_t len, const char *path, void *payload)
{
	struct at *a = payload;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i] == off)
			return 0;
	if (a->n < 4096)
		a->v[a->n++] = off;
	return 0;
}

static size_t found(const char *text, size_t len)
{
	static struct at a;
	a.n = 0;
	clawmd_md_imports(text, len, note, &a);
	clawmd_gemini_imports(text, len, note, &a);
	clawmd_caliban_imports(text, len, note, &a);
	clawmd_chimera_imports(text, len, note, &a);
	return a.n;
}

/* The case file's text between two markers, without the newline before
 * the next marker (a blank line keeps one). */
static void chop(struct clawmd_buf *b)
{
	if (b->len && b->ptr[b->len - 1] == '\n')
		b->ptr[--b->len] = '\0';
}

static void run_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *want)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	chop(in);
	chop(want);
	test_unescape(in);
	test_unescape(want);
	size_t before = found(in->ptr, in->len);
	size_t n = clawmd_defuse_imports(&out, in->ptr, in->len);
	is_str(out.ptr, want->ptr, "defuse: %s", name);
	is(live(out.ptr, out.len), 0, "no live import left: %s", name);
	is(n, before, "count is the imports found: %s", name);
	clawmd_buf_release(&out);
}

/* Every scanner case's input: whatever it imports, defused, nothing. */
static void scanner_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *unused)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	test_unescape(in);
	clawmd_defuse_imports(&out, in->ptr, in->len);
	is(live(out.ptr, out.len), 0, "scanner case defused: %s", name);
	clawmd_buf_release(&out);
}

int main(void)
{
	int n = test_each_case("defuse.txt", "--- defused", run_case);
	ok(n >= 10, "%d defuse cases", n);
	n = test_each_case("mdscan.txt", "--- imports", scanner_case);
	ok(n >= 30, "%d scanner cases defused", n);
	return done_testing();
}
