/* mounts.c - what a container runner mounts for a group (see
 * clawmd_group_binds() in clawmd/group.h): the group read-write, the
 * layout's sources read-only, and read-only over the group everything
 * compose wrote there, so the agent cannot rewrite what it is told for the
 * rest of its session. */
#include "group/group.h"
#include "layout/providers.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Where the container sees the group's file `name` (an entry such as
 * CLAUDE.md or AGENTS.md, .claude-shared.md, .claude-fragments): beneath
 * the group's mount, at the same name.  The one place that says so: a
 * provider whose contract puts its document elsewhere (a containerPath of
 * its own) changes this function and nothing else.
 */
static char *group_file_target(const struct clawmd_layout *lay, const char *name)
{
	return clawmd_path_join(lay->ct_group, name);
}

/* A path docker's -v can carry (clawmd_bind.short_form): no separator of
 * the form, no control character or line separator, valid UTF-8. */
static bool short_form(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t k = 1;
		if (*p == ':' || *p == ',' || *p < 0x20 || *p == 0x7f)
			return false;
		if (*p >= 0x80) {
			k = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
			for (size_t i = 1; i < k; i++)
				if ((p[i] & 0xc0) != 0x80)
					return false;
			if (!k || *p > 0xf4 || (*p == 0xc2 && p[1] < 0xa0) ||
			    (*p == 0xe0 && p[1] < 0xa0) || (*p == 0xed && p[1] >= 0xa0) ||
			    (*p == 0xf0 && p[1] < 0x90) || (*p == 0xf4 && p[1] >= 0x90) ||
			    (*p == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)))
				return false;
		}
		p += k;
	}
	return true;
}

static void add(struct clawmd_bind **v, size_t *n, size_t *cap, enum clawmd_bind_what what,
		char *host, char *container, char *sub, bool ro, bool dir, bool present)
{
	clawmd_xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (struct clawmd_bind){.what = what, .host = host, .container = container,
					    .sub = sub, .readonly = ro, .dir = dir,
					    .present = present,
					    .short_form = short_form(host) && short_form(container)};
}

/* A source mount made redundant by another that already shows the same
 * host directory at the same place (nanoclaw's /app/src holds
 * /app/src/mcp-tools). */
static bool covered(const struct clawmd_mount *m, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		if (i == k || !clawmd_path_under(m[k].container, m[i].container) ||
		    !strcmp(m[k].container, m[i].container))
			continue;
		const char *rest = m[k].container + strlen(m[i].container);
		char *via = clawmd_path_join(m[i].host, rest + (*rest == '/'));
		bool same = !strcmp(via, m[k].host);
		free(via);
		if (same)
			return true;
	}
	return false;
}

/* Bytewise by container path: a stable order, and a parent before what is
 * mounted inside it. */
static int by_container(const void *a, const void *b)
{
	const struct clawmd_bind *x = a, *y = b;
	return strcmp(x->container, y->container);
}

/* The bind list being built, and the group it is for. */
struct binds {
	struct clawmd_bind *v;
	size_t n, cap;
	struct clawmd_group *g;
	const struct clawmd_layout *lay;
	const struct clawmd_dir *gd;
};

/*
 * Where the contracts of the group's runtimes say the container reads entry
 * file `name` (doc/runtimes.md), when that is not in the group's directory:
 * a second read-only mount there (the one over the group stays, or the
 * agent could write what the runtime reads).  Every such path, once: two
 * runtimes may share one entry file (Codex and OpenCode, AGENTS.md) and
 * read it at two places, and a runtime whose path got no mount would start
 * without its instructions.
 */
static void bind_elsewhere(struct binds *b, const char *name, bool present)
{
	clawmd_runtimes set;
	enum clawmd_runtime first;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	if (clawmd_group_runtimes(&set, &first, b->g, &scratch) < 0)
		return;
	char *in_group = group_file_target(b->lay, name);
	for (int rt = 0; rt < clawmd_layout_nruntimes(b->lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(b->lay, rt);
		if (!(set & (1u << rt)) || !c || !c->entry || strcmp(c->entry, name) ||
		    !c->container_path || c->container_path[0] != '/' ||
		    !strcmp(c->container_path, in_group))
			continue;
		bool seen = false;
		for (size_t k = 0; k < b->n && !seen; k++)
			seen = !strcmp(b->v[k].container, c->container_path);
		if (!seen)
			add(&b->v, &b->n, &b->cap, CLAWMD_BIND_ENTRY,
			    clawmd_path_join(b->g->path, name), clawmd_xstrdup(c->container_path),
			    clawmd_xstrdup(name), true, false, present);
	}
	free(in_group);
}

/* One entry of the plan, mounted by its top-level name: a file, or the
 * directory it lies in (once); a symlink is not a mount point. */
static void bind_entry(struct binds *b, const struct clawmd_entry *e)
{
	const char *slash = strchr(e->name, '/');
	char *top = slash ? clawmd_xstrndup(e->name, (size_t)(slash - e->name))
			  : clawmd_xstrdup(e->name);
	bool dir = slash || e->type == CLAWMD_FT_DIR;
	bool seen = false;
	for (size_t k = 1; k < b->n && !seen; k++)
		seen = !strcmp(b->v[k].sub, top);
	if (seen || (!dir && e->type == CLAWMD_FT_LINK)) {
		free(top);
		return;
	}
	struct stat st;
	bool present = fstatat(b->gd->fd, top, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	enum clawmd_bind_what what = dir ? CLAWMD_BIND_FRAGMENTS
				     : !strcmp(top, CLAWMD_SHARED_NAME) ? CLAWMD_BIND_SHARED
									 : CLAWMD_BIND_ENTRY;
	if (what == CLAWMD_BIND_ENTRY)
		bind_elsewhere(b, top, present);
	add(&b->v, &b->n, &b->cap, what, clawmd_path_join(b->g->path, top),
	    group_file_target(b->lay, top), top, true, dir, present);
}

/* 2. Read-only over the group, what compose writes there: each entry file,
 * copy mode's .claude-shared.md and .claude-fragments (one mount for the
 * whole directory, symlink mode's links included: a symlink is no mount
 * point, and a link in the group itself could be replaced). */
static void bind_composed(struct binds *b, const struct clawmd_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		bind_entry(b, &plan->entries[i]);
	/* compose makes .claude-fragments even with nothing to put in it:
	 * empty, it is still clawmd's, and read-only like the full one. */
	bool frag = false;
	for (size_t k = 1; k < b->n; k++)
		frag |= !strcmp(b->v[k].sub, CLAWMD_FRAGMENTS_DIR);
	struct stat fst;
	if (!frag && fstatat(b->gd->fd, CLAWMD_FRAGMENTS_DIR, &fst, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(fst.st_mode))
		add(&b->v, &b->n, &b->cap, CLAWMD_BIND_FRAGMENTS,
		    clawmd_path_join(b->g->path, CLAWMD_FRAGMENTS_DIR),
		    group_file_target(b->lay, CLAWMD_FRAGMENTS_DIR), clawmd_xstrdup(CLAWMD_FRAGMENTS_DIR),
		    true, true, true);
	if (b->n > 2)
		qsort(b->v + 1, b->n - 1, sizeof(*b->v), by_container);
}

/* 3. The layout's sources, read-only: the base, skills, modules and the
 * extra mounts (what symlink mode's links and the skills' own files point
 * at).  One missing on the host is left out: a runner would otherwise have
 * the engine create it. */
static void bind_sources(struct binds *b, const struct clawmd_mount *m, size_t nm)
{
	const struct clawmd_layout *lay = b->lay;
	size_t first_source = b->n;
	for (size_t k = 0; k < nm; k++) {
		if (!strcmp(m[k].container, lay->ct_group) || covered(m, nm, k))
			continue;
		struct stat st;
		if (stat(m[k].host, &st) < 0)
			continue;
		char *sub = NULL;
		if (clawmd_path_under(m[k].host, lay->root))
			sub = clawmd_xstrdup(m[k].host[strlen(lay->root)] == '/'
						     ? m[k].host + strlen(lay->root) + 1
						     : ".");
		add(&b->v, &b->n, &b->cap, CLAWMD_BIND_SOURCE, clawmd_xstrdup(m[k].host),
		    clawmd_xstrdup(m[k].container), sub, true, S_ISDIR(st.st_mode), true);
	}
	/* Parents before what is mounted inside them, as a runner applies
	 * them in order. */
	if (b->n - first_source > 1)
		qsort(b->v + first_source, b->n - first_source, sizeof(*b->v), by_container);
}

int clawmd_group_binds(struct clawmd_bind **out, size_t *nout, struct clawmd_group *g,
		       struct clawmd_err *err)
{
	struct binds b = {NULL, 0, 0, g, g->lay, NULL};
	struct clawmd_plan plan;
	struct clawmd_mount *m = NULL;
	size_t nm = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	clawmd_plan_init(&plan);
	/* clawmd.json's providers were checked as it was read; a layout set
	 * up otherwise (the binding's options) is checked here, before a
	 * runner mounts anything over the agent's files. */
	if ((rc = clawmd_layout_providers_check(g->lay, err)) < 0)
		goto out;
	if ((rc = clawmd_group_dir(&b.gd, g, err)) < 0 ||
	    (rc = clawmd_plan_build(&plan, g, err)) < 0 ||
	    (rc = clawmd_group_mounts(&m, &nm, g, err)) < 0)
		goto out;
	/* 1. The group, read-write: the agent's working directory. */
	add(&b.v, &b.n, &b.cap, CLAWMD_BIND_GROUP, clawmd_xstrdup(g->path),
	    clawmd_xstrdup(b.lay->ct_group), clawmd_xstrdup(""), false, true, true);
	bind_composed(&b, &plan);
	bind_sources(&b, m, nm);
	*out = b.v;
	*nout = b.n;
	b.v = NULL;
	b.n = 0;
out:
	clawmd_binds_free(b.v, b.n);
	clawmd_mounts_free(m, nm);
	clawmd_plan_release(&plan);
	return rc;
}

void clawmd_binds_free(struct clawmd_bind *v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++) {
		free(v[i].host);
		free(v[i].container);
		free(v[i].sub);
	}
	free(v);
}

const char *clawmd_bind_what_name(enum clawmd_bind_what what)
{
	static const char *const names[] = {"group", "entry", "shared", "fragments", "source"};
	return (unsigned)what < CLAWMD_ARRAY_SIZE(names) ? names[what] : "?";
}
