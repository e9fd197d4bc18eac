/*
 * Unit tests for whose the flat entries are (lib/compose/flat.c, "whose
 * file it is"): the region at the start of the group's lock file.  What it
 * says once written, what it keeps beside, that every byte of it a tear
 * changes makes it vouch for nothing, that one too full says nothing, and
 * that the no-op record after it is never reached by it.
 */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"
#include "compose/flat.h"
#include "group/group.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER                                                                                     \
	"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. "   \
	"Memory: memory/. -->\n"

static char root[256], lock[400];

/* A plan of `n` flat entries named names[i], each "HEADER\n# Persona\n\nBODY\n". */
static void plan_of(struct clawmd_plan *p, const char *const *names, const char *const *bodies,
		    size_t n)
{
	clawmd_plan_init(p);
	p->flat = true;
	p->entries = clawmd_xcalloc(n, sizeof(*p->entries));
	for (size_t i = 0; i < n; i++) {
		char *d = clawmd_xasprintf(HEADER "\n# Persona\n\n%s\n", bodies[i]);
		p->entries[i] = (struct clawmd_entry){clawmd_xstrdup(names[i]), CLAWMD_FT_FILE, d,
						      strlen(d)};
	}
	p->n = n;
}

static bool ours(const struct clawmd_group *g, const char *name, const char *body)
{
	char *d = clawmd_xasprintf(HEADER "\n# Persona\n\n%s\n", body);
	bool r = clawmd_flat_ours(g, name, d, strlen(d));
	free(d);
	return r;
}

static size_t lock_size(void)
{
	struct stat st;
	return stat(lock, &st) == 0 ? (size_t)st.st_size : 0;
}

static void poke(off_t at, char c)
{
	int fd = open(lock, O_WRONLY);
	if (fd < 0 || pwrite(fd, &c, 1, at) != 1)
		abort();
	close(fd);
}

static char peek(off_t at)
{
	char c = 0;
	int fd = open(lock, O_RDONLY);
	if (fd < 0 || pread(fd, &c, 1, at) != 1)
		abort();
	close(fd);
	return c;
}

int main(void)
{
	snprintf(root, sizeof(root), "%s/clawmd-flat-owners.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(lock, sizeof(lock), "%s/.clawmd/locks/g", root);
	test_put(root, "container/CLAUDE.md", "# base\n");
	test_put(root, "groups/g/container.json", "{}\n");
	struct clawmd_root r;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group *g;
	clawmd_root_init(&r);
	if (clawmd_root_load(&r, root, &err) < 0 || clawmd_group_open(&g, &r, "g", &err) < 0)
		abort();
	test_must(clawmd_group_lock(g, &err), "lock");

	ok(ours(g, "CLAUDE.md", "anything"), "no region: a file with the header is nanoclaw's");
	ok(!clawmd_flat_recorded(g), "... and nothing is recorded");

	const char *names[] = {"CLAUDE.md", "AGENTS.md"};
	const char *one[] = {"one", "one for codex"}, *two[] = {"two", "two for codex"};
	struct clawmd_plan a, b;
	plan_of(&a, names, one, 2);
	plan_of(&b, names, two, 2);
	ok(!clawmd_flat_remember(g, &a, true), "remembered, nothing else kept");
	is(lock_size(), CLAWMD_LOCK_OWNERS, "the region is written whole, and only it");
	ok(clawmd_flat_recorded(g), "recorded");
	ok(ours(g, "CLAUDE.md", "one") && ours(g, "AGENTS.md", "one for codex"),
	   "what was written is clawmd's");
	ok(!ours(g, "CLAUDE.md", "one, edited"), "an edit is not");
	ok(!ours(g, "AGENTS.md", "one"), "... nor another entry's text");
	ok(ours(g, "GEMINI.md", "whatever"), "an entry the region does not name: the header says");

	ok(clawmd_flat_remember(g, &b, true), "the next, beside it: the other digests kept");
	ok(ours(g, "CLAUDE.md", "one") && ours(g, "CLAUDE.md", "two"), "... both are clawmd's");
	ok(!clawmd_flat_remember(g, &b, false), "alone");
	ok(!ours(g, "CLAUDE.md", "one") && ours(g, "CLAUDE.md", "two"), "... the old one no more");

	/* Read without the lock (status, migrate): from the file at its path. */
	clawmd_group_unlock(g);
	ok(ours(g, "CLAUDE.md", "two") && !ours(g, "CLAUDE.md", "one"), "read without the lock");
	test_must(clawmd_group_lock(g, &err), "lock");

	/* Every byte a tear could change, changed: the region vouches for
	 * nothing.  The padding after it is not the region. */
	size_t used = 0;
	while (used < CLAWMD_LOCK_OWNERS && peek((off_t)used))
		used++;
	ok(used > 40 && used < 200, "the region holds %zu bytes", used);
	size_t torn = 0, believed = 0;
	for (size_t at = 0; at < used; at++) {
		char c = peek((off_t)at);
		poke((off_t)at, (char)(c ^ 0x20));
		torn += !ours(g, "CLAUDE.md", "two");
		believed += !clawmd_flat_recorded(g) ? 0 : 1;
		poke((off_t)at, c);
	}
	is(torn, used, "a changed byte anywhere: the entry is not taken for clawmd's");
	is(believed, 0, "... and the region is not recorded");
	poke(4000, 'x');
	ok(ours(g, "CLAUDE.md", "two") && clawmd_flat_recorded(g), "the padding is no part of it");
	poke(4000, '\0');

	int fd;
	/* Cut short (a write a crash tore at a sector): its end line lost. */
	for (size_t at = used - 1; at >= 60; at--)
		poke((off_t)at, '\0');
	ok(!ours(g, "CLAUDE.md", "two"), "its end lost: not clawmd's");
	ok(!clawmd_flat_remember(g, &b, true), "written again: nothing kept from a torn region");
	ok(ours(g, "CLAUDE.md", "two"), "... and it vouches again");

	/* What an older clawmd left at the start of its lock files: its record,
	 * or its record spoilt.  No region, so the header says (and an older
	 * STATE/flat/<group>, when there is one: t92). */
	const char *older[] = {"clawmd\006\nrecord", "clawmd\007\nrecord", "-"};
	for (size_t i = 0; i < 3; i++) {
		char zero[CLAWMD_LOCK_OWNERS] = {0};
		fd = open(lock, O_WRONLY);
		ok(fd >= 0 && pwrite(fd, zero, sizeof(zero), 0) == (ssize_t)sizeof(zero) &&
			   pwrite(fd, older[i], strlen(older[i]), 0) == (ssize_t)strlen(older[i]),
		   "an older lock file (%zu)", i);
		close(fd);
		ok(ours(g, "CLAUDE.md", "an edit") && !clawmd_flat_recorded(g), "... holds no region");
	}

	/* More than the region holds (never, with the few entry names there
	 * are): it says nothing rather than a part. */
	enum { MANY = 300 };
	const char *mnames[MANY], *mbodies[MANY];
	char *own[MANY];
	for (int i = 0; i < MANY; i++) {
		own[i] = clawmd_xasprintf("ENTRY-%03d.md", i);
		mnames[i] = own[i];
		mbodies[i] = "many";
	}
	struct clawmd_plan m;
	plan_of(&m, mnames, mbodies, MANY);
	clawmd_flat_remember(g, &m, true);
	is(lock_size(), CLAWMD_LOCK_OWNERS, "too full: still the region alone");
	ok(!clawmd_flat_recorded(g), "... which says nothing");
	ok(!ours(g, "ENTRY-000.md", "many") && !ours(g, "CLAUDE.md", "two"),
	   "... so no entry is taken for clawmd's");
	for (int i = 0; i < MANY; i++)
		free(own[i]);

	/* The no-op record lies after it: a region written does not reach it. */
	static const char rec[] = "RECORD";
	fd = open(lock, O_WRONLY);
	ok(fd >= 0 && pwrite(fd, rec, 6, CLAWMD_LOCK_RECORD_AT) == 6, "a record after the region");
	close(fd);
	clawmd_flat_remember(g, &a, false);
	char got[7] = {0};
	fd = open(lock, O_RDONLY);
	ok(fd >= 0 && pread(fd, got, 6, CLAWMD_LOCK_RECORD_AT) == 6 && !strcmp(got, rec),
	   "the region written again: the record untouched");
	close(fd);
	ok(ours(g, "CLAUDE.md", "one"), "... and the region says what was written");

	clawmd_plan_release(&a);
	clawmd_plan_release(&b);
	clawmd_plan_release(&m);
	clawmd_group_free(g);
	clawmd_root_release(&r);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 1;
	done_testing();
}
