/*
 * Unit tests for the comparison and the apply (lib/compose/changes.c): what
 * a plan against a group gives, each phase of the apply (stage, move
 * aside, fragments, entries, removals and CLAUDE.local.md), and the
 * arrays that own their capacity.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];
static struct clawmd_root r;

/* Plan and compare group g: the changes as "ACTION name" lines. */
struct outcome {
	struct clawmd_group *g;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	char text[4096];
};

static const char *action(enum clawmd_action a)
{
	static const char *const names[] = {"WRITE", "REMOVE", "PRESERVE", "MKDIR", "CREATE_LOCAL"};
	return names[a];
}

static void compute(struct outcome *o)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (clawmd_group_open(&o->g, &r, "g", &err) < 0 || clawmd_plan_build(&o->plan, o->g, &err) < 0 ||
	    clawmd_changes_compute(&o->ch, o->g, &o->plan, &err) < 0) {
		printf("# compute: %s\n", err.msg);
		abort();
	}
	o->text[0] = '\0';
	for (size_t i = 0; i < o->ch.n; i++)
		snprintf(o->text + strlen(o->text), sizeof(o->text) - strlen(o->text), "%s %s\n",
			 action(o->ch.v[i].action), o->ch.v[i].name);
}

static int apply(struct outcome *o)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	int rc = clawmd_changes_apply(&o->ch, o->g, &err);
	if (rc < 0)
		printf("# apply: %s\n", err.msg);
	return rc;
}

static void done(struct outcome *o)
{
	clawmd_changes_release(&o->ch);
	clawmd_plan_release(&o->plan);
	clawmd_group_free(o->g);
}

/* Compute, apply, and compute again: nothing left to do. */
static void converge(const char *what)
{
	struct outcome o;
	compute(&o);
	is(apply(&o), 0, "%s: applied", what);
	done(&o);
	compute(&o);
	is_str(o.text, "", "%s: nothing left to do", what);
	done(&o);
}

static char *slurp(const char *rel)
{
	char p[600];
	size_t n;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return test_slurp(p, &n);
}

static bool is_type(const char *rel, mode_t type)
{
	char p[600];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return lstat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

static void test_fresh(void)
{
	struct outcome o;
	compute(&o);
	is_str(o.text,
	       "MKDIR .claude-fragments\n"
	       "WRITE .claude-fragments/shared.md\n"
	       "WRITE .claude-fragments/skill-a.md\n"
	       "WRITE CLAUDE.md\n"
	       "CREATE_LOCAL CLAUDE.local.md\n",
	       "a fresh group: the directory, every entry, the memory");
	ok(clawmd_changes_drift(&o.ch), "... is drift");
	ok(o.ch.cap >= o.ch.n && o.plan.cap >= o.plan.n, "the arrays own their room (cap >= n)");
	done(&o);
	converge("a fresh group");
	ok(is_type("groups/g/.claude-fragments", S_IFDIR), "... the fragments directory made");
	ok(is_type("groups/g/CLAUDE.local.md", S_IFREG), "... the memory made");
}

static void test_memory_only(void)
{
	struct outcome o;
	char p[600];
	snprintf(p, sizeof(p), "%s/groups/g/CLAUDE.local.md", root);
	unlink(p);
	compute(&o);
	is_str(o.text, "CREATE_LOCAL CLAUDE.local.md\n", "no memory: only that");
	ok(!clawmd_changes_drift(&o.ch), "... which is no drift (a fresh clone lacks it)");
	done(&o);
	converge("the memory made again");
}

static void test_hand_written(void)
{
	struct outcome o;
	test_put(root, "groups/g/CLAUDE.md", "# Notes by hand\nremember this\n");
	compute(&o);
	is_str(o.text, "PRESERVE CLAUDE.md\nWRITE CLAUDE.md\n",
	       "a hand-written CLAUDE.md: kept, then written");
	ok(o.ch.v[0].into_local, "... carried into the empty CLAUDE.local.md");
	is(apply(&o), 0, "... applied");
	is_str(o.ch.v[0].moved_to, "CLAUDE.local.md", "... said where it went");
	done(&o);
	char *local = slurp("groups/g/CLAUDE.local.md");
	ok(local && strstr(local, "remember this"), "... its text is in CLAUDE.local.md");
	free(local);
	converge("after the carry");
}

static void test_stale_and_planted(void)
{
	struct outcome o;
	test_put(root, "groups/g/.claude-fragments/skill-gone.md", "old\n");
	compute(&o);
	is_str(o.text, "REMOVE .claude-fragments/skill-gone.md\n", "a stale fragment: removed");
	is(apply(&o), 0, "... applied");
	done(&o);
	ok(!is_type("groups/g/.claude-fragments/skill-gone.md", S_IFREG), "... gone");

	/* The agent's symlink where the fragments directory belongs. */
	char cmd[1400];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/groups/g' && mv .claude-fragments elsewhere && ln -s elsewhere .claude-fragments",
		 root);
	if (system(cmd) != 0)
		abort();
	compute(&o);
	ok(strstr(o.text, "PRESERVE .claude-fragments\nMKDIR .claude-fragments\n") == o.text,
	   "a symlink at .claude-fragments: moved aside, a directory made");
	is(apply(&o), 0, "... applied");
	ok(o.ch.v[0].moved_to && strstr(o.ch.v[0].moved_to, "clawmd-preserved"),
	   "... said where it went: %s", o.ch.v[0].moved_to ? o.ch.v[0].moved_to : "(nowhere)");
	done(&o);
	ok(is_type("groups/g/.claude-fragments", S_IFDIR), "... a real directory now");
	converge("after the planted symlink");
}

static void test_many(void)
{
	char rel[64];
	for (int i = 0; i < 40; i++) {
		snprintf(rel, sizeof(rel), "skills/s%02d/instructions.md", i);
		test_put(root, rel, "many\n");
	}
	struct outcome o;
	compute(&o);
	ok(o.ch.n >= 40 && o.ch.cap >= o.ch.n, "40 new fragments: %zu changes, room for %zu",
	   o.ch.n, o.ch.cap);
	ok(o.plan.n > 40 && o.plan.cap >= o.plan.n, "... a plan of %zu entries, room for %zu",
	   o.plan.n, o.plan.cap);
	done(&o);
	converge("forty skills");
}

int main(void)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	snprintf(root, sizeof(root), "%s/clawmd-changes.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	test_put(root, "container/CLAUDE.md", "# base\n");
	test_put(root, "skills/a/instructions.md", "skill a\n");
	test_put(root, "groups/g/container.json", "{}\n");
	test_put(root, "clawmd.json", "{\"mode\": \"symlink\", \"approve_external\": true}\n");
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0)
		abort();
	test_fresh();
	test_memory_only();
	test_hand_written();
	test_stale_and_planted();
	test_many();
	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
