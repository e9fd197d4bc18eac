/* fragdir.c - copy mode's fragment directories inside .claude-fragments:
 * compare, stage whole, swap in, remove (see fragdir.h). */
#include "compose/fragdir.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TREE_DEPTH_MAX 16	 /* directory levels inside one fragment directory */
#define TREE_ENTRIES_MAX 10000	 /* entries removed before moving aside instead */
#define COMPARE_SLACK 64	 /* entries beyond the wanted ones: differs */

static const char preserved_tag[] = ".clawmd-preserved-";

bool clawmd_fragdir_name(const char *name)
{
	const char *rest = !strncmp(name, "skill-", 6) ? name + 6
			   : !strncmp(name, "module-", 7) ? name + 7 : NULL;
	size_t n = strlen(name);
	/* Not a fragment's name ("skill-x.md"): a directory there is not ours. */
	return rest && clawmd_name_valid(rest, strlen(rest)) && !strstr(name, preserved_tag) &&
	       !(n > 3 && !strcmp(name + n - 3, ".md"));
}

const char *clawmd_fragdir_temp_of(char out[32], const char *name)
{
	const char *base = clawmd_fs_temp_of(out, name);
	if (!base || (strncmp(base, "skill-", 6) && strncmp(base, "module-", 7)))
		return NULL;
	return base;
}

/* ---- compare ------------------------------------------------------------ */

static const struct clawmd_entry *want_file(const struct clawmd_entry *want, const char *rel)
{
	for (size_t i = 0; i < want->nfiles; i++)
		if (!strcmp(want->files[i].name, rel))
			return &want->files[i];
	return NULL;
}

static bool want_dir(const struct clawmd_entry *want, const char *rel)
{
	size_t n = strlen(rel);
	for (size_t i = 0; i < want->nfiles; i++)
		if (!strncmp(want->files[i].name, rel, n) && want->files[i].name[n] == '/')
			return true;
	return false;
}

static bool same_content(int dfd, const char *name, const struct clawmd_entry *f,
			 struct clawmd_inputs *in, const char *path)
{
	struct stat st;
	int fd = clawmd_fs_open_read(dfd, name, CLAWMD_FS_NOFOLLOW, &st);
	bool same = false;
	if (fd < 0)
		return false;
	if ((size_t)st.st_size == f->len) {
		char *buf = clawmd_xmalloc(f->len + 1);
		size_t got = 0;
		ssize_t r;
		while (got <= f->len && (r = read(fd, buf + got, f->len + 1 - got)) > 0)
			got += (size_t)r;
		same = got == f->len && !memcmp(buf, f->data, f->len);
		free(buf);
	}
	close(fd);
	if (same)
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, path, &st);
	return same;
}

/* Every entry of the directory dfd (at `prefix` inside the fragment
 * directory) is wanted and equal; *files counts the files seen. */
static bool same_tree(int dfd, const struct clawmd_entry *want, const char *prefix, int depth,
		      size_t *files, size_t *entries, struct clawmd_inputs *in, const char *path)
{
	DIR *d = clawmd_fs_list(dfd);
	struct dirent *e;
	struct stat dst;
	bool same = d != NULL;
	/* The directory's identity vouches for its entries: one added is a
	 * change of it.  Taken before the listing, so that a change during
	 * the listing shows. */
	if (same && fstat(dfd, &dst) == 0)
		clawmd_inputs_note(in, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, path, &dst);
	else
		clawmd_inputs_lose(in);
	while (same && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (++*entries > want->nfiles + COMPARE_SLACK)
			same = false;
		char *rel = *prefix ? clawmd_xasprintf("%s/%s", prefix, e->d_name)
				    : clawmd_xstrdup(e->d_name);
		char *sub_path = clawmd_xasprintf("%s/%s", path, e->d_name);
		struct stat st;
		const struct clawmd_entry *f;
		if (!same || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			same = false;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = depth < TREE_DEPTH_MAX && want_dir(want, rel)
					  ? openat(dfd, e->d_name,
						   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
					  : -1;
			same = sub >= 0 && same_tree(sub, want, rel, depth + 1, files, entries, in, sub_path);
			if (sub >= 0)
				close(sub);
		} else if (S_ISREG(st.st_mode) && (f = want_file(want, rel))) {
			same = same_content(dfd, e->d_name, f, in, sub_path);
			++*files;
		} else {
			same = false;
		}
		free(rel);
		free(sub_path);
	}
	if (d)
		closedir(d);
	return same;
}

bool clawmd_fragdir_same(const struct clawmd_dir *frag, const char *name,
			 const struct clawmd_entry *want, struct clawmd_inputs *in, const char *path)
{
	int fd = openat(frag->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	size_t files = 0, entries = 0;
	if (fd < 0)
		return false;
	bool same = same_tree(fd, want, "", 0, &files, &entries, in, path) && files == want->nfiles;
	close(fd);
	return same;
}

/* ---- remove ------------------------------------------------------------- */

/* `rel` (inside a fragment directory) is, or was, compose's: the plan lists
 * it, or its source directory on the host holds it (a file an earlier plan
 * copied, before the fragment stopped importing it). */
static bool compose_wrote(const struct clawmd_entry *want, const char *rel, bool dir)
{
	if (dir ? want_dir(want, rel) : want_file(want, rel) != NULL)
		return true;
	if (!want->source)
		return false;
	char *path = clawmd_path_join(want->source, rel);
	struct stat st;
	bool there = lstat(path, &st) == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	free(path);
	return there;
}

/*
 * Remove the tree `name` in dfd (at `prefix` inside a fragment directory)
 * without following anything, entry by entry, each judged just before it
 * goes: a directory, or a single-link regular file, at a path compose
 * wrote (compose_wrote) when `want` is given.  The tree itself is a
 * directory: a file at its name (the agent's, put where a fragment
 * directory was) is not compose's.  Anything else was put there by
 * someone else, and DESIGN section 2.5 says such content is moved aside,
 * never removed: the walk stops there and returns -1 (also past the
 * bounds, or on a failure), leaving the rest for the caller to move
 * aside.  What went before it was compose's own, which the next compose
 * writes again.  `dry` judges only.
 */
static int rm_tree(int dfd, const char *name, const struct clawmd_entry *want, const char *prefix,
		   int depth, size_t *budget, bool dry)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (depth == 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
		    (want && !compose_wrote(want, prefix, false)))
			return -1;
		return dry || unlinkat(dfd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
	}
	if (depth > TREE_DEPTH_MAX || (want && *prefix && !compose_wrote(want, prefix, true)))
		return -1;
	int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = sub >= 0 ? clawmd_fs_list(sub) : NULL;
	int rc = d ? 0 : -1;
	struct dirent *e;
	while (rc == 0 && d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!*budget) {
			rc = -1;
			break;
		}
		--*budget;
		char *rel = *prefix ? clawmd_xasprintf("%s/%s", prefix, e->d_name)
				    : clawmd_xstrdup(e->d_name);
		rc = rm_tree(sub, e->d_name, want, rel, depth + 1, budget, dry);
		free(rel);
	}
	if (d)
		closedir(d);
	if (sub >= 0)
		close(sub);
	if (rc == 0 && !dry && unlinkat(dfd, name, AT_REMOVEDIR) < 0)
		rc = -1;
	return rc;
}

/*
 * Remove the fragment directory `name` (shown as `as`) when it holds only
 * compose's files (of `want`, when given); else move what is left aside,
 * whole.  Without `want` (a stale directory: the plan no longer lists its
 * files) a file can only be judged by its type, so the whole tree is
 * judged before anything goes, and kept whole when anything is foreign.
 */
static int remove_or_keep(const struct clawmd_dir *frag, const char *name, const char *as,
			  const struct clawmd_entry *want, struct clawmd_err *err)
{
	size_t budget = TREE_ENTRIES_MAX;
	bool ours = want || rm_tree(frag->fd, name, NULL, "", 0, &budget, true) == 0;
	budget = TREE_ENTRIES_MAX;
	if (ours && rm_tree(frag->fd, name, want, "", 0, &budget, false) == 0)
		return 0;
	char *moved = NULL;
	int rc = clawmd_fs_move_aside_as(&moved, frag, name, as, err);
	free(moved);
	return rc;
}

int clawmd_fragdir_remove(const struct clawmd_dir *frag, const char *name, struct clawmd_err *err)
{
	return remove_or_keep(frag, name, name, NULL, err);
}

void clawmd_fragdir_unstage(const struct clawmd_dir *frag, const char *tmp)
{
	size_t budget = TREE_ENTRIES_MAX;
	int saved = errno;
	rm_tree(frag->fd, tmp, NULL, "", 0, &budget, false);
	errno = saved;
}

/* ---- stage and commit --------------------------------------------------- */

static int write_file(int dfd, const char *name, const char *data, size_t len)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int failed = 0;
	while (len && !failed) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			failed = 1;
		else
			data += n, len -= (size_t)n;
	}
	failed |= fsync(fd) < 0;
	int saved = errno;
	if (close(fd) < 0 && !failed)
		return -1;
	errno = saved;
	return failed ? -1 : 0;
}

/* The directory for `rel`'s parent inside `top`, made as needed; each
 * component is made by us and opened without following a link (the agent
 * could see the staging name and plant one). */
static int parent_dir(int top, const char *rel, const char **leaf)
{
	int dfd = dup(top);
	const char *p = rel, *slash;
	while (dfd >= 0 && (slash = strchr(p, '/'))) {
		char *comp = clawmd_xstrndup(p, (size_t)(slash - p));
		if (mkdirat(dfd, comp, 0755) < 0 && errno != EEXIST) {
			close(dfd);
			dfd = -1;
		} else {
			int next = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			close(dfd);
			dfd = next;
		}
		free(comp);
		p = slash + 1;
	}
	*leaf = p;
	return dfd;
}

int clawmd_fragdir_stage(char tmp[64], const struct clawmd_dir *frag, const char *name,
			 const struct clawmd_entry *want, struct clawmd_err *err)
{
	for (int tries = 0;; tries++) {
		uint64_t r;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r)) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			r = clawmd_fnv1a64(&ts, sizeof(ts)) ^ ((uint64_t)getpid() << 32);
		}
		snprintf(tmp, 64, ".%.24s.%016llx.tmp", name, (unsigned long long)r);
		if (mkdirat(frag->fd, tmp, 0755) == 0)
			break;
		if (errno != EEXIST || tries >= 8) {
			int rc = clawmd_err_sys(err, CLAWMD_EFS, "could not write '%s/%s'",
						frag->path, name);
			tmp[0] = '\0';
			return rc;
		}
	}
	int top = openat(frag->fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = top < 0 ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < want->nfiles; i++) {
		const char *leaf;
		int dfd = parent_dir(top, want->files[i].name, &leaf);
		rc = dfd < 0 ? -1 : write_file(dfd, leaf, want->files[i].data, want->files[i].len);
		if (rc == 0 && dfd != top && fsync(dfd) < 0 && errno != EINVAL)
			rc = -1;
		if (dfd >= 0)
			close(dfd);
		if (rc < 0)
			clawmd_err_sys(err, CLAWMD_EFS, "could not write '%s/%s/%s'", frag->path, tmp,
				       want->files[i].name);
	}
	if (rc == 0 && fsync(top) < 0 && errno != EINVAL) {
		rc = -1;
		clawmd_err_sys(err, CLAWMD_EFS, "could not sync '%s/%s'", frag->path, tmp);
	} else if (top < 0) {
		clawmd_err_sys(err, CLAWMD_EFS, "could not open '%s/%s'", frag->path, tmp);
	}
	if (top >= 0)
		close(top);
	if (rc < 0) {
		clawmd_fragdir_unstage(frag, tmp);
		tmp[0] = '\0';
		return err->code ? err->code : CLAWMD_EFS;
	}
	return 0;
}

/*
 * 1. Nothing there: RENAME_NOREPLACE, so something made meanwhile is not
 *    replaced unseen.
 * 2. Something there: RENAME_EXCHANGE, so the name is never missing (the
 *    current CLAUDE.md may import files in it), then remove what came out.
 */
int clawmd_fragdir_commit(const struct clawmd_dir *frag, const char *tmp, const char *name,
			  const struct clawmd_entry *want, struct clawmd_err *err)
{
	for (int tries = 0; tries < 3; tries++) {
		if (renameat2(frag->fd, tmp, frag->fd, name, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			break;
		if (renameat2(frag->fd, tmp, frag->fd, name, RENAME_EXCHANGE) == 0)
			return remove_or_keep(frag, tmp, name, want, err);
		if (errno != ENOENT)
			break;
	}
	return clawmd_err_sys(err, CLAWMD_EFS, "could not rename '%s/%s' to '%s/%s'", frag->path, tmp,
			      frag->path, name);
}
