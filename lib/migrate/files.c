/* files.c - the filesystem steps of a migrate (migrate/migrate.h): a
 * killed run's temps cleaned, a rename between two directories, a file
 * replaced keeping its owner and mode; each one atomic change.  And
 * ROOT's git repository, opened once for the moves that keep text in git. */
#include "migrate/migrate.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Remove the temps clawmd_fs_stage_file made for `name` in `d` and a killed
 * run left behind: ".<name, cut at 24>.<16 hex>.tmp", regular files only. */
int clawmd_mig_clean_temps(struct mig *m, const struct clawmd_dir *d, const char *group,
			   const char *name, struct clawmd_err *err)
{
	char prefix[32];
	snprintf(prefix, sizeof(prefix), ".%.24s.", name);
	size_t pl = strlen(prefix);
	DIR *dir = clawmd_fs_list(d->fd);
	if (!dir)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", d->path);
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		const char *n = e->d_name;
		size_t len = strlen(n);
		if (len != pl + 16 + 4 || strncmp(n, prefix, pl) || strcmp(n + pl + 16, ".tmp") ||
		    strspn(n + pl, "0123456789abcdef") != 16)
			continue;
		mode_t t;
		if ((rc = clawmd_fs_type(&t, d, n, err)) < 0)
			break;
		if (t != S_IFREG)
			continue;
		/* Removed only when it holds what was staged there; a compose
		 * killed in a swap leaves the agent's CLAUDE.local.md under such
		 * a name, and that is moved aside instead, never unlinked. */
		char *kept = NULL;
		if (!m->opts->dry_run &&
		    (rc = clawmd_fs_remove_own(&kept, d, n, name, NULL, NULL, err)) < 0)
			break;
		m->dirty = true;
		if (kept)
			clawmd_mig_act(m, CLAWMD_MIGRATE_MOVE_ASIDE, group, clawmd_mig_shown(m->lay, d->path, n),
			    clawmd_mig_shown(m->lay, d->path, kept),
			    "a temp name holding content clawmd did not stage: kept");
		else
			clawmd_mig_act(m, CLAWMD_MIGRATE_REMOVE_TEMP, group, clawmd_mig_shown(m->lay, d->path, n), NULL,
			    "left by an interrupted run");
		free(kept);
	}
	closedir(dir);
	return rc;
}

/* Identity of what is at `name`, to notice it changing under us. */
int clawmd_mig_ident(struct stat *st, const struct clawmd_dir *d, const char *name,
		     struct clawmd_err *err)
{
	if (fstatat(d->fd, name, st, AT_SYMLINK_NOFOLLOW) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not stat '%s/%s'", d->path, name);
	return 0;
}

bool clawmd_mig_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Rename between two directories, never replacing anything. */
int clawmd_mig_rename_between(const struct clawmd_dir *from, const char *fname,
			      const struct clawmd_dir *to, const char *tname, struct clawmd_err *err)
{
	if (renameat2(from->fd, fname, to->fd, tname, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EEXIST)
		return 1;
	if (errno == EXDEV)
		return clawmd_err_set(err, CLAWMD_EFS,
				      "could not move '%s/%s' to '%s/%s': they are on different "
				      "filesystems; put the state directory (--state) beside the "
				      "groups", from->path, fname, to->path, tname);
	return clawmd_err_sys(err, CLAWMD_EFS, "could not move '%s/%s' to '%s/%s'", from->path,
			      fname, to->path, tname);
}

/*
 * Give the staged temp `tmp` the owner and permission bits of `like`: the
 * carried file stays the agent's to write when the host runs migrate as
 * root.  Why through an fd: the directory is the agent's, so the name is
 * opened without following a symlink, and the fd is checked to be a file
 * we created (ours, one link) before it is changed.
 */
static int copy_owner(const struct clawmd_dir *d, const char *tmp, const struct stat *like,
		      struct clawmd_err *err)
{
	struct stat st;
	int rc = 0;
	int fd = clawmd_fs_open_read(d->fd, tmp, CLAWMD_FS_NOFOLLOW, &st);
	if (fd == -ELOOP || fd == -EISDIR || fd == -ENODEV || fd == -EAGAIN)
		return clawmd_err_set(err, CLAWMD_EFS, "'%s/%s' was replaced while being written",
				      d->path, tmp);
	if (fd < 0) {
		errno = -fd;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open '%s/%s'", d->path, tmp);
	}
	if (st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		rc = clawmd_err_set(err, CLAWMD_EFS, "'%s/%s' was replaced while being written",
				    d->path, tmp);
		goto out_close;
	}
	if ((st.st_uid != like->st_uid || st.st_gid != like->st_gid) && geteuid() == 0 &&
	    fchown(fd, like->st_uid, like->st_gid) < 0) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not change the owner of '%s/%s'",
				    d->path, tmp);
		goto out_close;
	}
	if ((st.st_mode & 0777) != (like->st_mode & 0777) && fchmod(fd, like->st_mode & 0777) < 0)
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not change the mode of '%s/%s'", d->path,
				    tmp);
out_close:
	close(fd);
	return rc;
}

/*
 * clawmd_fs_replace_file, with the owner and mode of `like` (when not NULL),
 * replacing only what was read: `was` is the target's identity when it was
 * read, NULL when it was absent.  Something written there meanwhile (the
 * agent's memory, say) is never replaced: an error, and a rerun reads it.
 */
int clawmd_mig_replace_like(const struct clawmd_dir *d, const char *name, const void *data,
			    size_t len, const struct stat *like, const struct stat *was,
			    struct clawmd_err *err)
{
	struct clawmd_stage st;
	struct stat now;
	int rc = clawmd_fs_stage_file(&st, d, name, data, len, err);
	if (rc == 0 && like)
		rc = copy_owner(d, st.tmp, like, err);
	if (rc == 0 && was) {
		if ((rc = clawmd_mig_ident(&now, d, name, err)) == 0 && !clawmd_mig_same_file(&now, was))
			rc = clawmd_err_set(err, CLAWMD_EFS,
					    "'%s/%s' changed while it was being migrated; run "
					    "clawmd migrate again", d->path, name);
		if (rc == 0)
			rc = clawmd_fs_commit(&st, err);
	} else if (rc == 0 && (rc = clawmd_fs_rename_noreplace(d, st.tmp, name, err)) == 0) {
		st.pending = false;
	}
	if (rc == 0)
		rc = clawmd_fs_sync_dir(d, err);
	clawmd_fs_stage_release(&st);
	return rc;
}

/* ROOT's repository, opened once, at the first move that may need it. */
void clawmd_mig_open_tracked(struct mig *m)
{
	if (!m->tracked_opened) {
		m->tracked = clawmd_tracked_open(m->lay);
		m->tracked_opened = true;
	}
}
