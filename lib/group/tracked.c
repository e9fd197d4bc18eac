/* tracked.c - keep in git the text compose and migrate move (tracked.h). */
#include "group/tracked.h"
#include "base/util.h"
#include "sys/git.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* `path` relative to `dir` (both real paths), or NULL when outside. */
static const char *below(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	if (strncmp(path, dir, l) || (path[l] != '/' && strcmp(dir, "/")))
		return NULL;
	path += l;
	while (*path == '/')
		path++;
	return *path ? path : NULL;
}

/* `s` as one shell word: as it is when it holds nothing special, else in
 * single quotes.  The commands a message names must work when pasted, from
 * any directory. */
static char *quoted(const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+,:@%=") ==
		      strlen(s))
		return clawmd_xstrdup(s);
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_putc(&b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			clawmd_buf_puts(&b, "'\\''");
		else
			clawmd_buf_putc(&b, *s);
	clawmd_buf_putc(&b, '\'');
	return clawmd_buf_detach(&b);
}

/* Stage the move in `index`: the blob of `data` at `to`, `from` gone. */
static int stage(const struct clawmd_git *git, git_repository *repo, git_index *index,
		 const char *from, const char *to, const char *data, size_t len)
{
	git_index_entry e;
	memset(&e, 0, sizeof(e));
	if (git->git_blob_create_from_buffer(&e.id, repo, data, len) < 0)
		return -1;
	e.mode = GIT_FILEMODE_BLOB;
	e.path = to;
	e.file_size = (uint32_t)len;
	if (git->git_index_add(index, &e) < 0 || git->git_index_remove_bypath(index, from) < 0)
		return -1;
	return git->git_index_write(index);
}

struct clawmd_tracked {
	const struct clawmd_git *git;
	const struct clawmd_layout *lay;
	git_repository *repo;
	git_index *index;
	char *rel;	/* the groups directory in the work tree */
	char *wd;	/* the work tree, absolute, quoted for a shell */
	char *rwd;	/* the work tree's real path */
};

struct clawmd_tracked *clawmd_tracked_open(const struct clawmd_layout *lay)
{
	const struct clawmd_git *git = clawmd_git(NULL);
	git_repository *repo = NULL;
	char *rg = NULL, *rwd = NULL;
	struct clawmd_tracked *t = NULL;
	if (!git || git->git_repository_open_ext(&repo, lay->root, 0, NULL) < 0)
		return NULL;
	const char *wd = git->git_repository_workdir(repo), *rest;
	if (!wd || !(rg = realpath(lay->groups, NULL)) || !(rwd = realpath(wd, NULL)) ||
	    !(rest = below(rg, rwd)))
		goto out;
	t = clawmd_xmalloc(sizeof(*t));
	*t = (struct clawmd_tracked){git, lay, repo, NULL, clawmd_xstrdup(rest), quoted(rwd), rwd};
	rwd = NULL;
	repo = NULL;
	if (git->git_repository_index(&t->index, t->repo) < 0) {
		clawmd_tracked_close(t);
		t = NULL;
	}
out:
	free(rg);
	free(rwd);
	if (repo)
		git->git_repository_free(repo);
	return t;
}

void clawmd_tracked_close(struct clawmd_tracked *t)
{
	if (!t)
		return;
	if (t->index)
		t->git->git_index_free(t->index);
	t->git->git_repository_free(t->repo);
	free(t->rel);
	free(t->wd);
	free(t->rwd);
	free(t);
}

char *clawmd_tracked_move(struct clawmd_tracked *t, const char *group, const char *from,
			  const char *to, const char *data, size_t len, bool dry_run, bool *failed)
{
	char *msg = NULL;
	*failed = false;
	if (!t)
		return NULL;
	const struct clawmd_git *git = t->git;
	char *rfrom = clawmd_xasprintf("%s/%s/%s", t->rel, group, from);
	char *rto = clawmd_xasprintf("%s/%s/%s", t->rel, group, to);
	if (!git->git_index_get_bypath(t->index, rfrom, 0)) {
		/* not tracked: git status shows the new file as it is */
	} else if (dry_run) {
		msg = clawmd_xasprintf("%s is tracked by git: its move to %s would be staged, so that "
				       "its text stays in git",
				       rfrom, rto);
	} else if (stage(git, t->repo, t->index, rfrom, rto, data, len) == 0) {
		msg = clawmd_xasprintf("%s is tracked by git: its move to %s is staged, so that its "
				       "text stays in git ('git status' shows it; commit it)",
				       rfrom, rto);
	} else {
		*failed = true;
		char *qfrom = quoted(rfrom), *qto = quoted(rto);
		msg = clawmd_xasprintf("%s was tracked by git, and its text is now in %s, which git "
				       "does not track: could not stage the move (%s); to keep it "
				       "in git, run: git -C %s add -f %s && git -C %s rm --cached "
				       "-q %s",
				       rfrom, rto, clawmd_git_errmsg(git), t->wd, qto, t->wd, qfrom);
		free(qfrom);
		free(qto);
	}
	free(rfrom);
	free(rto);
	return msg;
}

char *clawmd_tracked_gone(struct clawmd_tracked *t, const char *group, const char *name,
			  const char *into, bool review, bool dry_run)
{
	if (!t)
		return NULL;
	char *rel = clawmd_xasprintf("%s/%s/%s", t->rel, group, name), *msg = NULL;
	if (t->git->git_index_get_bypath(t->index, rel, 0) && review)
		msg = clawmd_xasprintf("%s is tracked by git: its text %s into %s and its directory "
				       "into the archive, which git ignores, so 'git status' %s it "
				       "deleted; commit the deletion once what %s holds is where it "
				       "belongs",
				       rel, dry_run ? "would go" : "went", into,
				       dry_run ? "would show" : "shows", into);
	else if (t->git->git_index_get_bypath(t->index, rel, 0))
		msg = clawmd_xasprintf("%s is tracked by git: its text %s into %s and its directory "
				       "into the archive, which git ignores, so 'git status' %s it "
				       "deleted; review %s and commit it with the deletion",
				       rel, dry_run ? "would go" : "went", into,
				       dry_run ? "would show" : "shows", into);
	free(rel);
	return msg;
}

bool clawmd_tracked_has(struct clawmd_tracked *t, const char *path)
{
	if (!t)
		return false;
	/* The directory's real path (a checkout may be reached through a
	 * symlink), the name as it is: the index holds the link, not what it
	 * points to. */
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1])
		return false;
	char *dir = slash == path ? clawmd_xstrdup("/") : clawmd_xstrndup(path, (size_t)(slash - path));
	char *rdir = realpath(dir, NULL);
	bool has = false;
	if (rdir) {
		char *full = clawmd_path_join(rdir, slash + 1);
		const char *rel = below(full, t->rwd);
		has = rel && t->git->git_index_get_bypath(t->index, rel, 0) != NULL;
		free(full);
	}
	free(rdir);
	free(dir);
	return has;
}
