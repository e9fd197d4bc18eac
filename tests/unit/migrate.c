/* migrate.c - unit tests for migrate's pure parts: what is carried out of a
 * legacy CLAUDE.md, and which blocks of groups/global/CLAUDE.md the shared
 * base lacks.  Cases are (input, expected) pairs, one a line of the tables. */
#include "clawmd.h"
#include "tap.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void rm_rf(const char *dir)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

/* The library call over a small tree: the result lists the plan in order,
 * the record comes last, and the second call sees the record. */
static void api_run(void)
{
	char root[] = "/tmp/clawmd-unit-migrate.XXXXXX";
	if (!mkdtemp(root))
		abort();
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/container", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/groups", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/groups/a", root);
	mkdir(dir, 0755);
	put(dir, "CLAUDE.md", "@./.claude-global.md\nA\n");
	snprintf(dir, sizeof(dir), "%s/groups/a/.claude-global.md", root);
	if (symlink("/workspace/global/CLAUDE.md", dir) < 0)
		abort();
	snprintf(dir, sizeof(dir), "%s/groups/global", root);
	mkdir(dir, 0755);
	put(dir, "CLAUDE.md", "G\n");
	snprintf(dir, sizeof(dir), "%s/container", root);
	put(dir, "CLAUDE.md", "B\n");

	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root r;
	struct clawmd_migrate_result res;
	struct clawmd_migrate_opts opts = {.version = CLAWMD_MIGRATE_OPTS_VERSION, .dry_run = true};
	clawmd_root_init(&r);
	is(clawmd_root_load(&r, root, &err), 0, "api: layout loads");
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "api: dry run");
	ok(res.dry_run && !res.already, "api: a dry run, not yet migrated");
	is(res.ngroups, 1, "api: one group");
	is(res.n, 5, "api: link, move, append-base, archive, record");
	if (res.n == 5) {
		is(res.v[0].step, CLAWMD_MIGRATE_REMOVE_LINK, "api: the link first");
		is(res.v[1].step, CLAWMD_MIGRATE_MOVE, "api: then the move");
		is(res.v[1].bytes, 2, "api: 'A\\n' carried");
		is_str(res.v[1].dest, "groups/a/CLAUDE.local.md", "api: paths relative to ROOT");
		is(res.v[2].step, CLAWMD_MIGRATE_APPEND_BASE, "api: global into the base");
		is(res.v[3].step, CLAWMD_MIGRATE_ARCHIVE_DIR, "api: then archived");
		is(res.v[4].step, CLAWMD_MIGRATE_WRITE_RECORD, "api: the record last");
		ok(res.v[4].group == NULL, "api: the record belongs to no group");
	}
	clawmd_migrate_result_release(&res);
	snprintf(dir, sizeof(dir), "%s/groups/a/CLAUDE.md", root);
	ok(access(dir, F_OK) == 0, "api: the dry run moved nothing");

	opts.dry_run = false;
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "api: the run");
	clawmd_migrate_result_release(&res);
	ok(access(dir, F_OK) != 0, "api: CLAUDE.md carried away");
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "api: the second run");
	ok(res.already && res.n == 0, "api: the second run sees the record and does nothing");
	clawmd_migrate_result_release(&res);
	clawmd_migrate_result_release(NULL);
	clawmd_root_release(&r);
	rm_rf(root);
}

/* One bad group (issue 9, item 10): the others migrate, the call returns
 * 0 with the group in res.failed, the record lists it, the next call
 * retries only it; groups/global/CLAUDE.md of another type (item 13). */
static void api_partial(void)
{
	char root[] = "/tmp/clawmd-unit-migrate.XXXXXX";
	if (!mkdtemp(root))
		abort();
	char dir[4096];
	const char *dirs[] = {"container", "groups", "groups/bad", "groups/good", "groups/global"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", root, dirs[i]);
		mkdir(dir, 0755);
	}
	snprintf(dir, sizeof(dir), "%s/container", root);
	put(dir, "CLAUDE.md", "B\n");
	snprintf(dir, sizeof(dir), "%s/groups/good", root);
	put(dir, "CLAUDE.md", "good\n");
	snprintf(dir, sizeof(dir), "%s/groups/bad", root);
	put(dir, "CLAUDE.md", "bad\n");
	put(dir, "CLAUDE.local.md", "");
	snprintf(dir, sizeof(dir), "%s/groups/bad/CLAUDE.local.md", root);
	if (truncate(dir, (off_t)CLAWMD_MIGRATE_FILE_MAX + 1) < 0)
		abort();
	snprintf(dir, sizeof(dir), "%s/groups/global/CLAUDE.md", root);
	if (symlink("/etc/hostname", dir) < 0)
		abort();

	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root r;
	struct clawmd_migrate_result res;
	struct clawmd_migrate_opts opts = CLAWMD_MIGRATE_OPTS_INIT;
	clawmd_root_init(&r);
	is(clawmd_root_load(&r, root, &err), 0, "partial: layout loads");
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "partial: the run completes");
	is(res.nfailed, 1, "partial: one group failed");
	if (res.nfailed == 1)
		is_str(res.failed[0], "bad", "partial: the bad one");
	ok(!res.retry, "partial: a first run, not a retry");
	bool kept = false;
	for (size_t i = 0; i < res.n; i++)
		kept |= res.v[i].step == CLAWMD_MIGRATE_KEEP && res.v[i].path &&
			!strcmp(res.v[i].path, "groups/global/CLAUDE.md");
	ok(kept, "item 13: a symlinked global CLAUDE.md is kept, its path intact");
	clawmd_migrate_result_release(&res);
	snprintf(dir, sizeof(dir), "%s/groups/good/CLAUDE.local.md", root);
	ok(access(dir, F_OK) == 0, "partial: the good group migrated");
	snprintf(dir, sizeof(dir), "%s/.clawmd/migrated.json", root);
	size_t n;
	char *rec = test_slurp(dir, &n);
	ok(rec && strstr(rec, "\"failed\"") && strstr(rec, "\"bad\""), "partial: the record lists it");
	free(rec);

	is(clawmd_migrate(&res, &r, &opts, &err), 0, "partial: the next run");
	ok(!res.already && res.retry && res.ngroups == 1 && !strcmp(res.groups[0], "bad"),
	   "partial: it retries only the failed group");
	is(res.nfailed, 1, "partial: which fails again");
	clawmd_migrate_result_release(&res);

	snprintf(dir, sizeof(dir), "%s/groups/bad/CLAUDE.local.md", root);
	if (truncate(dir, 0) < 0)
		abort();
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "partial: fixed, the retry");
	is(res.nfailed, 0, "partial: nothing failed");
	clawmd_migrate_result_release(&res);
	is(clawmd_migrate(&res, &r, &opts, &err), 0, "partial: then");
	ok(res.already, "partial: nothing left to do");
	clawmd_migrate_result_release(&res);
	clawmd_root_release(&r);
	rm_rf(root);
}

static const struct {
	const char *in, *want, *name;
} carry_cases[] = {
	{"@./.claude-global.md\n\n# Persona\n", "# Persona\n", "leading import and its blank line"},
	{"@./.claude-global.md\n# Persona\n", "# Persona\n", "leading import"},
	{"# P\n@./.claude-global.md\nmore\n", "# P\nmore\n", "import in the middle"},
	{"# P\n\n@./.claude-global.md\n\nmore\n", "# P\n\n\nmore\n",
	 "blank lines around a middle import are kept"},
	{"  @./.claude-global.md \r\nx\n", "x\n", "blanks and CR around the import"},
	{"@.claude-global.md\nx\n", "x\n", "the form without ./"},
	{"@/workspace/agent/.claude-global.md\nx\n", "x\n", "the container path form"},
	{"@/elsewhere/.claude-global.md\nx\n", "@/elsewhere/.claude-global.md\nx\n",
	 "another directory's file is not the legacy import"},
	{"see @./.claude-global.md here\n", "see @./.claude-global.md here\n",
	 "an import inside a line is text, kept"},
	{"@./.claude-global.md.bak\n", "@./.claude-global.md.bak\n", "a longer name is kept"},
	{"@./.claude-global.md", "", "only the import, no newline"},
	{"", "", "empty"},
	{"x", "x", "no final newline stays without"},
	{"\n\nx\n", "\n\nx\n", "leading blank lines without an import are kept"},
};

static const struct {
	const char *global, *base, *want, *name;
} missing_cases[] = {
	{"# Base\n\nBe helpful.\n", "# Base\n\nBe helpful.\n", "", "identical"},
	{"Be helpful.\n", "# Base\n\nBe helpful.\n\nMore.\n", "", "one contained block"},
	{"Be helpful.  \r\n", "Be helpful.\n", "", "trailing blanks ignored"},
	{"\n\n\nBe helpful.\n\n\n", "Be helpful.\n", "", "blank-line runs ignored"},
	{"A\n\nB\n\nC\n", "B\n", "A\n\nC\n", "missing blocks in order, one blank line apart"},
	{"Be helpful\n", "Be helpful to all.\n", "Be helpful\n", "part of a line is not contained"},
	{"line one\nline two\n", "line one\nother\nline two\n", "line one\nline two\n",
	 "a block is contained only as a run of whole lines"},
	{"x\ny\n", "w\nx\ny\nz\n", "", "a run inside a longer block is contained"},
	{"new", "", "new\n", "an empty base; the result ends with a newline"},
	{"", "base\n", "", "an empty global"},
	{"  keep  two  \nspaces\n", "", "  keep  two  \nspaces\n", "carried bytes are the original"},
};

int main(void)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	for (size_t i = 0; i < sizeof(carry_cases) / sizeof(carry_cases[0]); i++) {
		const char *in = carry_cases[i].in;
		clawmd_entry_carry(&out, in, strlen(in), "/workspace/agent");
		is_str(out.ptr, carry_cases[i].want, "carry: %s", carry_cases[i].name);
	}
	clawmd_entry_carry(&out, "@/workspace/agent/.claude-global.md\n", 36, NULL);
	is_str(out.ptr, "@/workspace/agent/.claude-global.md\n",
	       "carry: without a container path, only the relative forms are dropped");

	for (size_t i = 0; i < sizeof(missing_cases) / sizeof(missing_cases[0]); i++) {
		const char *g = missing_cases[i].global, *b = missing_cases[i].base;
		clawmd_migrate_missing(&out, g, strlen(g), b, strlen(b));
		is_str(out.ptr, missing_cases[i].want, "missing: %s", missing_cases[i].name);
	}
	/* Appending the missing blocks makes everything contained: the property
	 * that keeps a rerun from appending twice. */
	for (size_t i = 0; i < sizeof(missing_cases) / sizeof(missing_cases[0]); i++) {
		const char *g = missing_cases[i].global;
		struct clawmd_buf base = CLAWMD_BUF_INIT, again = CLAWMD_BUF_INIT;
		clawmd_buf_puts(&base, missing_cases[i].base);
		clawmd_migrate_missing(&out, g, strlen(g), base.ptr, base.len);
		clawmd_buf_puts(&base, "\n<!-- marker -->\n");
		clawmd_buf_put(&base, out.ptr, out.len);
		clawmd_migrate_missing(&again, g, strlen(g), base.ptr, base.len);
		is_str(again.ptr, "", "missing after appending is empty: %s", missing_cases[i].name);
		clawmd_buf_release(&base);
		clawmd_buf_release(&again);
	}

	is_str(clawmd_migrate_step_name(CLAWMD_MIGRATE_MOVE), "move", "step names");
	is_str(clawmd_migrate_step_name(CLAWMD_MIGRATE_ERROR), "error", "the error step name");
	is_str(clawmd_migrate_step_name(CLAWMD_MIGRATE_REVIEW_BASE), "review-base", "the last step name");
	is_str(clawmd_migrate_step_name((enum clawmd_migrate_step)99), "unknown", "out of range");
	clawmd_buf_release(&out);
	api_run();
	api_partial();
	return done_testing();
}
