/*
 * worktree.c - a nested git worktree, as Claude Code tells one (§2.8 of
 * claude-code-memory.md; render/worktree.h).
 *
 * The directories of the walk that skip their project files: inside the
 * main repository's work tree but outside the nested worktree the cwd is
 * in.  Read as Claude Code reads it, through the view, never by libgit2:
 * the `.git` file's "gitdir:", that directory's `commondir`, both links
 * validated (the gitdir is <commondir>/worktrees/<name>, and its `gitdir`
 * file leads back to <git root>/.git).
 */
#include "render/worktree.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define GIT_LINK_MAX 4096u

/* The first line of a small regular file, trimmed; NULL otherwise. */
static char *git_link(struct clawmd_load_view *v, const char *path)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	char *line = NULL;
	clawmd_buf_put(&b, "", 0);
	if (clawmd_view_read(&v->v, path, &b, GIT_LINK_MAX, NULL) == 0 &&
	    !memchr(b.ptr, '\0', b.len)) {
		size_t e = strcspn(b.ptr, "\r\n"), a = 0;
		while (a < e && (b.ptr[a] == ' ' || b.ptr[a] == '\t'))
			a++;
		while (e > a && (b.ptr[e - 1] == ' ' || b.ptr[e - 1] == '\t'))
			e--;
		if (e > a)
			line = clawmd_xstrndup(b.ptr + a, e - a);
	}
	clawmd_buf_release(&b);
	return line;
}

/* The nearest directory from `cwd` up holding a `.git`, when that `.git`
 * is no directory (a worktree's link file); NULL otherwise. */
static char *dotgit_file_dir(struct clawmd_load_view *v, const char *cwd)
{
	char *d = clawmd_xstrdup(cwd);
	bool found = false, is_dir = false;
	for (;;) {
		char *dotgit = clawmd_path_resolve(d, ".git");
		found = clawmd_load_lexists(v, dotgit, &is_dir);
		free(dotgit);
		if (found || !strcmp(d, "/"))
			break;
		char *p = clawmd_path_dir(d);
		free(d);
		d = p;
	}
	if (!found || is_dir) {
		free(d);
		return NULL;
	}
	return d;
}

/* The directory d/.git's "gitdir:" line names, resolved; NULL: none. */
static char *gitdir_of(struct clawmd_load_view *v, const char *d)
{
	char *dotgit = clawmd_path_resolve(d, ".git");
	char *line = git_link(v, dotgit), *gitdir = NULL;
	if (line && !strncmp(line, "gitdir:", 7)) {
		size_t skip = 7;
		while (line[skip] == ' ' || line[skip] == '\t')
			skip++;
		if (line[skip])
			gitdir = clawmd_path_resolve(d, line + skip);
	}
	free(line);
	free(dotgit);
	return gitdir;
}

/* The path gitdir/NAME's first line names, resolved against gitdir. */
static char *gitdir_link(struct clawmd_load_view *v, const char *gitdir, const char *name)
{
	char *file = clawmd_path_resolve(gitdir, name);
	char *l = git_link(v, file), *to = l ? clawmd_path_resolve(gitdir, l) : NULL;
	free(l);
	free(file);
	return to;
}

/* Both links checked on their real paths: the gitdir is
 * <commondir>/worktrees/<name> and `back` leads to <d>/.git.  Then the
 * main work tree holds d: the two roots into *git_root, *canonical. */
static bool worktree_roots(struct clawmd_load_view *v, const char *d, const char *gitdir,
			   const char *common, const char *back, char **git_root, char **canonical)
{
	char *rgit = clawmd_load_realpath(v, gitdir), *rcommon = clawmd_load_realpath(v, common);
	char *rback = clawmd_load_realpath(v, back), *rroot = clawmd_load_realpath(v, d);
	char *want = NULL;
	bool ok = false;
	if (!rgit || !rcommon || !rback || !rroot)
		goto out;
	char *wt = clawmd_path_resolve(rcommon, "worktrees");
	char *gparent = clawmd_path_dir(rgit);
	bool in_common = !strcmp(wt, gparent);
	free(wt);
	free(gparent);
	want = clawmd_path_resolve(rroot, ".git");
	if (!in_common || strcmp(rback, want))
		goto out;
	char *main_root = clawmd_path_dir(rcommon);
	if (strcmp(main_root, rroot) && clawmd_path_under(rroot, main_root)) {
		*git_root = rroot;
		*canonical = main_root;
		rroot = main_root = NULL;
		ok = true;
	}
	free(main_root);
out:
	free(rgit);
	free(rcommon);
	free(rback);
	free(rroot);
	free(want);
	return ok;
}

bool clawmd_git_nested_worktree(struct clawmd_load_view *v, const char *cwd, char **git_root,
				char **canonical)
{
	char *d = dotgit_file_dir(v, cwd);
	if (!d)
		return false;
	char *gitdir = gitdir_of(v, d), *common = NULL, *back = NULL;
	bool ok = false;
	if (gitdir) {
		common = gitdir_link(v, gitdir, "commondir");
		back = gitdir_link(v, gitdir, "gitdir");
	}
	if (common && back)
		ok = worktree_roots(v, d, gitdir, common, back, git_root, canonical);
	free(gitdir);
	free(common);
	free(back);
	free(d);
	return ok;
}
