/*
 * fs.h - the safe filesystem primitives every write in clawmd goes through.
 *
 * The group directory is mounted read-write into the agent's container, so
 * anything in it may have been planted: a symlink where a file belongs, a
 * directory where a symlink belongs, a FIFO, a huge file.  The rules here:
 *
 *  - work relative to a directory fd (struct clawmd_dir); never resolve a
 *    path string twice;
 *  - open with O_NOFOLLOW|O_CLOEXEC and check what was opened with fstat()
 *    before trusting it;
 *  - replace, never edit in place: a staged temp file or symlink with an
 *    unpredictable name, created with O_CREAT|O_EXCL, renamed over the target.
 *
 * Replacing is split in two so a caller can prepare several changes and make
 * them visible only when all of them were prepared (a full disk then fails
 * the preparation and leaves the directory exactly as it was):
 *
 *	struct clawmd_stage st;
 *	clawmd_fs_stage_file(&st, dir, "CLAUDE.md", data, len, err);  // write+fsync
 *	...
 *	clawmd_fs_commit(&st, err);     // renameat over the target
 *	clawmd_fs_sync_dir(dir, err);   // once per directory, after the commits
 *	clawmd_fs_stage_release(&st);   // unlinks the temp if not committed
 */
#ifndef CLAWMD_FS_H
#define CLAWMD_FS_H

#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "clawmd.h"

/* Open `path` (absolute or relative to the cwd), refusing a symlink.  EFS. */
int clawmd_dir_open(struct clawmd_dir *out, const char *path, struct clawmd_err *err);
/* Open directory `name` inside `parent` without following a symlink.  When
 * nothing is there and `missing_ok`, returns 1 with out->fd == -1 (and the
 * path set, so release it as after success). */
int clawmd_dir_openat(struct clawmd_dir *out, const struct clawmd_dir *parent, const char *name,
		      bool missing_ok, struct clawmd_err *err);
/* clawmd_dir_release(), clawmd_dir_open_beneath(), clawmd_fs_type(),
 * clawmd_fs_read(), clawmd_fs_replace_file(), clawmd_fs_create_file() and
 * clawmd_fs_list() are public: clawmd/fs.h. */


/*
 * The one open for reading of anything the agent may have planted: every
 * read in lib/ that is not of a host-owned file goes through it.  Why in
 * three steps:
 *  1. `name` is opened O_PATH (with O_NOFOLLOW unless CLAWMD_FS_FOLLOW):
 *     an O_PATH open runs no driver code, so a device, FIFO or socket
 *     planted there is never opened (opening one is already an action for
 *     some drivers: a watchdog starts, a tape rewinds);
 *  2. fstat of that fd: only a regular file goes on (a symlink -ELOOP, a
 *     directory -EISDIR, anything else -ENODEV), *st gets its stat;
 *  3. that same inode is reopened for reading through /proc/self/fd/N,
 *     and checked to be the inode of step 2.  No name is looked up again,
 *     so nothing swapped in meanwhile is opened.  Where /proc is not a
 *     procfs, the file is refused (-EOPNOTSUPP), never opened by name.
 * `how`: CLAWMD_FS_NOFOLLOW (`name` relative to `dirfd`, its last
 * component not followed), CLAWMD_FS_FOLLOW (a host-configured path), or
 * CLAWMD_FS_BENEATH (openat2 RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS: -EXDEV
 * when it leads out of `dirfd`; -ENOSYS before Linux 5.6), optionally with
 * CLAWMD_FS_NO_SYMLINKS (no symlink in any component).  Returns the fd
 * (O_RDONLY|O_CLOEXEC) or -errno.  With CLAWMD_FS_APPEND, the inode is
 * reopened O_WRONLY|O_APPEND instead, and only when it has one link
 * (-EMLINK otherwise: a hard link to somebody else's file is never written).
 */
#define CLAWMD_FS_NOFOLLOW 0
#define CLAWMD_FS_FOLLOW 1
#define CLAWMD_FS_BENEATH 2
#define CLAWMD_FS_NO_SYMLINKS 4
#define CLAWMD_FS_APPEND 8
int clawmd_fs_open_read(int dirfd, const char *name, int how, struct stat *st);

/* clawmd_fs_read() (clawmd/fs.h), with *st the fstat of what was read
 * (mode 0: nothing there; a symlink, directory or other file refused: only
 * its type), for the recorder of a compose's inputs (fs/inputs.h). */
int clawmd_fs_read_st(struct clawmd_buf *out, struct stat *st, const struct clawmd_dir *d,
		      const char *name, size_t max, struct clawmd_err *err);
/* Read a symlink's target; 1 when `name` is absent, EFS when not a symlink. */
int clawmd_fs_readlink(struct clawmd_buf *out, const struct clawmd_dir *d, const char *name,
		       struct clawmd_err *err);

/* A prepared replacement of `name` in `dir`, waiting to be committed. */
struct clawmd_stage {
	const struct clawmd_dir *dir;
	char *name;
	char tmp[64];
	bool pending; /* the temp exists and is ours to remove */
};

int clawmd_fs_stage_file(struct clawmd_stage *st, const struct clawmd_dir *d, const char *name,
			 const void *data, size_t len, struct clawmd_err *err);
/* The same without the fsync, for a file the caller can regenerate and
 * will recognise when a crash leaves it torn (see clawmd_changes_apply). */
int clawmd_fs_stage_file_unsynced(struct clawmd_stage *st, const struct clawmd_dir *d,
				  const char *name, const void *data, size_t len,
				  struct clawmd_err *err);
int clawmd_fs_stage_link(struct clawmd_stage *st, const struct clawmd_dir *d, const char *name,
			 const char *target, struct clawmd_err *err);
/* Rename the staged temp over the target.  No directory fsync. */
int clawmd_fs_commit(struct clawmd_stage *st, struct clawmd_err *err);
/* Remove the temp if it was not committed and still holds what was staged
 * (never anything a swap put there), free the stage. */
void clawmd_fs_stage_release(struct clawmd_stage *st);
int clawmd_fs_sync_dir(const struct clawmd_dir *d, struct clawmd_err *err);

/* The name a temp of `name` was staged for (cut to 24 bytes, as temp names
 * are), or NULL when `name` is not a temp name.  Callers match it against
 * the names they own to find a killed run's leftovers. */
const char *clawmd_fs_temp_of(char out[32], const char *name);

/* The most clawmd ever stages in one file (a 4 MiB source, a carried
 * CLAUDE.local.md of two 4 MiB halves): a larger leftover is not its own. */
#define CLAWMD_FS_STAGED_MAX (16 * 1024 * 1024)

/* Whether `data` (what a leftover holds) is clawmd's own output. */
typedef bool (*clawmd_fs_ours_fn)(const char *data, size_t len, void *payload);

/*
 * Remove `name` in `d` only when its content is provably clawmd's own: an
 * empty file, a temp that still holds what was staged under it (the digest
 * in its name), or what `ours` (may be NULL) accepts.  Anything else is
 * moved aside to "<as>.clawmd-preserved-<time>-<random>", returned in
 * *preserved (caller frees), or left in place when `as` is NULL.  A file
 * somebody holds open for writing (told by a read lease, where the file
 * system has leases) is never unlinked: what is written to it later would
 * be found nowhere; it is kept the same way.  If the file is written
 * between the check and the unlink, what was written is copied to such a
 * preserved name; a file renamed onto the name meanwhile is somebody's,
 * and treated as such.  Returns 0 (also when nothing is there),
 * or EFS.  `err` may be NULL.
 */
int clawmd_fs_remove_own(char **preserved, const struct clawmd_dir *d, const char *name,
			 const char *as, clawmd_fs_ours_fn ours, void *payload,
			 struct clawmd_err *err);

/*
 * Append `data` to the empty regular file `name` in `d` in place, never
 * replacing its inode (the agent may hold it open and write to it at any
 * moment: its memory, issue 42).  Opened as a read is (O_PATH without
 * following, fstat, the same inode reopened O_WRONLY|O_APPEND through
 * /proc/self/fd); one write, fsync.  Returns 0 appended, 1 when `name` is
 * not (any more) an empty regular file with no other link: nothing
 * written; EFS.
 */
int clawmd_fs_append_empty(const struct clawmd_dir *d, const char *name, const void *data,
			   size_t len, struct clawmd_err *err);

/* The same verdict, changing nothing: whether `name` would be removed. */
bool clawmd_fs_is_own(const struct clawmd_dir *d, const char *name, clawmd_fs_ours_fn ours,
		      void *payload);

/* Create an empty regular file if nothing is at `name` (never following a
 * symlink there); 0 created, 1 something already there. */
int clawmd_fs_create_empty(const struct clawmd_dir *d, const char *name, struct clawmd_err *err);

/*
 * Move `name` aside to a fresh quarantine name "<name>.clawmd-preserved-
 * <UTC time>-<random>" in the same directory, never replacing anything,
 * and (as root) give it the directory's owner.  The new name is returned
 * in *newname (caller frees; NULL when nothing was left to keep: the name
 * emptied meanwhile).  Bounded: once CLAWMD_PRESERVED_CAP entries moved
 * aside under the same name wait for review, a regular file's content is
 * appended to "<name>.clawmd-preserved-overflow" instead (that name
 * returned), and the file removed as clawmd_fs_remove_own() removes; what
 * cannot be appended (a directory, a symlink, a file open for writing or
 * over CLAWMD_FS_STAGED_MAX) is moved aside past the cap.
 */
#define CLAWMD_PRESERVED_MARK ".clawmd-preserved-"
#define CLAWMD_PRESERVED_OVERFLOW "overflow"
#define CLAWMD_PRESERVED_CAP 16
int clawmd_fs_move_aside(char **newname, const struct clawmd_dir *d, const char *name,
			 struct clawmd_err *err);
/* The same, naming the quarantine after `as` instead of `name`. */
int clawmd_fs_move_aside_as(char **newname, const struct clawmd_dir *d, const char *name,
			    const char *as, struct clawmd_err *err);
/*
 * Give `name` in `d` the owner of `d` itself, when running as root: files
 * clawmd creates for the agent (CLAUDE.local.md) must stay writable by it.
 * A no-op for other users, for a name gone meanwhile (0), and for anything
 * but a regular file with no other link (the agent may have renamed it
 * there: never a hard link to somebody else's file given away).
 */
int clawmd_fs_own_like_dir(const struct clawmd_dir *d, const char *name, struct clawmd_err *err);
/* Rename `from` to `to` in `d`, failing (EFS) if `to` exists.  Needs
 * RENAME_NOREPLACE (Linux 3.15; ext4, xfs, btrfs, tmpfs, overlayfs). */
int clawmd_fs_rename_noreplace(const struct clawmd_dir *d, const char *from, const char *to,
			       struct clawmd_err *err);
/* Remove a file or symlink (never a directory); absent is fine. */
int clawmd_fs_unlink(const struct clawmd_dir *d, const char *name, struct clawmd_err *err);

/*
 * Take the exclusive lock `name` in directory `lockdir` (created if needed),
 * waiting up to `timeout` seconds: ELOCK when it stays taken.  The fd is the
 * lock; close it to release.  `lockdir` is STATE/locks: before it is
 * created, STATE gets a ".gitignore" of "*" (if it has none, or an empty
 * one), so git ignores the host-only state without a line in the user's
 * .gitignore.
 */
int clawmd_fs_lock(int *fd_out, const char *lockdir, const char *name, double timeout,
		   struct clawmd_err *err);
/* STATE/.gitignore written when STATE exists and the file is missing or
 * empty (what clawmd_fs_lock does before it locks); best effort. */
void clawmd_fs_ignore_state(const char *state);

/* mkdir -p for host-owned directories (state dir); refuses symlinks. */
int clawmd_fs_mkdirs(const char *path, struct clawmd_err *err);

#endif
