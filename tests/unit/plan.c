/* Unit tests for the composed header digest and @ defusing. */
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

/* The plan as "name type data" lines, the entry's header left out. */
static char *plan_text(const struct clawmd_plan *plan)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	for (size_t i = 0; i < plan->n; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		const char *data = e->data;
		if (!strcmp(e->name, "CLAUDE.md"))
			data = strchr(data, '\n') + 1;
		clawmd_buf_printf(&b, "%s %s %s%s", e->name, e->type == CLAWMD_FT_LINK ? "->" : "=", data,
				  e->type == CLAWMD_FT_LINK ? "\n" : "");
	}
	return clawmd_buf_detach(&b);
}

static void test_plan(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-plan.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	put_root("container/CLAUDE.md", "base\n");
	put_root("skills/b/instructions.md", "B\n");
	put_root("skills/a/instructions.md", "A\n");
	put_root("skills/c/SKILL.md", "no fragment\n");
	put_root("mods/cli.instructions.md", "cli\n");
	put_root("mods/web.instructions.md", "web\n");
	put_root("mods/bad name.instructions.md", "skipped\n");
	put_root("groups/g/container.json",
	    "{\"cli_scope\": \"disabled\", \"mcpServers\": {\"s\": {\"instructions\": \"use @./x.md\"}}}");

	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root r;
	struct clawmd_layout *lay = &r.lay;
	struct clawmd_group *g, *h;
	struct clawmd_plan plan;
	clawmd_root_init(&r);
	is(clawmd_root_load(&r, root, &err), 0, "layout loads: %s", err.msg);
	is(clawmd_group_open(&g, &r, "g", &err), 0, "the group opens");
	is(clawmd_layout_set(lay, "modules", "mods", &err), 0, "modules directory");
	is(lay->mode, CLAWMD_MODE_COPY, "copy is the default mode");
	is(clawmd_layout_set(lay, "mode", "symlink", &err), 0, "symlink mode");
	is(clawmd_plan_build(&plan, g, &err), 0, "plan builds: %s", err.msg);
	char *got = plan_text(&plan);
	is_str(got,
	       ".claude-fragments/shared.md -> /app/CLAUDE.md\n"
	       ".claude-fragments/skill-a.md -> /app/skills/a/instructions.md\n"
	       ".claude-fragments/skill-b.md -> /app/skills/b/instructions.md\n"
	       ".claude-fragments/module-web.md -> /app/src/mcp-tools/web.instructions.md\n"
	       ".claude-fragments/mcp-s.md = use `@./x.md`\n"
	       "CLAUDE.md = @./.claude-fragments/shared.md\n@./.claude-fragments/skill-a.md\n"
	       "@./.claude-fragments/skill-b.md\n@./.claude-fragments/module-web.md\n"
	       "@./.claude-fragments/mcp-s.md\n",
	       "symlink plan: the base linked from .claude-fragments: order, cli dropped, invalid module name skipped, defused MCP");
	free(got);
	ok(clawmd_entry_ours(plan.entries[plan.n - 1].data, plan.entries[plan.n - 1].len),
	   "the planned entry carries a valid digest");
	is(plan.ndefused, 1, "one directive defused");

	struct clawmd_changes ch;
	is(clawmd_changes_compute(&ch, g, &plan, &err), 0, "changes against an empty group");
	is(ch.n, 8, "mkdir + 6 writes + CLAUDE.local.md");
	is(clawmd_changes_apply(&ch, g, &err), 0, "apply: %s", err.msg);
	clawmd_changes_release(&ch);
	is(clawmd_changes_compute(&ch, g, &plan, &err), 0, "recompute");
	is(ch.n, 0, "nothing left to do");
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);

	is(clawmd_layout_set(lay, "mode", "copy", &err), 0, "copy mode");
	is(clawmd_plan_build(&plan, g, &err), 0, "copy plan builds");
	ok(plan.entries[0].type == CLAWMD_FT_FILE && !strcmp(plan.entries[0].data, "base\n"),
	   "copy mode: the shared base's content");
	is(clawmd_changes_compute(&ch, g, &plan, &err), 0, "changes for the switch");
	is(ch.n, 6, "the base copied and its link gone, three fragments, and the entry's first import change");
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);

	clawmd_err_clear(&err);
	is(clawmd_group_open(&h, &r, "../g", &err), CLAWMD_EINPUT, "a hostile group name is refused");
	ok(h == NULL, "... with no handle");
	clawmd_err_clear(&err);
	put_root("groups/h/container.json", "{\"skills\": [\"a\", \"../../x\"]}");
	is(clawmd_group_open(&h, &r, "h", &err), 0, "group h opens");
	is(clawmd_plan_build(&plan, h, &err), CLAWMD_EINPUT, "a hostile skill name is refused");
	clawmd_group_free(h);
	ok(strstr(err.msg, "groups/h/container.json: skills[1]") != NULL, "named: %s", err.msg);
	clawmd_group_free(g);
	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
}

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

static int count_import(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

/* want NULL: only check that nothing importable is left. */
static void defuse(const char *in, const char *want, size_t nwant, const char *name)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	size_t n = clawmd_defuse_imports(&out, in, strlen(in)), left = 0;
	if (want)
		is_str(out.ptr, want, "defuse: %s", name);
	is(n, nwant, "defuse count: %s", name);
	clawmd_md_imports(out.ptr, out.len, count_import, &left);
	is(left, 0, "defuse: %s: nothing importable is left", name);
	clawmd_buf_release(&out);
}

int main(void)
{
	char *s = composed("@./.claude-shared.md\n");
	ok(clawmd_entry_ours(s, strlen(s)), "a composed entry is ours");
	s[strlen(s) - 2] = 'X';
	ok(!clawmd_entry_ours(s, strlen(s)), "an edited body is not");
	free(s);
	s = composed("@./a.md\n");
	char *more;
	if (asprintf(&more, "%sappended\n", s) < 0)
		abort();
	ok(!clawmd_entry_ours(more, strlen(more)), "an appended line is not");
	ok(!clawmd_entry_ours("", 0), "empty is not");
	ok(!clawmd_entry_ours("# notes\n", 8), "a legacy file is not");
	ok(!clawmd_entry_ours(s, strlen(CLAWMD_HEADER) + 5), "a truncated header is not");
	free(s);
	s = composed("@./b.md\n");
	memcpy(s + 5, "Reworded", 8);
	ok(clawmd_entry_ours(s, strlen(s)), "a reworded header with a valid digest is ours");
	free(s);
	free(more);

	/* nanoclaw's own composer: its header, then only its import lines. */
#define NC "<!-- Composed at spawn \xe2\x80\x94 do not edit. Edit CLAUDE.local.md for per-group content. -->\n"
	static const struct {
		const char *text;
		bool ours;
		const char *name;
	} nc[] = {
		{NC "@./.claude-shared.md\n@./.claude-fragments/skill-a.md\n@./.claude-fragments/mcp-x.md\n", true,
		 "nanoclaw's entry is a composed entry"},
		{NC "@./.claude-shared.md\n@./.claude-fragments/module-core.md", true, "without a final newline"},
		{NC "@./.claude-shared.md\n", true, "the shared base alone"},
		{NC "@./.claude-shared.md\nAnswer in French.\n", false, "a hand-added line is an edit"},
		{NC "@./.claude-shared.md\n\n", false, "a blank line is an edit"},
		{NC "@./.claude-shared.md\n@./.claude-fragments/../x.md\n", false, "a path leaving the fragments"},
		{NC "@./.claude-fragments/skill-a.txt\n", false, "a fragment that is not .md"},
		{NC "@./notes.md\n", false, "an import nanoclaw never writes"},
		{NC "@./.claude-shared.md\n@./CLAUDE.role.md\n@./CLAUDE.local.md\n", true,
		 "the role and local imports of nanoclaw's pull requests 2345 and 2262"},
		{NC "@./CLAUDE.local.md.bak\n", false, "a longer name than CLAUDE.local.md"},
		{"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. "
		 "Memory: memory/. -->\n@./.claude-fragments/persona.md\n@./.claude-shared.md\n", true,
		 "nanocoai's header and its persona import"},
		{"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. "
		 "Memory: memory/. -->\n@./.claude-shared.md\nBe terse.\n", false,
		 "nanocoai's header over a hand-added line"},
		{"<!-- Composed at spawn -->\n@./.claude-shared.md\n", false, "another header"},
		{NC, true, "the header alone (nothing to carry)"},
	};
	for (size_t i = 0; i < sizeof(nc) / sizeof(nc[0]); i++) {
		is(clawmd_entry_ours(nc[i].text, strlen(nc[i].text)), nc[i].ours, "%s", nc[i].name);
	}

	defuse("see @./x.md now", "see `@./x.md` now", 1, "a directive in text");
	defuse("@~/secrets.md", "`@~/secrets.md`", 1, "at the start");
	defuse("mail foo@bar.com", "mail foo@bar.com", 0, "an address is no directive");
	defuse("a @x`y` b", "a ``@x`` `y` b", 1, "a code span right after the directive");
	defuse("x ` y @/etc/p z ``", "x ` y ```@/etc/p``` z ``", 1,
	       "the fence cannot pair with backticks elsewhere");
	/* chimera takes an @ after white space in code, caliban an @ line in
	 * a fence: both are defused too (issue 38) */
	defuse("a ` b @/etc/passwd c `` `", NULL, 1, "inside a code span closed by the last backtick");
	defuse("```\n@./in-code.md\n```\n", "```\n\\@./in-code.md\n```\n", 1,
	       "a fenced code block: escaped for caliban and chimera");
	defuse("- see ` @./x.md `\n- two\n", NULL, 1, "tight list item code span (imported by Claude Code)");
	defuse("see\xc2\xa0@/etc/passwd", NULL, 1, "after a no-break space");
	defuse("@a @b @a", "`@a` `@b` `@a`", 3, "every occurrence");
	defuse("no directives", "no directives", 0, "plain text unchanged");
	test_plan();
	return done_testing();
}
