/* tree.c - a directory tree linted as Claude Code started there would load it (check --cwd). */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a tree ------------------------------------------------------------- */

/*
 * check --cwd DIR: the tree's rules.  Why it is walked this way (issue 18):
 *  1. the tree's own directories are read through a view whose one mount is
 *     DIR itself, so a .claude/rules (or a rule in it) that is a symlink
 *     leading out of DIR resolves to nothing: no host file outside the tree
 *     is ever opened, let alone shown in a finding;
 *  2. subdirectories are entered by fd, never through a symlink;
 *  3. a group directory the walk reaches (or DIR inside one) is the
 *     agent's: it is linted exactly as a group check lints it, through the
 *     group's mount table (lint_group_rules), and never walked on the host.
 */
struct tree_walk {
	struct clawmd_findings *out;
	const char *root;	/* the linted directory (host, real) */
	struct clawmd_view view; /* the tree: DIR mounted on itself */
	const struct clawmd_layout *lay; /* NULL: groups unknown */
	char *groups;		/* realpath of lay->groups, or NULL */
};

/* The group that host directory `dir` is in (caller frees), and in *rest
 * what follows the group's directory ("" or "/sub/dir"); NULL: none. */
static char *tree_group_of(const struct tree_walk *tw, const char *dir, const char **rest)
{
	size_t gl = tw->groups ? strlen(tw->groups) : 0;
	if (!gl || strncmp(dir, tw->groups, gl) || dir[gl] != '/' || !dir[gl + 1])
		return NULL;
	const char *name = dir + gl + 1, *slash = strchr(name, '/');
	*rest = slash ? slash : "";
	return slash ? clawmd_xstrndup(name, (size_t)(slash - name)) : clawmd_xstrdup(name);
}

/* CM501-CM503 for the rules of the group directory (or the directory in a
 * group) `dir`, as the group's container sees them. */
static void tree_group_rules(struct tree_walk *tw, const char *group, const char *rest)
{
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (clawmd_layout_mounts(&mounts, &nmounts, tw->lay, group, &err) < 0)
		return; /* not a group clawmd can name: nothing in it is read */
	struct clawmd_view v = {mounts, nmounts};
	char *base = clawmd_xasprintf("%s%s", tw->lay->ct_group, rest);
	clawmd_lint_rules_dir(tw->out, NULL, &v, base, tw->root);
	free(base);
	clawmd_mounts_free(mounts, nmounts);
}

/* Every directory below `dir` (host, open at `dfd`, taken over) that holds
 * .claude/rules, for nested memory. */
static void lint_tree_rules(struct tree_walk *tw, int dfd, const char *dir, int depth)
{
	const char *rest;
	char *group = tree_group_of(tw, dir, &rest);
	if (group) {
		tree_group_rules(tw, group, rest);
		free(group);
		close(dfd);
		return;
	}
	/* .claude/rules resolved in the tree's view: a link out of it is
	 * nothing */
	char *rules = clawmd_path_join(dir, ".claude/rules");
	if (clawmd_view_kind(&tw->view, rules) == 'd')
		clawmd_lint_rules_dir(tw->out, NULL, &tw->view, dir, tw->root);
	free(rules);
	DIR *d = depth < 12 ? clawmd_fs_list(dfd) : NULL;
	close(dfd);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules") ||
		    (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		int sub = openat(dirfd(d), e->d_name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (sub < 0)
			continue; /* not a directory, or a symlink: not entered */
		char *p = clawmd_path_join(dir, e->d_name);
		lint_tree_rules(tw, sub, p, depth + 1);
		free(p);
	}
	if (d)
		closedir(d);
}

int clawmd_lint_tree(struct clawmd_findings *out, const char *dir,
		     const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct stat st;
	int vrc = opts ? clawmd_opts_version(opts->version, CLAWMD_LINT_OPTS_VERSION,
					     "clawmd_lint_opts", err) : 0;
	if (vrc < 0)
		return vrc;
	char *real = realpath(dir, NULL);
	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = errno;
		free(real);
		errno = real ? ENOTDIR : e;
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not open directory '%s'", dir);
	}
	struct tree_walk tw = {.out = out, .root = real, .lay = opts ? opts->layout : NULL};
	struct clawmd_mount self = {real, real};
	tw.view = (struct clawmd_view){&self, 1};
	if (tw.lay && tw.lay->groups)
		tw.groups = realpath(tw.lay->groups, NULL);
	/* The tree only: no user tier, and nothing above DIR is reported. */
	struct clawmd_lint_view V = {.out = out, .root = real, .limit = real};
	struct clawmd_memory_opts mo = {
		.version = CLAWMD_MEMORY_OPTS_VERSION,
		.cwd = real,
		.approve_external = opts && opts->approve_external,
	};
	/* DIR in a group: what loads there is what loads in the container
	 * (the group's mount table), never the host's view of the agent's
	 * links. */
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	char *group = NULL, *ct = NULL, *ctlimit = NULL;
	int rc;
	clawmd_layout_group_of(&group, &ct, tw.lay, dir);
	if (group && (rc = clawmd_layout_mounts(&mounts, &nmounts, tw.lay, group, err)) < 0)
		goto out;
	if (group) {
		ctlimit = clawmd_xstrdup(ct);
		V.mounts = mounts;
		V.nmounts = nmounts;
		V.limit = ctlimit;
		V.group = NULL;
		mo.cwd = ct;
		mo.mounts = mounts;
		mo.nmounts = nmounts;
		mo.release = tw.lay->claude;
		mo.no_user = tw.lay->no_user;
		mo.no_project = tw.lay->no_project;
		mo.no_local = tw.lay->no_local;
	}
	size_t chars;
	rc = clawmd_lint_loaded(&V, &mo, &chars, err);
	if (rc == 0) {
		/* In a group, its rules as its container sees them, never a
		 * walk of where the agent's links lead on the host. */
		int dfd = group ? -1 : open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (group)
			tree_group_rules(&tw, group, ct + strlen(tw.lay->ct_group));
		else if (dfd >= 0)
			lint_tree_rules(&tw, dfd, real, 0);
		char *local = clawmd_path_join(real, CLAWMD_LOCAL_NAME);
		if (!group && lstat(local, &st) == 0)
			clawmd_lint_local_ignored(out, NULL, real, real, CLAWMD_LOCAL_NAME);
		free(local);
	}
out:
	clawmd_mounts_free(mounts, nmounts);
	free(group);
	free(ct);
	free(ctlimit);
	free(tw.groups);
	free(real);
	return rc;
}
