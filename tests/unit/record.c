/*
 * Unit tests for the no-op record (lib/compose/record.c) and the inputs it
 * rests on (lib/fs/inputs.c): a record vouches only for what the plan that
 * made it read, as it read it.
 *
 * The stale config: a handle reads container.json (clawmd_group_runtimes()),
 * the agent edits it, then clawmd_compose() on the same handle.  Before the
 * plan recorded its inputs, that compose planned from the old text, found
 * nothing to do, and recorded the new file's identity: every later compose
 * was a no-op that never applied the edit, while a dry run saw it.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* compose `g` (a fresh handle when g is NULL): the number of changes, or
 * -1 on an error. */
static long compose(const struct clawmd_root *r, struct clawmd_group *g, bool dry_run)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION, .dry_run = dry_run};
	bool mine = !g;
	if (mine && clawmd_group_open(&g, r, "g", &err) < 0)
		abort();
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	if (mine)
		clawmd_group_free(g);
	if (rc < 0)
		printf("# compose: %s\n", err.msg);
	long n = rc < 0 ? -1 : (long)ch.n;
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	return n;
}

static bool exists(const char *rel)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return lstat(p, &st) == 0;
}

/* Out of the racy window (fs/stamp.h: 10 ms where times have nanoseconds). */
static void age(void)
{
	usleep(60000);
}

static void stale_config(const struct clawmd_root *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group *g;
	clawmd_runtimes set;
	enum clawmd_runtime first;

	test_put(root, "groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	age();
	ok(compose(r, NULL, false) > 0, "stale config: the first compose writes the group");
	age();
	is(compose(r, NULL, false), 0, "... a no-op, which records");
	is(compose(r, NULL, false), 0, "... a no-op from the record");

	if (clawmd_group_open(&g, r, "g", &err) < 0 ||
	    clawmd_group_runtimes(&set, &first, g, &err) < 0)
		abort();
	test_put(root, "groups/g/container.json", "{\"skills\": [\"a\", \"b\"]}\n");
	age();
	ok(compose(r, g, false) > 0, "a handle that read container.json before an edit composes the edit");
	ok(exists("groups/g/.claude-fragments/skill-b.md"), "... skill b is there");
	clawmd_group_free(g);
	is(compose(r, NULL, true), 0, "... a dry run then finds nothing to do");
	age();
	is(compose(r, NULL, false), 0, "... and a compose nothing either");

	/* The other way round: the edit is taken back; every compose that
	 * follows still agrees with a dry run. */
	if (clawmd_group_open(&g, r, "g", &err) < 0 ||
	    clawmd_group_runtimes(&set, &first, g, &err) < 0)
		abort();
	test_put(root, "groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	age();
	long n = compose(r, g, false);
	clawmd_group_free(g);
	ok(n > 0, "the edit taken back through a handle that had read it: composed");
	ok(!exists("groups/g/.claude-fragments/skill-b.md"), "... skill b is gone");
	for (int i = 0; i < 3; i++) {
		age();
		is(compose(r, NULL, false), 0, "... a later compose: nothing to do");
		is(compose(r, NULL, true), 0, "... nor for a dry run");
	}
}

int main(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-record.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	test_put(root, "container/CLAUDE.md", "# base\n");
	test_put(root, "skills/a/instructions.md", "skill a\n");
	test_put(root, "skills/b/instructions.md", "skill b\n");
	struct clawmd_root r;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0)
		abort();

	stale_config(&r);

	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
