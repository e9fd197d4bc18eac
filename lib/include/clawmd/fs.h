/*
 * clawmd/fs.h - the safe filesystem, for a host that writes beneath a
 * directory it was given (part of clawmd.h, which includes every part).
 *
 * What is inside a directory may have been planted by someone else: a
 * symlink where a file belongs, a FIFO, a huge file.  These are the
 * library's own primitives, the ones every write of compose goes through:
 * everything is reached from an open directory (struct clawmd_dir), no
 * symlink is followed, a read takes only a regular file, and a write is a
 * staged temp with an unpredictable name, fsynced and renamed over the
 * target (or beside nothing, for a create), the directory fsynced after.
 * `clawmd init` scaffolds a root with them.
 *
 *	struct clawmd_dir top = CLAWMD_DIR_INIT, sub = CLAWMD_DIR_INIT;
 *	top.fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
 *	top.path = strdup(dir);                    // for messages
 *	if (clawmd_dir_open_beneath(&sub, &top, "container", true, &err) < 0 ||
 *	    clawmd_fs_create_file(&sub, "CLAUDE.md", text, len, &err) < 0) ...
 *	clawmd_dir_release(&sub);
 *	clawmd_dir_release(&top);
 *
 * Errors are CLAWMD_EFS (a symlink, a wrong type, a failed system call) or
 * CLAWMD_EINPUT (a file over the size given), with the path in the message.
 */
#ifndef CLAWMD_API_FS_H
#define CLAWMD_API_FS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "clawmd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open directory and the path to show for it in messages (malloc'd;
 * clawmd_dir_release() closes the fd and frees the path). */
struct clawmd_dir {
	int fd;
	char *path;
};

#define CLAWMD_DIR_INIT {-1, NULL}

void clawmd_dir_release(struct clawmd_dir *d);
/*
 * Open directory `rel` ("a/b", relative; a ".." leaving `base` is refused)
 * beneath `base`, following no symlink on the way: openat2() with RESOLVE_BENEATH|
 * RESOLVE_NO_SYMLINKS, or one O_NOFOLLOW|O_DIRECTORY component at a time
 * where openat2() is missing (ENOSYS, or EPERM from an old seccomp filter).  With `create`, missing components
 * are made (0755) on the way, each relative to its parent's fd.  Returns 0
 * (out->path is "<base>/<rel>"), 1 when it was missing and `create` made
 * it, 2 when it is missing and !create (out->fd == -1; release as usual),
 * or EFS: a symlink or a non-directory on the way is refused, never followed.
 */
int clawmd_dir_open_beneath(struct clawmd_dir *out, const struct clawmd_dir *base,
			    const char *rel, bool create, struct clawmd_err *err);

/* What is at `name` in `d`, not following a symlink: the st_mode type bits,
 * or 0 when nothing is there.  Other errors are EFS. */
int clawmd_fs_type(mode_t *out, const struct clawmd_dir *d, const char *name,
		   struct clawmd_err *err);

/*
 * Read a regular file of at most `max` bytes into `out` (replacing its
 * content).  Returns 0, 1 when there is nothing at `name`, or an error:
 * EFS for a symlink, a non-regular file or a read failure, EINPUT when the
 * file is larger than `max`.
 */
int clawmd_fs_read(struct clawmd_buf *out, const struct clawmd_dir *d, const char *name,
		   size_t max, struct clawmd_err *err);

/* The one-shot atomic replace: a staged temp, fsynced, renamed over
 * `name`, the directory fsynced. */
int clawmd_fs_replace_file(const struct clawmd_dir *d, const char *name, const void *data,
			   size_t len, struct clawmd_err *err);

/* The same, never replacing anything: the staged file is renamed to
 * `name` with RENAME_NOREPLACE.  0 created, 1 something already there (the
 * temp is removed), or EFS. */
int clawmd_fs_create_file(const struct clawmd_dir *d, const char *name, const void *data,
			  size_t len, struct clawmd_err *err);

/* A listing of the directory open at `fd`, from its start, with a position
 * of its own: a dup() would share the offset, so a second listing of a
 * directory held open would begin where the first ended, and see nothing.
 * NULL with errno set. */
DIR *clawmd_fs_list(int fd);

#ifdef __cplusplus
}
#endif
#endif
