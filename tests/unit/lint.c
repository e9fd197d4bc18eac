/* Unit tests for the lint API: the rule table, and findings on small trees
 * (frontmatter positions, globs, the import walk, UTF-16 sizes). */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void put_root(const char *rel, const char *content)
{
	test_put(root, rel, content);
}

/* The findings as "CODE file:line:col" lines. */
static char *lint(void)
{
	struct clawmd_findings f;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_findings_init(&f);
	if (clawmd_lint_tree(&f, root, NULL, &err) < 0)
		clawmd_buf_printf(&b, "error: %s\n", err.msg);
	for (size_t i = 0; i < f.n; i++)
		clawmd_buf_printf(&b, "%s %s:%lu:%lu\n", f.v[i].rule->code, f.v[i].file, f.v[i].line,
				  f.v[i].col);
	clawmd_buf_put(&b, "", 0);
	clawmd_findings_release(&f);
	return clawmd_buf_detach(&b);
}

static void reset(void)
{
	char cmd[600];
	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			abort();
	}
	snprintf(root, sizeof(root), "%s/clawmd-lint.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
}

static void test_rules(void)
{
	size_t n;
	const struct clawmd_lint_rule *r = clawmd_lint_rules(&n);
	ok(n >= 15, "at least fifteen rules");
	for (size_t i = 1; i < n; i++)
		ok(strcmp(r[i - 1].code, r[i].code) < 0, "codes sorted and unique: %s", r[i].code);
	for (size_t i = 0; i < n; i++)
		ok(clawmd_lint_rule(r[i].code) == &r[i] && r[i].summary[0] && r[i].name[0],
		   "%s: found by code, named, summarized", r[i].code);
	ok(clawmd_lint_rule("CM999") == NULL, "an unknown code is NULL");
	is_str(clawmd_severity_name(CLAWMD_SEV_WARNING), "warning", "severity names");
	is_str(clawmd_drift_name(CLAWMD_DRIFT_NEVER), "never composed", "drift names");
}

static void test_tree(void)
{
	char *got;
	reset();
	got = lint();
	is_str(got, "", "an empty tree has no findings");
	free(got);

	put_root("CLAUDE.md", "# P\n\nSee @./a.md and `@./code.md`.\n\n```\n@./fenced.md\n```\n");
	put_root("a.md", "---\nx: 1\n---\n\n@./nope.md\n");
	got = lint();
	is_str(got, "CM101 a.md:5:1\n",
	       "imports in code are not imports; positions count the frontmatter");
	free(got);

	reset();
	put_root(".claude/rules/a.md", "---\npaths: \"src/*.c\"\n---\nC rules.\n");
	put_root(".claude/rules/b.md", "---\npaths:\n  - docs\n---\nDoc rules.\n");
	put_root(".claude/rules/c.md", "---\nname: x\n  bad: y\n---\nBroken.\n");
	put_root(".claude/rules/d.md", "---\npaths: *.md\n---\nQuoted on retry, like Claude Code.\n");
	put_root("docs/guide/intro.md", "Intro.\n");
	got = lint();
	is_str(got, "CM502 .claude/rules/a.md:2:1\nCM501 .claude/rules/c.md:3:6\n",
	       "globs (a directory matches what is below it), frontmatter errors located");
	free(got);

	reset();
	/* 20,001 two-unit characters (U+1F600) are 40,002 UTF-16 units. */
	struct clawmd_buf big = CLAWMD_BUF_INIT;
	for (int i = 0; i < 20001; i++)
		clawmd_buf_puts(&big, "\xf0\x9f\x98\x80");
	put_root("CLAUDE.md", big.ptr);
	got = lint();
	is_str(got, "CM201 CLAUDE.md:1:1\n", "sizes count UTF-16 units, as Claude Code does");
	free(got);
	clawmd_buf_release(&big);

	struct clawmd_findings f;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_findings_init(&f);
	ok(clawmd_lint_tree(&f, "/nonexistent/clawmd", NULL, &err) == CLAWMD_EINPUT,
	   "an unreadable tree is EINPUT");
	ok(strstr(err.msg, "/nonexistent/clawmd") != NULL, "the message names it");
	clawmd_findings_release(&f);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
}

int main(void)
{
	test_rules();
	test_tree();
	return done_testing();
}
