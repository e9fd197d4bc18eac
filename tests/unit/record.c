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
#include "fs/inputs.h"
#include "group/group.h" /* CLAWMD_LOCK_RECORD_AT */

#include <fcntl.h>
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

static struct stat stat_of(const char *rel)
{
	char p[600];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (lstat(p, &st) != 0)
		abort();
	return st;
}

/* The recorder (fs/inputs.h): one fact a place, two answers lose it,
 * content outweighs type, what a listing implies is left out, and nothing
 * changed within the racy window is vouched for. */
static void test_recorder(void)
{
	struct clawmd_inputs in;
	struct stat a = stat_of("skills/a/instructions.md"), d = stat_of("skills/a");
	struct stat dir = stat_of("skills"), t;
	char path[600], skills[600];
	snprintf(skills, sizeof(skills), "%s/skills", root);
	snprintf(path, sizeof(path), "%s/skills/a/instructions.md", root);
	age();

	clawmd_inputs_init(&in);
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, path, &a);
	ok(in.n == 0, "nothing is noted before a compose starts the recording");
	clawmd_inputs_start(&in);
	clawmd_inputs_note_in(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST_NOFOLLOW, skills, "a", &d);
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, skills, &dir);
	ok(clawmd_inputs_settle(&in) && in.n == 2,
	   "a type looked at before its directory's listing is kept (a change between shows nowhere else)");
	clawmd_inputs_start(&in);
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, skills, &dir);
	clawmd_inputs_note(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, path, &a);
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST_NOFOLLOW, path, &a);
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, path, &a);
	clawmd_inputs_note_in(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST_NOFOLLOW, skills, "a", &d);
	ok(clawmd_inputs_settle(&in), "settled: nothing changed, nothing recent");
	is(in.n, 2, "... one fact a place; the skill's type, looked at after the listing, is implied by it");
	ok(in.n == 2 && in.v[1].kind == CLAWMD_INPUT_CONTENT && in.v[1].at == CLAWMD_AT_HOST_NOFOLLOW,
	   "... the content, looked at without following, kept");

	struct clawmd_input_dirs dirs;
	struct clawmd_ident now;
	clawmd_input_dirs_init(&dirs, AT_FDCWD);
	ok(in.n == 2 && clawmd_input_look(&now, &in.v[1], &dirs) == 0 && clawmd_input_same(&in.v[1], &now),
	   "looked at again: the same");
	test_put(root, "skills/a/instructions.md", "skill a, edited\n");
	ok(in.n == 2 && clawmd_input_look(&now, &in.v[1], &dirs) == 0 && !clawmd_input_same(&in.v[1], &now),
	   "edited in place: not the same");
	clawmd_input_dirs_release(&dirs);

	/* Two looks, two answers. */
	clawmd_inputs_start(&in);
	t = a;
	t.st_mode = S_IFDIR | 0755;
	clawmd_inputs_note(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, path, &a);
	clawmd_inputs_note(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, path, &t);
	ok(!clawmd_inputs_settle(&in) && in.lost, "a file, then a directory: the recording is lost");

	/* Just changed: racy. */
	clawmd_inputs_start(&in);
	a = stat_of("skills/a/instructions.md");
	clawmd_inputs_note(&in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, path, &a);
	ok(!clawmd_inputs_settle(&in), "a content changed just now is not vouched for");
	clawmd_inputs_start(&in);
	clawmd_inputs_note(&in, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, path, &a);
	ok(clawmd_inputs_settle(&in), "... its type is (a type is what was seen)");
	clawmd_inputs_start(&in);
	clawmd_inputs_lose(&in);
	ok(!clawmd_inputs_settle(&in), "a lost recording never settles");
	clawmd_inputs_release(&in);

	/* The names by suffix: the same set in any order, another set not. */
	char **names;
	size_t n;
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	test_put(root, "b.prepend.md", "b\n");
	test_put(root, "a.prepend.md", "a\n");
	clawmd_inputs_start(&in);
	ok(clawmd_inputs_list(&names, &n, &in, fd, CLAWMD_AT_GROUP, ".", ".prepend.md") == 0 && n == 2,
	   "the names by suffix: 2");
	clawmd_strv_free(names, n);
	clawmd_input_dirs_init(&dirs, fd);
	ok(in.n == 1 && clawmd_input_look(&now, &in.v[0], &dirs) == 0 && clawmd_input_same(&in.v[0], &now),
	   "... listed again: the same");
	test_put(root, "c.prepend.md", "c\n");
	ok(clawmd_input_look(&now, &in.v[0], &dirs) == 0 && !clawmd_input_same(&in.v[0], &now),
	   "... one more: not the same");
	clawmd_input_dirs_release(&dirs);
	clawmd_inputs_release(&in);
	close(fd);
}

/* A torn record is no record: the next compose is a full one. */
static void test_torn(const struct clawmd_root *r)
{
	char lock[600];
	age();
	is(compose(r, NULL, false) >= 0, 1, "torn: a compose");
	age();
	is(compose(r, NULL, false), 0, "... a no-op, which records");
	snprintf(lock, sizeof(lock), "%s/.clawmd/locks/g", root);
	int fd = open(lock, O_RDWR);
	char byte;
	ok(fd >= 0 && pread(fd, &byte, 1, CLAWMD_LOCK_RECORD_AT + 40) == 1, "... the record is there");
	byte ^= 1;
	ok(pwrite(fd, &byte, 1, CLAWMD_LOCK_RECORD_AT + 40) == 1, "... one byte of it flipped");
	close(fd);
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = {.version = CLAWMD_COMPOSE_OPTS_VERSION, .record_only = true};
	struct clawmd_group *g;
	if (clawmd_group_open(&g, r, "g", &err) < 0)
		abort();
	is(clawmd_compose(&plan, &ch, g, &opts, &err), 1, "... vouches for nothing (record_only: 1)");
	clawmd_group_free(g);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	is(compose(r, NULL, false), 0, "... the full compose finds nothing to do, and records again");
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
	test_recorder();
	test_torn(&r);

	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
