/*
 * write.c - the one atomic write (fs.h): a file or symlink staged under an
 * unpredictable temp name, renamed over its name, the directory synced;
 * and the plain steps around it (create, rename, unlink, mkdir -p).
 */
#include "fs/fs.h"
#include "fs/private.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * Stage a file.  Why each step:
 *  1. O_CREAT|O_EXCL|O_NOFOLLOW on a random name: nothing planted at that
 *     name can be followed or reused; a collision fails instead of sharing.
 *  2. write everything, then fsync: after the rename the new content must be
 *     on disk, not just its name (ext4 delayed allocation).
 *  3. a checked close: NFS and some FUSE filesystems report errors only here.
 *  4. on any failure, unlink the temp so nothing half-written stays behind.
 */
static int stage_file(struct clawmd_stage *st, const struct clawmd_dir *d, const char *name,
		      const void *data, size_t len, bool sync, struct clawmd_err *err)
{
	st->dir = d;
	st->name = clawmd_xstrdup(name);
	st->pending = false;
	for (int tries = 0;; tries++) {
		clawmd_fs_temp_name(st->tmp, sizeof(st->tmp), name, data, len);
		int fd = openat(d->fd, st->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0644);
		if (fd < 0) {
			if (errno == EEXIST && tries < 8)
				continue;
			/* Name what was being written, not the temp (it never existed). */
			return clawmd_err_sys(err, CLAWMD_EFS, "could not write '%s/%s'",
					      shown(d, name));
		}
		st->pending = true;
		int failed = clawmd_fs_write_all(fd, data, len) < 0 || (sync && fsync(fd) < 0);
		int saved = errno;
		if (close(fd) < 0 && !failed) {
			failed = 1;
			saved = errno;
		}
		if (failed) {
			errno = saved;
			clawmd_err_sys(err, CLAWMD_EFS, "could not write '%s/%s'", shown(d, st->tmp));
			unlinkat(d->fd, st->tmp, 0);
			st->pending = false;
			errno = saved;
			return CLAWMD_EFS;
		}
		return 0;
	}
}

int clawmd_fs_stage_file(struct clawmd_stage *st, const struct clawmd_dir *d, const char *name,
			 const void *data, size_t len, struct clawmd_err *err)
{
	return stage_file(st, d, name, data, len, true, err);
}

int clawmd_fs_stage_file_unsynced(struct clawmd_stage *st, const struct clawmd_dir *d,
				  const char *name, const void *data, size_t len,
				  struct clawmd_err *err)
{
	return stage_file(st, d, name, data, len, false, err);
}

/* Symlinks: create under a temp name, rename over (there is never a moment
 * without the link, unlike unlink-then-symlink). */
int clawmd_fs_stage_link(struct clawmd_stage *st, const struct clawmd_dir *d, const char *name,
			 const char *target, struct clawmd_err *err)
{
	st->dir = d;
	st->name = clawmd_xstrdup(name);
	st->pending = false;
	for (int tries = 0;; tries++) {
		clawmd_fs_temp_name(st->tmp, sizeof(st->tmp), name, target, strlen(target));
		if (symlinkat(target, d->fd, st->tmp) == 0)
			break;
		if (errno == EEXIST && tries < 8)
			continue;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not create symlink '%s/%s'",
				      shown(d, name));
	}
	st->pending = true;
	return 0;
}

int clawmd_fs_commit(struct clawmd_stage *st, struct clawmd_err *err)
{
	if (renameat(st->dir->fd, st->tmp, st->dir->fd, st->name) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not rename '%s/%s' to '%s/%s'",
				      shown(st->dir, st->tmp), shown(st->dir, st->name));
	st->pending = false;
	return 0;
}

/*
 * Only a temp that still holds what was staged is removed: a caller may
 * have lost track (a swap it could not undo), and then the content under
 * the temp name is somebody else's.  That stays where it is; the next
 * compose finds it as a leftover, moves it aside and reports it.
 */
void clawmd_fs_stage_release(struct clawmd_stage *st)
{
	if (!st)
		return;
	if (st->pending) {
		int saved = errno;
		char *kept = NULL;
		clawmd_fs_remove_own(&kept, st->dir, st->tmp, NULL, NULL, NULL, NULL);
		free(kept);
		errno = saved;
	}
	st->pending = false;
	free(st->name);
	st->name = NULL;
}

int clawmd_fs_sync_dir(const struct clawmd_dir *d, struct clawmd_err *err)
{
	if (fsync(d->fd) < 0 && errno != EINVAL)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not sync directory '%s'", d->path);
	return 0;
}

int clawmd_fs_replace_file(const struct clawmd_dir *d, const char *name, const void *data,
			   size_t len, struct clawmd_err *err)
{
	struct clawmd_stage st;
	int rc = clawmd_fs_stage_file(&st, d, name, data, len, err);
	if (rc == 0)
		rc = clawmd_fs_commit(&st, err);
	if (rc == 0)
		rc = clawmd_fs_sync_dir(d, err);
	clawmd_fs_stage_release(&st);
	return rc;
}

int clawmd_fs_create_file(const struct clawmd_dir *d, const char *name, const void *data,
			  size_t len, struct clawmd_err *err)
{
	struct clawmd_stage st;
	int rc = clawmd_fs_stage_file(&st, d, name, data, len, err);
	if (rc == 0) {
		if (renameat2(d->fd, st.tmp, d->fd, name, RENAME_NOREPLACE) == 0)
			st.pending = false;
		else if (errno == EEXIST)
			rc = 1;
		else
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not rename '%s/%s' to '%s/%s'",
					    shown(d, st.tmp), shown(d, name));
	}
	if (rc == 0)
		rc = clawmd_fs_sync_dir(d, err);
	clawmd_fs_stage_release(&st);
	return rc;
}

int clawmd_fs_create_empty(const struct clawmd_dir *d, const char *name, struct clawmd_err *err)
{
	int fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return 1;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not create '%s/%s'", shown(d, name));
	}
	if (close(fd) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not create '%s/%s'", shown(d, name));
	return 0;
}

int clawmd_fs_rename_noreplace(const struct clawmd_dir *d, const char *from, const char *to,
			       struct clawmd_err *err)
{
	if (renameat2(d->fd, from, d->fd, to, RENAME_NOREPLACE) == 0)
		return 0;
	return clawmd_err_sys(err, CLAWMD_EFS, "could not rename '%s/%s' to '%s/%s'",
			      shown(d, from), shown(d, to));
}

int clawmd_fs_own_like_dir(const struct clawmd_dir *d, const char *name, struct clawmd_err *err)
{
	struct stat ds, st;
	if (geteuid() != 0)
		return 0;
	/* The agent may rename anything onto the name between the create and
	 * this: so by the descriptor of what is there, and only a regular
	 * file with no other link (a hard link to somebody else's file is
	 * never given away).  Gone meanwhile, or something else: the agent's
	 * doing, and nothing of clawmd's to give. */
	int pfd = openat(d->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), rc = 0;
	if (pfd < 0)
		return errno == ENOENT ? 0
				       : clawmd_err_sys(err, CLAWMD_EFS,
							"could not give '%s/%s' its directory's owner",
							shown(d, name));
	if (fstat(d->fd, &ds) < 0 || fstat(pfd, &st) < 0 ||
	    (S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	     (st.st_uid != ds.st_uid || st.st_gid != ds.st_gid) &&
	     fchownat(pfd, "", ds.st_uid, ds.st_gid, AT_EMPTY_PATH) < 0))
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not give '%s/%s' its directory's owner",
				    shown(d, name));
	close(pfd);
	return rc;
}

int clawmd_fs_unlink(const struct clawmd_dir *d, const char *name, struct clawmd_err *err)
{
	if (unlinkat(d->fd, name, 0) < 0 && errno != ENOENT)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not remove '%s/%s'", shown(d, name));
	return 0;
}

int clawmd_fs_mkdirs(const char *path, struct clawmd_err *err)
{
	char *p = clawmd_xstrdup(path);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		struct stat st;
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not create directory '%s'", p);
			break;
		}
		if (lstat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			rc = clawmd_err_set(err, CLAWMD_EFS, "'%s' is not a directory", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}
