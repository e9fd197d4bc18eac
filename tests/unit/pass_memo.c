/*
 * What a watched pass remembers of the host's sources (lib/compose/pass.c):
 * a source's bytes, used again for another group only after a stat finds
 * the file as it was.  In both layouts (imports in copy mode, which copies
 * a skill into the group, and the flat document, which inlines it): each
 * kind of edit of a source between two composes reaches the next compose,
 * and so does a new skill (the listing, kept in the flat layout, rests on
 * the directory's identity);
 * an unchanged source is not opened again (inotify's IN_OPEN on it says
 * so); a source whose times no stat can vouch for (changed as recently as
 * the look) is opened each time.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SKILL "container/skills/a/instructions.md"

static char root[256];
static struct clawmd_root r;

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

/* In place (the same inode), the size and the times kept: only ctime tells. */
static void put_same_size(const char *rel, const char *content)
{
	struct stat st;
	if (stat(path_of(rel), &st) < 0 || (size_t)st.st_size != strlen(content))
		abort();
	int fd = open(path_of(rel), O_WRONLY);
	if (fd < 0 || write(fd, content, strlen(content)) < 0 || close(fd) < 0)
		abort();
	struct timespec t[2] = {st.st_atim, st.st_mtim};
	if (utimensat(AT_FDCWD, path_of(rel), t, 0) < 0)
		abort();
}

static void put_renamed(const char *rel, const char *content)
{
	char tmp[300];
	snprintf(tmp, sizeof(tmp), "%s.new", rel);
	put(tmp, content);
	if (rename(path_of(tmp), path_of(rel)) < 0)
		abort();
}

/* Old enough for a stat to vouch for it (fs/stamp.h: 10 ms of margin). */
static void age(void)
{
	usleep(40000);
}

static int compose(const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_plan plan;
	struct clawmd_changes ch;
	struct clawmd_compose_opts opts = CLAWMD_COMPOSE_OPTS_INIT;
	struct clawmd_group *g;
	if (clawmd_group_open(&g, &r, group, &err) < 0) {
		printf("# open %s: %s\n", group, err.msg);
		return -1;
	}
	int rc = clawmd_compose(&plan, &ch, g, &opts, &err);
	if (rc < 0)
		printf("# compose %s: %s\n", group, err.msg);
	clawmd_changes_release(&ch);
	clawmd_plan_release(&plan);
	clawmd_group_free(g);
	return rc;
}

/* Compose a new group (its container.json all it has), watching whether
 * the skill's source is opened meanwhile. */
static int next;
static const char *compose_new(bool *opened)
{
	static char g[32];
	char rel[64];
	snprintf(g, sizeof(g), "g%d", ++next);
	snprintf(rel, sizeof(rel), "groups/%s/container.json", g);
	put(rel, "{\"skills\": \"all\"}\n");
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (in < 0 || (inotify_add_watch(in, path_of(SKILL), IN_OPEN) < 0 && errno != ENOENT))
		abort();
	if (compose(g) < 0)
		abort();
	char buf[4096];
	*opened = read(in, buf, sizeof(buf)) > 0;
	close(in);
	return g;
}

/* What group g was told of the skill. */
static bool told(const char *layout, const char *g, const char *text)
{
	char rel[128];
	size_t len;
	if (!strcmp(layout, "flat"))
		snprintf(rel, sizeof(rel), "groups/%s/CLAUDE.md", g);
	else
		snprintf(rel, sizeof(rel), "groups/%s/.claude-fragments/skill-a.md", g);
	char *s = test_slurp(path_of(rel), &len);
	if (!text) { /* told nothing of it */
		bool none = !s || !strstr(s, "Skill A");
		free(s);
		return !none;
	}
	bool ok = s && strstr(s, text);
	if (!ok)
		printf("# %s: wanted '%s' in:\n%s\n", rel, text, s ? s : "(nothing)");
	free(s);
	return ok;
}

static bool told_b(const char *layout, const char *g)
{
	char rel[128];
	size_t len;
	if (!strcmp(layout, "flat"))
		snprintf(rel, sizeof(rel), "groups/%s/CLAUDE.md", g);
	else
		snprintf(rel, sizeof(rel), "groups/%s/.claude-fragments/skill-b.md", g);
	char *s = test_slurp(path_of(rel), &len);
	bool ok = s && strstr(s, "Skill B.");
	free(s);
	return ok;
}

static void layout_run(const char *layout, const char *clawmd_json)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	bool opened;
	const char *g;
	put("clawmd.json", clawmd_json);
	put(SKILL, "Skill A one.\n");
	unlink(path_of("container/skills/b/instructions.md"));
	rmdir(path_of("container/skills/b"));
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0) {
		printf("# %s\n", err.msg);
		abort();
	}
	r.pass = clawmd_pass_watch();
	age();

	g = compose_new(&opened);
	ok(opened && told(layout, g, "Skill A one."), "%s: the first group reads the source", layout);
	g = compose_new(&opened);
	ok(!opened && told(layout, g, "Skill A one."), "%s: the next group is told the same without opening it",
	   layout);

	put_same_size(SKILL, "Skill A two.\n");
	g = compose_new(&opened);
	ok(opened && told(layout, g, "Skill A two."),
	   "%s: rewritten in place, same size and times (only ctime tells): read again", layout);
	age();
	put_renamed(SKILL, "Skill A three, longer.\n");
	g = compose_new(&opened);
	ok(opened && told(layout, g, "Skill A three, longer."), "%s: replaced by rename: read again", layout);
	/* Times no stat can vouch for (a change as recent as the look, here
	 * one in the future): never kept. */
	struct timespec later[2] = {{time(NULL) + 3600, 0}, {time(NULL) + 3600, 0}};
	if (utimensat(AT_FDCWD, path_of(SKILL), later, 0) < 0)
		abort();
	compose_new(&opened);
	g = compose_new(&opened);
	ok(opened && told(layout, g, "Skill A three, longer."), "%s: times too recent to vouch: opened again",
	   layout);
	struct timespec past[2] = {{time(NULL) - 60, 0}, {time(NULL) - 60, 0}};
	if (utimensat(AT_FDCWD, path_of(SKILL), past, 0) < 0)
		abort();
	age();
	compose_new(&opened);
	g = compose_new(&opened);
	ok(!opened && told(layout, g, "Skill A three, longer."), "%s: once aged, kept again", layout);
	/* A new skill: the skills directory's identity changed, so its names
	 * are listed again. */
	put("container/skills/b/instructions.md", "Skill B.\n");
	g = compose_new(&opened);
	ok(told_b(layout, g), "%s: a new skill: listed again and told", layout);
	if (unlink(path_of(SKILL)) < 0)
		abort();
	g = compose_new(&opened);
	ok(!told(layout, g, NULL), "%s: removed: no longer told", layout);
	clawmd_root_release(&r);
}

int main(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-memo.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	put("container/CLAUDE.md", "# Base\n");
	layout_run("imports", "{\"preset\": \"nanoclaw\", \"document\": \"imports\", \"mode\": \"copy\"}\n");
	layout_run("flat", "{\"preset\": \"nanoclaw\", \"document\": \"flat\"}\n");
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		abort();
	return done_testing();
}
