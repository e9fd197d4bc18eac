/*
 * Unit tests for a watched pass (clawmd_pass_watch(), lib/compose/watch.c): every
 * kind of edit a no-op rests on must be seen, the agent's own files in its
 * group must not be, and the real compose must converge after each edit.
 *
 * Whether a compose was decided from the events alone is told by holding
 * the group's lock: only the memo answers without taking it.
 */
#include "tap.h"
#include "testutil.h"
#include "watchdir.h"
#include "clawmd.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[600];
static struct clawmd_layout lay;
static struct clawmd_pass *pass;

static char *path_of(const char *rel)
{
	static char p[2][1024];
	static int k;
	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", root, rel);
	return p[k];
}

static void put(const char *rel, const char *content)
{
	test_put(root, rel, content);
}

/* Rewrite a file in place: same inode, as an editor that does not rename. */
static void put_in_place(const char *rel, const char *content)
{
	int fd = open(path_of(rel), O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, content, strlen(content)) < 0 || close(fd) < 0)
		abort();
}

static char *slurp(const char *rel)
{
	size_t len;
	char *s = test_slurp(path_of(rel), &len);
	return s ? s : strdup("");
}

/* Compose `group` of a root made of the test's layout (shared, not copied
 * deeply: the layout stays the test's to release) and its watched pass. */
static int compose_in(const struct clawmd_layout *l, const char *group, struct clawmd_plan *plan,
		      struct clawmd_changes *ch, struct clawmd_err *err)
{
	struct clawmd_root r = {*l, pass};
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	struct clawmd_group *g;
	if (clawmd_group_open(&g, &r, group, err) < 0)
		abort();
	int rc = clawmd_compose(plan, ch, g, &opts, err);
	clawmd_group_free(g);
	return rc;
}

static int compose(const struct clawmd_layout *l, const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	int rc = compose_in(l, group, &plan, &ch, &err);
	if (rc < 0)
		printf("# compose: %s\n", err.msg);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	return rc;
}

/* Answered from the events alone: the compose succeeds while we hold the
 * group's lock (any look at the disk would wait for it and time out). */
static bool known(struct clawmd_layout *l, const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root r = {*l, pass};
	struct clawmd_group *held;
	if (clawmd_group_open(&held, &r, group, &err) < 0 || clawmd_group_lock(held, &err) < 0)
		abort();
	double t = l->lock_timeout;
	l->lock_timeout = 0;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	int rc = compose_in(l, group, &plan, &ch, &err);
	bool quiet = rc == 0 && ch.n == 0 && plan.n == 0;
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	l->lock_timeout = t;
	clawmd_group_free(held);
	return quiet;
}

/* Compose until the group is known (the record is only written for inputs
 * older than the compose, so give them a moment to age). */
static bool settle(struct clawmd_layout *l, const char *group)
{
	for (int i = 0; i < 60; i++) {
		if (compose(l, group) < 0)
			return false;
		usleep(15000);
		if (known(l, group))
			return true;
	}
	return false;
}

static bool contains(const char *rel, const char *needle)
{
	char *s = slurp(rel);
	bool r = strstr(s, needle) != NULL;
	free(s);
	return r;
}

static bool same_file(const char *a, const char *b)
{
	char *x = slurp(a), *y = slurp(b);
	bool r = !strcmp(x, y);
	free(x);
	free(y);
	return r;
}

static void load(struct clawmd_layout *l, const char *mode)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_layout_init(l);
	if (clawmd_layout_load(l, root, &err) < 0 || clawmd_layout_set(l, "modules", "modules", &err) < 0 ||
	    (mode && clawmd_layout_set(l, "mode", mode, &err) < 0)) {
		printf("# %s\n", err.msg);
		abort();
	}
}

#define EDIT(what, action, converged)                                                              \
	do {                                                                                       \
		ok(known(&lay, "g"), "known before: %s", what);                                    \
		action;                                                                            \
		ok(!known(&lay, "g"), "seen: %s", what);                                           \
		ok(settle(&lay, "g"), "known again after: %s", what);                              \
		ok(converged, "converged after: %s", what);                                        \
	} while (0)

static void test_copy_mode(void)
{
	put("clawmd.json", "{\"mode\": \"copy\"}\n");
	put("container/CLAUDE.md", "base\n");
	put("skills/a/instructions.md", "A\n");
	put("skills/b/instructions.md", "B\n");
	put("modules/cli.instructions.md", "cli\n");
	put("groups/g/container.json",
	    "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"instructions\": \"S\"}}}\n");
	load(&lay, NULL);
	pass = clawmd_pass_watch();

	ok(settle(&lay, "g"), "a composed group becomes known");
	ok(known(&lay, "g"), "and stays known with nothing changed");

	/* The agent's own files in its group are none of compose's business. */
	put("groups/g/notes.md", "my notes\n");
	put("groups/g/work/deep/x.txt", "x\n");
	rename(path_of("groups/g/notes.md"), path_of("groups/g/notes2.md"));
	ok(known(&lay, "g"), "the agent's own files in the group do not count");

	EDIT("in-place edit of a copy", put_in_place("groups/g/.claude-fragments/skill-a.md", "evil\n"),
	     same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"));
	EDIT("in-place edit of CLAUDE.md", put_in_place("groups/g/CLAUDE.md", "hand edit\n"),
	     contains("groups/g/CLAUDE.md", "Composed at spawn"));
	EDIT("in-place edit of container.json",
	     put_in_place("groups/g/container.json",
			  "{\"mcpServers\": {\"t\": {\"command\": \"x\", \"instructions\": \"T\"}}}\n"),
	     contains("groups/g/.claude-fragments/mcp-t.md", "T") &&
		     access(path_of("groups/g/.claude-fragments/mcp-s.md"), F_OK) < 0);
	EDIT("in-place edit of a skill source", put_in_place("skills/b/instructions.md", "B2\n"),
	     same_file("groups/g/.claude-fragments/skill-b.md", "skills/b/instructions.md"));
	EDIT("in-place edit of a module source", put_in_place("modules/cli.instructions.md", "cli2\n"),
	     same_file("groups/g/.claude-fragments/module-cli.md", "modules/cli.instructions.md"));
	EDIT("in-place edit of the shared base", put_in_place("container/CLAUDE.md", "base2\n"),
	     same_file("groups/g/.claude-shared.md", "container/CLAUDE.md"));
	EDIT("creating CLAUDE.role.md", put("groups/g/CLAUDE.role.md", "role\n"),
	     contains("groups/g/CLAUDE.md", "@./CLAUDE.role.md"));
	EDIT("removing CLAUDE.role.md", unlink(path_of("groups/g/CLAUDE.role.md")),
	     !contains("groups/g/CLAUDE.md", "@./CLAUDE.role.md"));
	EDIT("a stray fragment", put("groups/g/.claude-fragments/skill-zzz.md", "stray\n"),
	     access(path_of("groups/g/.claude-fragments/skill-zzz.md"), F_OK) < 0);
	EDIT("deleting a copy", unlink(path_of("groups/g/.claude-fragments/skill-a.md")),
	     same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"));
	EDIT("renaming a copy",
	     rename(path_of("groups/g/.claude-fragments/skill-a.md"), path_of("groups/g/a.md")),
	     same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"));
	EDIT("chmod of a copy", chmod(path_of("groups/g/.claude-fragments/skill-b.md"), 0600), true);
	EDIT("chmod of a skill source", chmod(path_of("skills/a/instructions.md"), 0600), true);
	EDIT("a new skill", put("skills/c/instructions.md", "C\n"),
	     same_file("groups/g/.claude-fragments/skill-c.md", "skills/c/instructions.md"));
	EDIT("a skill removed", unlink(path_of("skills/c/instructions.md")),
	     access(path_of("groups/g/.claude-fragments/skill-c.md"), F_OK) < 0);
	EDIT("a source replaced by rename",
	     (put("skills/a/new.md", "A2\n"),
	      rename(path_of("skills/a/new.md"), path_of("skills/a/instructions.md"))),
	     same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"));
	/* A write through a hard link in another directory: only the inode's
	 * own watch sees it (the agent can link its files anywhere in its group). */
	put("groups/g/sub/keep", "");
	ok(settle(&lay, "g"), "known after the agent made a directory");
	EDIT("a write through a hard link elsewhere",
	     (test_must(link(path_of("groups/g/container.json"), path_of("groups/g/sub/cj")), "link"),
	      put_in_place("groups/g/sub/cj", "{\"skills\": [\"a\"]}\n")),
	     access(path_of("groups/g/.claude-fragments/skill-b.md"), F_OK) < 0);
	EDIT("the fragments directory replaced",
	     rename(path_of("groups/g/.claude-fragments"), path_of("groups/g/old-fragments")),
	     same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"));
	EDIT("the group directory replaced",
	     (rename(path_of("groups/g"), path_of("groups/g-old")),
	      put("groups/g/container.json", "{\"skills\": [\"b\"]}\n")),
	     same_file("groups/g/.claude-fragments/skill-b.md", "skills/b/instructions.md") &&
		     access(path_of("groups/g/.claude-fragments/skill-a.md"), F_OK) < 0);
	EDIT("the skills directory replaced",
	     (rename(path_of("skills"), path_of("skills-old")), put("skills/b/instructions.md", "B3\n")),
	     same_file("groups/g/.claude-fragments/skill-b.md", "skills/b/instructions.md"));

	/* clawmd.json edited and the layout reloaded: another layout is
	 * another record, whatever the events say. */
	ok(known(&lay, "g"), "known before clawmd.json changes");
	put("clawmd.json", "{\"mode\": \"copy\", \"import_local\": true}\n");
	struct clawmd_layout lay2;
	load(&lay2, NULL);
	ok(!known(&lay2, "g"), "seen: clawmd.json edited and reloaded");
	ok(settle(&lay2, "g") && contains("groups/g/CLAUDE.md", "@./CLAUDE.local.md"),
	   "converged under the new layout");
	clawmd_layout_release(&lay2);

	/* Two groups: an edit in one leaves the other known. */
	put("groups/h/container.json", "{}\n");
	ok(settle(&lay, "h") && settle(&lay, "g"), "a second group becomes known");
	put_in_place("groups/h/container.json", "{\"skills\": [\"b\"]}\n");
	ok(!known(&lay, "h") && known(&lay, "g"), "an edit in one group leaves the other known");
	put_in_place("skills/b/instructions.md", "B4\n");
	ok(!known(&lay, "g"), "a source edit forgets every group");

	clawmd_pass_free(pass);
	pass = NULL;
	clawmd_layout_release(&lay);
}

/* A source reached through a symlink below ROOT is never memoized (its
 * target's parents are not watched), and symlink mode is memoized too. */
static void test_symlink_mode(void)
{
	put("clawmd.json", "{\"mode\": \"symlink\", \"approve_external\": true}\n");
	put("skills/a/instructions.md", "A\n");
	put("groups/s/container.json", "{\"skills\": [\"a\", \"b\"]}\n");
	load(&lay, NULL);
	pass = clawmd_pass_watch();
	ok(settle(&lay, "s"), "symlink mode: known");
	ok(known(&lay, "s"), "symlink mode: known before removing a source");
	unlink(path_of("skills/a/instructions.md"));
	ok(!known(&lay, "s"), "symlink mode: a removed source is seen");
	ok(settle(&lay, "s") &&
		   access(path_of("groups/s/.claude-fragments/skill-a.md"), F_OK) < 0 &&
		   !(faccessat(AT_FDCWD, path_of("groups/s/.claude-fragments/skill-a.md"), F_OK,
			       AT_SYMLINK_NOFOLLOW) == 0),
	   "symlink mode: converged");
	put("elsewhere/a.md", "A\n");
	if (symlink(path_of("elsewhere/a.md"), path_of("skills/a/instructions.md")) < 0)
		abort();
	ok(!known(&lay, "s"), "a symlinked source appearing is seen");
	for (int i = 0; i < 10; i++) {
		compose(&lay, "s");
		usleep(15000);
	}
	ok(!known(&lay, "s"), "a source reached through a symlink is not memoized");
	clawmd_pass_free(pass);
	pass = NULL;
	clawmd_layout_release(&lay);
}

/* Skills kept outside ROOT (a layout directory elsewhere): the directories
 * between it and a deep import of a copied fragment are watched too, so a
 * directory swapped two levels below the skill is seen. */
static void test_outside_root(void)
{
	char cfg[700];
	snprintf(cfg, sizeof(cfg), "{\"mode\": \"copy\", \"skills\": \"%s-skills\"}\n", root);
	put("clawmd.json", cfg);
	put("container/CLAUDE.md", "base\n");
	put("groups/o/container.json", "{\"skills\": [\"rel\"]}\n");
	char skills[620];
	snprintf(skills, sizeof(skills), "%s-skills", root);
	test_put(skills, "rel/instructions.md", "Rel.\n@./x/y/z.md\n");
	test_put(skills, "rel/x/y/z.md", "deep one\n");
	load(&lay, NULL);
	pass = clawmd_pass_watch();
	ok(settle(&lay, "o"), "outside ROOT: known");
	ok(contains("groups/o/.claude-fragments/skill-rel/x/y/z.md", "deep one"), "outside ROOT: copied");
	char a[700], b[700];
	snprintf(a, sizeof(a), "%s/rel/x", skills);
	snprintf(b, sizeof(b), "%s/rel/x.old", skills);
	if (rename(a, b) < 0)
		abort();
	test_put(skills, "rel/x/y/z.md", "deep two\n");
	ok(!known(&lay, "o"), "outside ROOT: a directory swapped below the skill is seen");
	ok(settle(&lay, "o") && contains("groups/o/.claude-fragments/skill-rel/x/y/z.md", "deep two"),
	   "outside ROOT: converged");
	clawmd_pass_free(pass);
	pass = NULL;
	clawmd_layout_release(&lay);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", skills);
	if (system(cmd) != 0)
		abort();
}

/* The group files clawmd.json names (optional_imports) and the persona
 * files (*.prepend.md): each created, edited, renamed or removed is seen,
 * though the agent's other files in the group still are not. */
static void test_optional_and_persona(void)
{
	put("clawmd.json", "{\"mode\": \"copy\", \"persona\": true, "
			   "\"optional_imports\": [\"facts.md\", \"CLAUDE.role.md\", \"tasks.md\"]}\n");
	put("groups/g/container.json", "{}\n");
	load(&lay, NULL);
	pass = clawmd_pass_watch();
	ok(settle(&lay, "g"), "optional imports: a composed group becomes known");
	put("groups/g/notes.md", "my notes\n");
	put("groups/g/notes.prepend.txt", "not a persona file\n");
	ok(known(&lay, "g"), "optional imports: the agent's other files do not count");

	EDIT("creating tasks.md", put("groups/g/tasks.md", "open tasks\n"),
	     contains("groups/g/CLAUDE.md", "@./tasks.md"));
	EDIT("creating facts.md", put("groups/g/facts.md", "standing facts\n"),
	     contains("groups/g/CLAUDE.md", "@./facts.md\n@./tasks.md\n"));
	EDIT("removing facts.md", unlink(path_of("groups/g/facts.md")),
	     !contains("groups/g/CLAUDE.md", "@./facts.md"));
	EDIT("creating instructions.prepend.md", put("groups/g/instructions.prepend.md", "You are Kai.\n"),
	     contains("groups/g/.claude-fragments/persona.md", "You are Kai.") &&
		     contains("groups/g/CLAUDE.md", "-->\n@./.claude-fragments/persona.md\n@./.claude-shared.md\n"));
	EDIT("in-place edit of instructions.prepend.md",
	     put_in_place("groups/g/instructions.prepend.md", "You are Lea.\n"),
	     contains("groups/g/.claude-fragments/persona.md", "You are Lea."));
	EDIT("a sibling persona file created", put("groups/g/tone.prepend.md", "Be dry.\n"),
	     contains("groups/g/.claude-fragments/persona.md", "You are Lea.\n\nBe dry.\n"));
	EDIT("a sibling persona file renamed away",
	     rename(path_of("groups/g/tone.prepend.md"), path_of("groups/g/tone.md")),
	     !contains("groups/g/.claude-fragments/persona.md", "Be dry."));
	EDIT("a persona file renamed in",
	     rename(path_of("groups/g/tone.md"), path_of("groups/g/a.prepend.md")),
	     contains("groups/g/.claude-fragments/persona.md", "You are Lea.\n\nBe dry.\n"));
	EDIT("the persona fragment deleted", unlink(path_of("groups/g/.claude-fragments/persona.md")),
	     contains("groups/g/.claude-fragments/persona.md", "You are Lea."));
	EDIT("every persona file removed",
	     (unlink(path_of("groups/g/instructions.prepend.md")), unlink(path_of("groups/g/a.prepend.md"))),
	     access(path_of("groups/g/.claude-fragments/persona.md"), F_OK) < 0 &&
		     !contains("groups/g/CLAUDE.md", "persona"));

	clawmd_pass_free(pass);
	pass = NULL;
	clawmd_layout_release(&lay);
	unlink(path_of("groups/g/notes.md"));
	unlink(path_of("groups/g/notes.prepend.txt"));
	unlink(path_of("groups/g/tasks.md"));
	put("clawmd.json", "{\"mode\": \"copy\"}\n");
}

/* On overlayfs (/tmp in a Docker or CI container) the watch trusts no
 * event, by design: a write to a layer directly makes none on the merged
 * inode.  A group there is never answered from the events, and every edit
 * is still seen, by stats at every call (doc/compose.md).  On an overlayfs
 * the test finds, else on one it mounts in a private mount namespace. */
static void test_overlayfs(void)
{
	char dir[600], trusted[600];
	memcpy(trusted, root, sizeof(root));
	if (!watchdir_overlay(dir, sizeof(dir), trusted)) {
		for (int i = 0; i < 4; i++)
			ok(1, "# SKIP overlayfs: %s", dir);
		return;
	}
	bool mounted = strncmp(dir, trusted, strlen(trusted)) == 0;
	memcpy(root, dir, sizeof(root));
	put("clawmd.json", "{\"mode\": \"copy\"}\n");
	put("container/CLAUDE.md", "base\n");
	put("skills/a/instructions.md", "A\n");
	put("skills/b/instructions.md", "B\n");
	put("groups/g/container.json", "{\"skills\": [\"a\"]}\n");
	struct clawmd_layout ol;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	clawmd_layout_init(&ol);
	if (clawmd_layout_load(&ol, root, &err) < 0) {
		printf("# %s\n", err.msg);
		abort();
	}
	pass = clawmd_pass_watch();
	printf("# overlayfs at %s%s\n", root, mounted ? " (mounted by the test)" : "");
	ok(!settle(&ol, "g"), "overlayfs: a composed group is never answered from the events");
	ok(contains("groups/g/CLAUDE.md", "skill-a.md") &&
		   same_file("groups/g/.claude-fragments/skill-a.md", "skills/a/instructions.md"),
	   "overlayfs: composed all the same");
	put_in_place("groups/g/container.json", "{\"skills\": [\"b\"]}\n");
	ok(compose(&ol, "g") == 0 && contains("groups/g/CLAUDE.md", "skill-b.md") &&
		   !contains("groups/g/CLAUDE.md", "skill-a.md"),
	   "overlayfs: an edit of container.json is seen, by stats");
	put_in_place("skills/b/instructions.md", "B2\n");
	ok(compose(&ol, "g") == 0 && same_file("groups/g/.claude-fragments/skill-b.md", "skills/b/instructions.md"),
	   "overlayfs: an edit of a skill source is seen, by stats");
	clawmd_pass_free(pass);
	pass = NULL;
	clawmd_layout_release(&ol);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (mounted)
		umount2(root, MNT_DETACH);
	else if (system(cmd) != 0)
		abort();
	memcpy(root, trusted, sizeof(root));
}

int main(void)
{
	/* A trusted filesystem, whatever TMPDIR and /tmp are (tests/watchdir.h). */
	watchdir_trusted(root, sizeof(root), "clawmd-watch");
	test_copy_mode();
	test_optional_and_persona();
	test_symlink_mode();
	test_outside_root();
	test_overlayfs();
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
