/*
 * fs.c - the safe filesystem primitives (see fs.h for the rules): directory
 * handles opened without following a symlink, and the one open for reading.
 * The rest of fs.h is in write.c (staging and the atomic replace), aside.c
 * (moving aside, removing and appending to what is clawmd's own) and lock.c
 * (locks and the host-only state directory).
 */
#include "fs/fs.h"
#include "fs/private.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

int clawmd_dir_open(struct clawmd_dir *out, const char *path, struct clawmd_err *err)
{
	out->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (out->fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return clawmd_err_set(err, CLAWMD_EFS,
					      "'%s' is a symlink or not a directory; refusing it",
					      path);
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open directory '%s'", path);
	}
	out->path = clawmd_xstrdup(path);
	return 0;
}

DIR *clawmd_fs_list(int fd)
{
	/* "." names the directory itself, whatever is renamed onto its path. */
	int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = own >= 0 ? fdopendir(own) : NULL;
	if (!d && own >= 0) {
		int saved = errno;
		close(own);
		errno = saved;
	}
	return d;
}

int clawmd_dir_openat(struct clawmd_dir *out, const struct clawmd_dir *parent, const char *name,
		      bool missing_ok, struct clawmd_err *err)
{
	out->path = clawmd_xasprintf("%s/%s", shown(parent, name));
	out->fd = openat(parent->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (out->fd < 0) {
		if (errno == ENOENT && missing_ok)
			return 1; /* path stays set for messages; release as usual */
		int saved = errno;
		free(out->path);
		out->path = NULL;
		errno = saved;
		if (errno == ELOOP || errno == ENOTDIR)
			return clawmd_err_set(err, CLAWMD_EFS,
					      "'%s/%s' is a symlink or not a directory; refusing it",
					      shown(parent, name));
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open directory '%s/%s'",
				      shown(parent, name));
	}
	return 0;
}

static int openat2_dir(int dfd, const char *rel)
{
	struct open_how how = {.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
			       .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS};
	return (int)syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
}

int clawmd_dir_open_beneath(struct clawmd_dir *out, const struct clawmd_dir *base,
			    const char *rel, bool create, struct clawmd_err *err)
{
	out->fd = -1;
	out->path = clawmd_xasprintf("%s/%s", shown(base, rel));
	int fd = openat2_dir(base->fd, rel), rc = 0;
	if (fd >= 0) {
		out->fd = fd;
		return 0;
	}
	/* ENOSYS: a kernel before 5.6; EPERM: a seccomp filter that predates
	 * openat2.  The walk below is as strict, one syscall per component. */
	if (errno != ENOSYS && errno != EPERM && errno != ENOENT)
		goto refuse;
	/* One component at a time: each opened O_NOFOLLOW relative to its
	 * parent's fd (a name without a slash cannot lead anywhere else). */
	int cur = base->fd;
	for (const char *c = rel; *c;) {
		size_t n = strcspn(c, "/");
		char *name = clawmd_xstrndup(c, n);
		bool last = !c[n] || !c[n + 1];
		if (!n || !strcmp(name, ".") || !strcmp(name, "..")) {
			free(name);
			errno = EINVAL;
			goto refuse_at;
		}
		if (create && mkdirat(cur, name, 0755) == 0 && last)
			rc = 1;
		fd = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int saved = errno;
		free(name);
		if (cur != base->fd)
			close(cur);
		errno = saved;
		if (fd < 0) {
			if (errno == ENOENT && !create)
				return 2;
			goto refuse;
		}
		cur = fd;
		c += n + (c[n] == '/');
	}
	out->fd = cur;
	return rc;
refuse_at:
	if (cur != base->fd)
		close(cur);
refuse:
	if (errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
		rc = clawmd_err_set(err, CLAWMD_EFS, "'%s' is reached through a symlink or is not a "
				    "directory; refusing to follow it", out->path);
	else
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not open directory '%s'", out->path);
	free(out->path);
	out->path = NULL;
	return rc;
}

void clawmd_dir_release(struct clawmd_dir *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	free(d->path);
	d->path = NULL;
}

int clawmd_fs_type(mode_t *out, const struct clawmd_dir *d, const char *name,
		   struct clawmd_err *err)
{
	struct stat st;
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		*out = 0;
		if (errno == ENOENT)
			return 0;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not stat '%s/%s'", shown(d, name));
	}
	*out = st.st_mode & S_IFMT;
	return 0;
}

/* /proc/self/fd reopens an inode: only when /proc is a procfs (host-owned,
 * checked once a process). */
bool clawmd_fs_proc_fd_usable(void)
{
	static int known; /* 0 not yet, 1 yes, -1 no */
	if (!known) {
		struct statfs sf;
		known = statfs("/proc/self/fd", &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC ? 1 : -1;
	}
	return known > 0;
}

int clawmd_fs_open_read(int dirfd, const char *name, int how, struct stat *st)
{
	int pfd, fd, e;
	struct stat again;
	if (how & CLAWMD_FS_BENEATH) {
		struct open_how oh = {.flags = O_PATH | O_CLOEXEC,
				      .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
		if (how & CLAWMD_FS_NO_SYMLINKS)
			oh.resolve |= RESOLVE_NO_SYMLINKS;
		if (!(how & CLAWMD_FS_FOLLOW))
			oh.flags |= O_NOFOLLOW;
		pfd = (int)syscall(SYS_openat2, dirfd, name, &oh, sizeof(oh));
	} else {
		pfd = openat(dirfd, name, O_PATH | O_CLOEXEC | (how & CLAWMD_FS_FOLLOW ? 0 : O_NOFOLLOW));
	}
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, st) < 0) {
		e = -errno;
		goto out_close;
	}
	bool append = how & CLAWMD_FS_APPEND;
	e = S_ISLNK(st->st_mode) ? -ELOOP : S_ISDIR(st->st_mode) ? -EISDIR
		: !S_ISREG(st->st_mode) ? -ENODEV : append && st->st_nlink != 1 ? -EMLINK
		: !clawmd_fs_proc_fd_usable() ? -EOPNOTSUPP : 0;
	if (e)
		goto out_close;
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, (append ? O_WRONLY | O_APPEND : O_RDONLY) | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno == ENOENT ? -EOPNOTSUPP : -errno;
		goto out_close;
	}
	if (fstat(fd, &again) < 0 || !S_ISREG(again.st_mode) || again.st_dev != st->st_dev ||
	    again.st_ino != st->st_ino) {
		close(fd);
		e = -EAGAIN; /* not the inode of step 2: never trusted */
		goto out_close;
	}
	close(pfd);
	*st = again;
	return fd;
out_close:
	close(pfd);
	return e;
}

int clawmd_fs_read(struct clawmd_buf *out, const struct clawmd_dir *d, const char *name,
		   size_t max, struct clawmd_err *err)
{
	struct stat st;
	return clawmd_fs_read_st(out, &st, d, name, max, err);
}

int clawmd_fs_read_st(struct clawmd_buf *out, struct stat *stp, const struct clawmd_dir *d,
		      const char *name, size_t max, struct clawmd_err *err)
{
	int rc = 0;
	struct stat st;
	/* A planted FIFO or device is never opened: fstat of an O_PATH fd
	 * refuses it first. */
	int fd = clawmd_fs_open_read(d->fd, name, CLAWMD_FS_NOFOLLOW, &st);
	clawmd_buf_clear(out);
	memset(stp, 0, sizeof(*stp));
	if (fd >= 0)
		*stp = st;
	else if (fd == -ELOOP || fd == -EISDIR || fd == -ENODEV)
		stp->st_mode = st.st_mode; /* what is there instead of a file */
	if (fd == -ENOENT)
		return 1;
	if (fd == -ELOOP)
		return clawmd_err_set(err, CLAWMD_EFS, "'%s/%s' is a symlink; refusing to follow it",
				      shown(d, name));
	if (fd == -EISDIR || fd == -ENODEV)
		return clawmd_err_set(err, CLAWMD_EFS, "'%s/%s' is not a regular file", shown(d, name));
	if (fd == -EOPNOTSUPP)
		return clawmd_err_set(err, CLAWMD_EFS,
				      "could not open '%s/%s' safely: /proc is not mounted (a file "
				      "is opened for reading only through /proc/self/fd)",
				      shown(d, name));
	if (fd < 0) {
		errno = -fd;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open '%s/%s'", shown(d, name));
	}
	if ((uintmax_t)st.st_size > max) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "'%s/%s' is larger than %zu bytes",
				    shown(d, name), max);
		goto out_close;
	}
	/* Read to EOF but never past max+1: the size may change under us. */
	for (;;) {
		clawmd_buf_grow(out, 8192);
		size_t room = out->cap - out->len - 1;
		if (room > max + 1 - out->len)
			room = max + 1 - out->len;
		ssize_t n = read(fd, out->ptr + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s/%s'", shown(d, name));
			goto out_close;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len > max) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "'%s/%s' is larger than %zu bytes",
					    shown(d, name), max);
			goto out_close;
		}
	}
	if (!out->ptr)
		clawmd_buf_put(out, "", 0);
out_close:
	close(fd);
	return rc;
}

int clawmd_fs_readlink(struct clawmd_buf *out, const struct clawmd_dir *d, const char *name,
		       struct clawmd_err *err)
{
	char tmp[4096];
	ssize_t n = readlinkat(d->fd, name, tmp, sizeof(tmp));
	clawmd_buf_clear(out);
	if (n < 0) {
		if (errno == ENOENT)
			return 1;
		if (errno == EINVAL)
			return clawmd_err_set(err, CLAWMD_EFS, "'%s/%s' is not a symlink", shown(d, name));
		return clawmd_err_sys(err, CLAWMD_EFS, "could not read link '%s/%s'", shown(d, name));
	}
	if ((size_t)n == sizeof(tmp))
		return clawmd_err_set(err, CLAWMD_EFS, "link '%s/%s' has an over-long target",
				      shown(d, name));
	clawmd_buf_put(out, tmp, (size_t)n);
	return 0;
}
