/*
 * view.h - the one resolver for everything the read side reads (private).
 *
 * render --group, check and status read directories the agent writes, as
 * root.  Every such read goes through a view: a path is a path as the
 * container sees it, walked component by component through the mount table,
 * each component opened relative to its parent's directory fd with
 * O_PATH|O_NOFOLLOW.  A symlink met on the way is read (readlinkat) and its
 * target walked again in the container's view, from the mount table for an
 * absolute target, at most CLAWMD_VIEW_HOPS times; a host path string is
 * never opened after resolution (only the mount roots, which the host
 * configured, are opened by name).  So a component swapped for a symlink to
 * a host directory at any moment leads where it leads in the container.
 *
 * With no mount table (host mode) the view is the identity mount "/" -> "/":
 * the same walk, with the kernel's semantics.
 *
 *	struct clawmd_view v = {mounts, nmounts};
 *	struct clawmd_buf b = CLAWMD_BUF_INIT;
 *	char *real = NULL;
 *	int rc = clawmd_view_read(&v, "/workspace/agent/CLAUDE.md", &b, max, &real);
 *
 * Reads refuse what is not a regular file before opening it for reading
 * (the walk's O_PATH opens and fstatat calls run no driver code); the read
 * open itself is O_NONBLOCK|O_NOCTTY|O_NOFOLLOW, relative to the parent's
 * fd, and checked to be the inode resolved.
 * Functions return 0 or a negative errno; nothing prints.
 */
#ifndef CLAWMD_VIEW_H
#define CLAWMD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "clawmd.h"

#define CLAWMD_VIEW_HOPS 40 /* symlinks per resolution, as the kernel's limit */

struct clawmd_view {
	const struct clawmd_mount *m; /* NULL: the host, as is */
	size_t n;
	size_t *budget; /* NULL, or the path components every resolution may
			   still walk, shared (links make one resolution cost up
			   to 40 x PATH_MAX): at 0, resolving fails with E2BIG */
	struct clawmd_view_cache *cache; /* NULL, or what this load resolved
					    already (see below) */
};

/*
 * A cache of resolved components for one load (one consistent look at a
 * group): each component by its container realpath, with its lstat, an
 * O_PATH fd for a directory, a symlink's target, or its absence.  Later
 * resolutions through the same view replay it without system calls; a
 * directory swapped meanwhile is not seen by this load, and is never
 * followed on the host.  Nodes resolved through a cache borrow its fds:
 * release them before freeing the cache.  Bounded (it stops growing).
 */
struct clawmd_view_cache;
struct clawmd_view_cache *clawmd_view_cache_new(void);
void clawmd_view_cache_free(struct clawmd_view_cache *cache);

/* What a path resolved to. */
struct clawmd_view_node {
	int fd;		       /* O_PATH fd of a directory or mount root; -1: a
				  directory that only exists above mount points
				  (empty, virtual), or another object (not opened:
				  reads reopen `name` in `parent`) */
	int parent;	       /* O_PATH fd of its directory; -1 for a mount root */
	bool own_fd, own_parent; /* closed on release (else the cache's) */
	char *name;	       /* its name in `parent` */
	const char *host_root; /* a mount root: the host path the table gives */
	char *real;	       /* the container realpath */
	struct stat st;	       /* lstat of the object (S_IFDIR for virtual) */
};

/* Resolve `path` (absolute, in the view); follow: the last component too. */
int clawmd_view_resolve(struct clawmd_view_node *out, const struct clawmd_view *v,
			const char *path, bool follow);
void clawmd_view_node_release(struct clawmd_view_node *node);

/* The container realpath of `path`, or NULL (missing, loop, not mapped). */
char *clawmd_view_realpath(const struct clawmd_view *v, const char *path);

/* 'd' directory, 'f' regular file, 'o' other, 0 missing (links followed). */
char clawmd_view_kind(const struct clawmd_view *v, const char *path);

/* The object itself (a symlink is not followed) exists; *st its lstat. */
bool clawmd_view_lexists(const struct clawmd_view *v, const char *path, struct stat *st);

/*
 * Append a regular file's bytes to `out`: -ENOENT, -EISDIR, -ENODEV (not a
 * regular file: never opened for reading), -EFBIG (over `max` bytes: not
 * read, whatever its size), or another -errno.  *real (may be NULL) gets
 * the realpath on success.
 */
int clawmd_view_read(const struct clawmd_view *v, const char *path, struct clawmd_buf *out,
		     size_t max, char **real);

/* The same for a node resolved already (the inode it resolved to). */
int clawmd_view_read_node(const struct clawmd_view_node *node, struct clawmd_buf *out,
			  size_t max);

/*
 * The first `max` bytes of the regular file a node resolved to (all of it
 * when shorter), whatever its size: the file is never read past `max`.
 * For a runtime that cuts a file at a byte budget (Codex).  -EISDIR,
 * -ENODEV (not a regular file: never opened for reading), or -errno.
 */
int clawmd_view_read_head(const struct clawmd_view_node *node, struct clawmd_buf *out, size_t max);

/*
 * The names in a directory (no "." or ".."), in the order the kernel's
 * readdir returns them, at most `max` (*truncated set when more).  *dev,
 * *ino identify the directory for loop detection.  A virtual directory
 * lists nothing.
 */
int clawmd_view_list(const struct clawmd_view *v, const char *path, size_t max, char ***names,
		     size_t *n, bool *truncated, dev_t *dev, ino_t *ino);

/* The target of the symlink at `path` (its last component not followed). */
int clawmd_view_readlink(const struct clawmd_view *v, const char *path, char **target);

#endif
