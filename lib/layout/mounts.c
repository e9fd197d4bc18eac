/* mounts.c - the mount table: where the container sees the layout's
 * directories and a group's, and paths mapped through it both ways.  What
 * a runner mounts for one group, read-only over what compose wrote there
 * (clawmd_group_binds), is built from this table in compose/mounts.c: it
 * needs the group's plan, which stands above the layout. */
#include "clawmd.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int mount_cmp(const void *a, const void *b)
{
	const struct clawmd_mount *x = a, *y = b;
	size_t lx = strlen(x->container), ly = strlen(y->container);
	return lx != ly ? (lx > ly ? -1 : 1) : strcmp(x->container, y->container);
}
void clawmd_layout_group_of(char **group, char **ct, const struct clawmd_layout *lay,
			    const char *dir)
{
	*group = *ct = NULL;
	char *groups = lay && lay->groups ? realpath(lay->groups, NULL) : NULL;
	char *lex = groups ? clawmd_path_lexical(dir) : NULL, *real = NULL;
	const char *rest = NULL;
	/* 1. As written: the shortest prefix that is the groups directory
	 *    (the prefixes above it are the host's; below it, the agent's,
	 *    whose links are never followed here). */
	for (char *p = lex ? lex + 1 : NULL; p && !rest; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		char *r = realpath(lex, NULL);
		if (r && !strcmp(r, groups))
			rest = p;
		free(r);
		*p = c;
		if (!c)
			break;
	}
	/* 2. Its realpath: a host link into a group. */
	if (!rest && groups && (real = realpath(dir, NULL)) && clawmd_path_below(real, groups))
		rest = real + strlen(groups);
	if (rest && rest[0] == '/' && rest[1]) {
		const char *name = rest + 1, *slash = strchr(name, '/');
		*group = slash ? clawmd_xstrndup(name, (size_t)(slash - name)) : clawmd_xstrdup(name);
		*ct = clawmd_xasprintf("%s%s", lay->ct_group, slash ? slash : "");
	}
	free(real);
	free(lex);
	free(groups);
}

int clawmd_layout_mounts(struct clawmd_mount **out, size_t *n, const struct clawmd_layout *lay,
			 const char *group, struct clawmd_err *err)
{
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT, "invalid group name '%s'", group);
	struct clawmd_mount *m = clawmd_xcalloc(5 + lay->nmounts, sizeof(*m));
	size_t k = 0;
	m[k].container = clawmd_xstrdup(lay->ct_group);
	m[k++].host = clawmd_path_join(lay->groups, group);
	m[k].container = clawmd_xstrdup(lay->ct_base);
	m[k++].host = clawmd_xstrdup(lay->base);
	m[k].container = clawmd_xstrdup(lay->ct_skills);
	m[k++].host = clawmd_xstrdup(lay->skills);
	if (lay->modules) {
		m[k].container = clawmd_xstrdup(lay->ct_modules);
		m[k++].host = clawmd_xstrdup(lay->modules);
	}
	for (size_t i = 0; i < lay->nmounts; i++) {
		m[k].container = clawmd_xstrdup(lay->mounts[i].container);
		m[k++].host = clawmd_xstrdup(lay->mounts[i].host);
	}
	/* Most specific (longest) container path first, as the kernel's mount
	 * lookup resolves nested bind mounts. */
	if (k > 1)
		qsort(m, k, sizeof(*m), mount_cmp);
	*out = m;
	*n = k;
	return 0;
}

void clawmd_mounts_free(struct clawmd_mount *mounts, size_t n)
{
	if (!mounts)
		return;
	for (size_t i = 0; i < n; i++) {
		free(mounts[i].container);
		free(mounts[i].host);
	}
	free(mounts);
}

/* `path` equals `prefix` or continues it with a '/': the rest, else NULL. */
static const char *under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (strncmp(path, prefix, n))
		return NULL;
	if (path[n] == '\0' || path[n] == '/')
		return path + n;
	return n == 1 && prefix[0] == '/' ? path + 1 : NULL;
}

static char *map_path(const struct clawmd_mount *m, size_t n, const char *path, bool to_host)
{
	for (size_t i = 0; i < n; i++) {
		const char *from = to_host ? m[i].container : m[i].host;
		const char *to = to_host ? m[i].host : m[i].container;
		const char *rest = under(path, from);
		if (rest)
			return *rest ? clawmd_path_join(to, rest) : clawmd_xstrdup(to);
	}
	return NULL;
}

char *clawmd_mounts_to_host(const struct clawmd_mount *mounts, size_t n, const char *ct_path)
{
	return map_path(mounts, n, ct_path, true);
}

char *clawmd_mounts_to_container(const struct clawmd_mount *mounts, size_t n,
				 const char *host_path)
{
	return map_path(mounts, n, host_path, false);
}