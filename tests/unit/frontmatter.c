/* Unit tests for the frontmatter parser: cases in tests/unit/frontmatter.txt. */
#include "clawmd.h"
#include "claude/frontmatter.h"
#include "tap.h"
#include "testutil.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static void run_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *body,
		     struct clawmd_buf *globs)
{
	test_unescape(in);
	test_unescape(body);
	struct clawmd_frontmatter fm;
	clawmd_frontmatter_parse(&fm, in->ptr, in->len);
	is_str(in->ptr + fm.body, body->ptr, "body: %s", name);
	struct clawmd_buf got = CLAWMD_BUF_INIT;
	clawmd_buf_put(&got, "", 0);
	if (!fm.nglobs)
		clawmd_buf_puts(&got, "(unconditional)\n");
	for (size_t i = 0; i < fm.nglobs; i++)
		clawmd_buf_printf(&got, "%s\n", fm.globs[i]);
	is_str(got.ptr, globs->ptr, "globs: %s", name);
	clawmd_buf_release(&got);
	clawmd_frontmatter_release(&fm);
}

int main(void)
{
	const char *srcdir = getenv("CLAWMD_SRC");
	char *path = clawmd_xasprintf("%s/tests/unit/frontmatter.txt", srcdir ? srcdir : ".");
	FILE *f = fopen(path, "rb");
	ok(f != NULL, "read %s", path);
	if (!f)
		return done_testing();
	struct clawmd_buf in = CLAWMD_BUF_INIT, body = CLAWMD_BUF_INIT, globs = CLAWMD_BUF_INIT;
	char *name = NULL, *line = NULL;
	size_t lcap = 0;
	ssize_t ll;
	int part = 0, cases = 0;
	while ((ll = getline(&line, &lcap, f)) >= 0) {
		if (!strncmp(line, "=== ", 4)) {
			if (name) {
				run_case(name, &in, &body, &globs);
				cases++;
			}
			free(name);
			name = clawmd_xstrndup(line + 4, (size_t)ll - 5);
			clawmd_buf_clear(&in);
			clawmd_buf_put(&in, "", 0);
			clawmd_buf_clear(&body);
			clawmd_buf_put(&body, "", 0);
			clawmd_buf_clear(&globs);
			clawmd_buf_put(&globs, "", 0);
			part = 1;
		} else if (part == 1 && !strcmp(line, "--- body\n")) {
			part = 2;
		} else if (part == 2 && !strcmp(line, "--- globs\n")) {
			part = 3;
		} else if (part) {
			clawmd_buf_put(part == 1 ? &in : part == 2 ? &body : &globs, line, (size_t)ll);
		}
	}
	if (name) {
		run_case(name, &in, &body, &globs);
		cases++;
	}
	ok(cases >= 15, "%d cases", cases);
	fclose(f);
	free(line);
	free(name);
	free(path);
	clawmd_buf_release(&in);
	clawmd_buf_release(&body);
	clawmd_buf_release(&globs);

	/* the size cap: a huge block is still removed, and counts as {} */
	size_t big = CLAWMD_FRONTMATTER_MAX + 10;
	char *s = clawmd_xmalloc(big + 20);
	memcpy(s, "---\npaths: x\n", 13);
	memset(s + 13, '#', big);
	memcpy(s + 13 + big, "\n---\nB", 7);
	struct clawmd_frontmatter fm;
	clawmd_frontmatter_parse(&fm, s, strlen(s));
	is_str(s + fm.body, "B", "oversized block removed");
	ok(!fm.nglobs && !fm.yaml_ok, "oversized block not parsed");
	clawmd_frontmatter_release(&fm);
	free(s);

	/* the brace cap: 26 groups of {a,b} would be 2^26 patterns */
	struct clawmd_buf bomb = CLAWMD_BUF_INIT;
	clawmd_buf_puts(&bomb, "---\npaths: \"");
	for (int i = 0; i < 26; i++)
		clawmd_buf_puts(&bomb, "{a,b}");
	clawmd_buf_puts(&bomb, ".c\"\n---\nB");
	clawmd_frontmatter_parse(&fm, bomb.ptr, bomb.len);
	ok(fm.nglobs == CLAWMD_PATHS_MAX && fm.globs_capped, "26 brace groups: %zu patterns, capped",
	   fm.nglobs);
	is_str(fm.nglobs ? fm.globs[0] : "", "aaaaaaaaaaaaaaaaaaaaaaaaaa.c", "the first expansion kept");
	clawmd_frontmatter_release(&fm);
	clawmd_buf_release(&bomb);
	/* a list of many plain patterns is capped too */
	clawmd_buf_puts(&bomb, "---\npaths:\n");
	for (int i = 0; i < 300; i++)
		clawmd_buf_printf(&bomb, "  - p%d\n", i);
	clawmd_buf_puts(&bomb, "---\nB");
	clawmd_frontmatter_parse(&fm, bomb.ptr, bomb.len);
	ok(fm.nglobs == CLAWMD_PATHS_MAX && fm.globs_capped, "300 listed patterns: capped at %zu",
	   fm.nglobs);
	clawmd_frontmatter_release(&fm);
	clawmd_buf_release(&bomb);
	/* under the cap: not flagged */
	clawmd_buf_puts(&bomb, "---\npaths: \"{a,b}{c,d}{e,f}\"\n---\nB");
	clawmd_frontmatter_parse(&fm, bomb.ptr, bomb.len);
	ok(fm.nglobs == 8 && !fm.globs_capped, "8 expansions: not capped");
	clawmd_frontmatter_release(&fm);
	clawmd_buf_release(&bomb);
	return done_testing();
}
