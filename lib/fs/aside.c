/*
 * aside.c - what compose keeps rather than loses (fs.h): moving an entry
 * aside under a preserved name, capped per name with the rest appended to
 * one overflow file; removing a file only when it is provably clawmd's own
 * and nobody holds it open (a lease), keeping it aside otherwise; appending
 * to a file without replacing or following it.
 */
#include "fs/fs.h"
#include "fs/private.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int clawmd_fs_move_aside(char **newname, const struct clawmd_dir *d, const char *name,
			 struct clawmd_err *err)
{
	return clawmd_fs_move_aside_as(newname, d, name, name, err);
}

/* "<as>.clawmd-preserved-<UTC time>-<random>"; `past` the cap,
 * "<as>.clawmd-preserved-overflow-<UTC time>-<random>". */
static char *preserved_name(const char *as, bool past)
{
	char stamp[32], rnd[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	clawmd_fs_temp_name(rnd, sizeof(rnd), "", "", 0);
	return clawmd_xasprintf("%s" CLAWMD_PRESERVED_MARK "%s%s-%.6s", as,
				past ? CLAWMD_PRESERVED_OVERFLOW "-" : "", stamp, rnd + 2);
}

/*
 * Give what compose kept aside the group directory's owner, when running as
 * root: what the agent churns then counts against its own quota, and is
 * its to review and delete (issue 42: 24,580 root-owned entries after a
 * soak).  Only a regular file with no other link (a planted hard link to
 * somebody else's file is never given away), a symlink or a directory, and
 * by the descriptor of what was checked, not by its name again.  Best
 * effort: the content is kept either way.
 */
static void own_kept(const struct clawmd_dir *d, const char *name)
{
	struct stat ds, st;
	if (geteuid() != 0 || fstat(d->fd, &ds) < 0)
		return;
	int pfd = openat(d->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return;
	if (fstat(pfd, &st) == 0 && (st.st_uid != ds.st_uid || st.st_gid != ds.st_gid) &&
	    (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode) ||
	     (S_ISREG(st.st_mode) && st.st_nlink == 1)) &&
	    fchownat(pfd, "", ds.st_uid, ds.st_gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
		/* kept, under root's name: 'clawmd check' still lists it */
	}
	close(pfd);
}

/* The same for a file clawmd just created and still holds open. */
static void own_kept_fd(const struct clawmd_dir *d, int fd)
{
	struct stat ds, st;
	if (geteuid() == 0 && fstat(d->fd, &ds) == 0 && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    (st.st_uid != ds.st_uid || st.st_gid != ds.st_gid) &&
	    fchown(fd, ds.st_uid, ds.st_gid) < 0) {
		/* best effort, as own_kept */
	}
}

static int move_aside_raw(char **newname, const struct clawmd_dir *d, const char *name,
			  const char *as, bool past, struct clawmd_err *err)
{
	*newname = NULL;
	for (int tries = 0; tries < 8; tries++) {
		char *to = preserved_name(as, past);
		if (renameat2(d->fd, name, d->fd, to, RENAME_NOREPLACE) == 0) {
			own_kept(d, to);
			*newname = to;
			return 0;
		}
		int e = errno;
		free(to);
		if (e != EEXIST) {
			errno = e;
			return clawmd_err_sys(err, CLAWMD_EFS, "could not move '%s/%s' aside",
					      shown(d, name));
		}
	}
	return clawmd_err_set(err, CLAWMD_EFS, "could not find a free name to move '%s/%s' aside",
			      shown(d, name));
}

/* How many entries "<as>.clawmd-preserved-*" wait in `d` (the overflow
 * file and what went past the cap not counted); the names of what went
 * past the cap in *past (NULL-terminated, caller frees).  Only listed when
 * something is moved aside: a no-op compose never lists the group
 * directory. */
static size_t preserved_count(char ***past, const struct clawmd_dir *d, const char *as)
{
	char *prefix = clawmd_xasprintf("%s" CLAWMD_PRESERVED_MARK CLAWMD_PRESERVED_OVERFLOW, as);
	size_t n = 0, np = 0, cap = 0, pl = strlen(prefix) - (sizeof(CLAWMD_PRESERVED_OVERFLOW) - 1);
	DIR *dir = clawmd_fs_list(d->fd);
	struct dirent *e;
	*past = NULL;
	while (dir && (e = readdir(dir))) {
		if (strncmp(e->d_name, prefix, pl))
			continue;
		if (strncmp(e->d_name, prefix, strlen(prefix))) {
			n++;
		} else if (e->d_name[strlen(prefix)] == '-') {
			clawmd_xgrow(past, &cap, np + 2, sizeof(**past));
			(*past)[np++] = clawmd_xstrdup(e->d_name);
			(*past)[np] = NULL;
		}
	}
	if (dir)
		closedir(dir);
	free(prefix);
	return n;
}

static int remove_own(char **preserved, const struct clawmd_dir *d, const char *name,
		      const char *as, clawmd_fs_ours_fn ours, void *payload, bool capped,
		      struct clawmd_err *err);

/* Appending a file's content to "<as>.clawmd-preserved-overflow". */
struct overflow {
	const struct clawmd_dir *d;
	const char *as;
	const char *what; /* NULL: a file's content */
	char *name;
	bool done;
};

/* An `ours` for remove_own(): the content is appended to the overflow
 * file (created 0600 if missing, else opened by clawmd_fs_open_read() with
 * CLAWMD_FS_APPEND: a regular file with one link, never a planted symlink
 * or FIFO), fsynced, and only then judged removable.  Anything that fails
 * keeps the file. */
static bool append_overflow(const char *data, size_t len, void *payload)
{
	struct overflow *o = payload;
	struct stat st;
	char stamp[32], head[256];
	time_t now = time(NULL);
	struct tm tm;
	free(o->name);
	o->name = clawmd_xasprintf("%s" CLAWMD_PRESERVED_MARK CLAWMD_PRESERVED_OVERFLOW, o->as);
	int fd = openat(o->d->fd, o->name, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW |
					       O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		fd = clawmd_fs_open_read(o->d->fd, o->name, CLAWMD_FS_NOFOLLOW | CLAWMD_FS_APPEND, &st);
	if (fd < 0)
		return false;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	int hl = snprintf(head, sizeof(head),
			  "\n----- clawmd: %s (%s) moved aside %s: %d entries moved aside as %s "
			  "already wait for review, so it is kept here -----\n",
			  o->as, o->what ? o->what : "a file, its content follows", stamp,
			  CLAWMD_PRESERVED_CAP, o->as);
	bool ok = clawmd_fs_write_all(fd, head, (size_t)hl) == 0 && clawmd_fs_write_all(fd, data, len) == 0 &&
		  fsync(fd) == 0;
	own_kept_fd(o->d, fd);
	ok &= close(fd) == 0;
	o->done = ok;
	return ok;
}

static int lease_take(int fd);

/* Whether `name` is a regular file somebody holds open for writing (or
 * cannot be told: then it counts as open).  Asked before its content is
 * appended anywhere, so that what stays open is not appended again and
 * again. */
static bool open_for_writing(const struct clawmd_dir *d, const char *name)
{
	struct stat st;
	int fd = clawmd_fs_open_read(d->fd, name, CLAWMD_FS_NOFOLLOW, &st);
	if (fd < 0)
		return true;
	bool busy = st.st_nlink != 1 || lease_take(fd) != 0;
	close(fd);
	return busy;
}

/*
 * Past the cap, a symlink or an empty directory holds nothing but its
 * target or its name: taken under a fresh temp name of clawmd's first (the
 * agent cannot swap something else in under it), recorded in the overflow
 * file, and removed.  A directory with anything in it, or whatever else
 * came to be under the name meanwhile, is moved aside past the cap.
 */
static int coalesce_other(char **kept, struct overflow *o, const char *name,
			  struct clawmd_err *err)
{
	const struct clawmd_dir *d = o->d;
	char tmp[64], target[4096], what[4200];
	struct stat st;
	clawmd_fs_temp_name(tmp, sizeof(tmp), o->as, name, strlen(name));
	if (renameat2(d->fd, name, d->fd, tmp, RENAME_NOREPLACE) < 0)
		return move_aside_raw(kept, d, name, o->as, true, err);
	if (fstatat(d->fd, tmp, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* gone: nothing to keep */
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlinkat(d->fd, tmp, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			snprintf(what, sizeof(what), "a symlink to '%s'", target);
			o->what = what;
			if (append_overflow("", 0, o) && unlinkat(d->fd, tmp, 0) == 0)
				return 0;
		}
	} else if (S_ISDIR(st.st_mode)) {
		o->what = "an empty directory";
		if (unlinkat(d->fd, tmp, AT_REMOVEDIR) == 0) {
			append_overflow("", 0, o);
			return 0;
		}
	}
	o->done = false;
	return move_aside_raw(kept, d, tmp, o->as, true, err);
}

/*
 * Move `name` aside.  What the agent churns (the same name moved aside
 * again and again) is bounded: once CLAWMD_PRESERVED_CAP entries moved
 * aside as `as` wait, a regular file's content is appended to the one
 * overflow file "<as>.clawmd-preserved-overflow" instead, and the file
 * removed as clawmd_fs_remove_own removes (never while anyone may write to
 * it: then it is moved aside past the cap); a symlink (its target) or an
 * empty directory is recorded there and removed (coalesce_other).  A
 * directory with content, a device, FIFO or socket, or a file over
 * CLAWMD_FS_STAGED_MAX cannot be appended, and is moved aside past the
 * cap, with the same warning.
 */
int clawmd_fs_move_aside_as(char **newname, const struct clawmd_dir *d, const char *name,
			    const char *as, struct clawmd_err *err)
{
	*newname = NULL;
	char **past;
	size_t n = preserved_count(&past, d, as);
	struct overflow o = {d, as, NULL, NULL, false};
	char *kept = NULL;
	struct stat st;
	int rc;
	/* What went past the cap before, open for writing then, is appended
	 * to the overflow file once nobody writes to it any more (else kept
	 * as it is): over time, the cap holds for those too. */
	for (size_t i = 0; past && past[i]; i++) {
		if (n >= CLAWMD_PRESERVED_CAP && !open_for_writing(d, past[i]) &&
		    remove_own(&kept, d, past[i], NULL, append_overflow, &o, true, NULL) == 0) {
			free(kept);
			kept = NULL;
		}
		free(past[i]);
	}
	free(past);
	free(o.name);
	o = (struct overflow){d, as, NULL, NULL, false};
	if (n < CLAWMD_PRESERVED_CAP)
		return move_aside_raw(newname, d, name, as, false, err);
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		st.st_mode = 0; /* gone: remove_own finds nothing */
	if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
		rc = coalesce_other(&kept, &o, name, err);
	else if (S_ISREG(st.st_mode) && open_for_writing(d, name)) /* its writes land in it */
		rc = move_aside_raw(&kept, d, name, as, true, err);
	else
		rc = remove_own(&kept, d, name, as, append_overflow, &o, true, err);
	if (kept) { /* kept under a name of its own, past the cap */
		free(o.name);
		*newname = kept;
	} else if (o.done) {
		*newname = o.name;
	} else { /* nothing there any more, or an empty file: nothing to keep */
		free(o.name);
	}
	return rc;
}

/* Copy what is left in `fd` (a file just unlinked, written to meanwhile)
 * into a fresh preserved file named after `as`; bounded. */
static int copy_out(char **newname, const struct clawmd_dir *d, int fd, const char *as,
		    bool past, struct clawmd_err *err)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	int rc = 0, out = -1;
	for (;;) {
		clawmd_buf_grow(&b, 65536);
		ssize_t n = pread(fd, b.ptr + b.len, b.cap - b.len - 1, (off_t)b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || b.len + (size_t)n > CLAWMD_FS_STAGED_MAX)
			break;
		b.len += (size_t)n;
	}
	for (int tries = 0; tries < 8 && out < 0; tries++) {
		free(*newname);
		*newname = preserved_name(as, past);
		out = openat(d->fd, *newname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     0600);
		if (out < 0 && errno != EEXIST)
			break;
	}
	if (out < 0 || clawmd_fs_write_all(out, b.ptr ? b.ptr : "", b.len) < 0 || fsync(out) < 0)
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not keep what was written to '%s/%s'",
				    d->path, as);
	if (out >= 0)
		own_kept_fd(d, out);
	if (out >= 0 && close(out) < 0 && rc == 0)
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not keep what was written to '%s/%s'",
				    d->path, as);
	if (rc < 0 && out < 0) { /* nothing was created under that name */
		free(*newname);
		*newname = NULL;
	}
	clawmd_buf_release(&b);
	return rc;
}

enum verdict { GONE, OWN_LINK, OWN_FILE, FOREIGN };

/* Judge what `name` holds; for OWN_FILE, *fdp is left open on it, with its
 * stat and the bytes read; for OWN_LINK, *st is the link's.  *dig: the
 * digest of what was judged ours (the bytes, or the link's target). */
static enum verdict judge(int *fdp, struct stat *st, size_t *len, uint32_t *dig,
			  const struct clawmd_dir *d, const char *name, clawmd_fs_ours_fn ours,
			  void *payload)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	enum verdict v = FOREIGN;
	struct stat pre;
	*fdp = -1;
	/* A device, FIFO or socket is not ours and is never opened. */
	if (fstatat(d->fd, name, &pre, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? GONE : FOREIGN;
	if (!S_ISREG(pre.st_mode) && !S_ISLNK(pre.st_mode))
		return FOREIGN;
	int fd = clawmd_fs_open_read(d->fd, name, CLAWMD_FS_NOFOLLOW, st);
	if (fd == -ENOENT)
		return GONE;
	if (fd == -ELOOP) {
		char target[4096];
		ssize_t n = readlinkat(d->fd, name, target, sizeof(target));
		if (n <= 0 || (size_t)n >= sizeof(target) || !clawmd_fs_staged_content(name, target, (size_t)n))
			return FOREIGN;
		*st = pre;
		*dig = clawmd_fs_digest32(target, (size_t)n);
		return OWN_LINK;
	}
	/* Never read: what is not a regular file, what is larger than clawmd
	 * ever stages, and what has other hard links (a staged temp has
	 * none), so planted links to one big file cost a stat each. */
	if (fd < 0 || fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_nlink != 1 ||
	    (uintmax_t)st->st_size > CLAWMD_FS_STAGED_MAX)
		goto out;
	for (;;) {
		clawmd_buf_grow(&b, 65536);
		ssize_t n = read(fd, b.ptr + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		b.len += (size_t)n;
		if (b.len > CLAWMD_FS_STAGED_MAX)
			goto out;
	}
	if (clawmd_fs_staged_content(name, b.ptr, b.len) || (ours && ours(b.ptr ? b.ptr : "", b.len, payload))) {
		v = OWN_FILE;
		*len = b.len;
		*dig = clawmd_fs_digest32(b.ptr ? b.ptr : "", b.len);
		*fdp = fd;
		fd = -1;
	}
out:
	if (fd >= 0)
		close(fd);
	clawmd_buf_release(&b);
	return v;
}

bool clawmd_fs_is_own(const struct clawmd_dir *d, const char *name, clawmd_fs_ours_fn ours,
		      void *payload)
{
	struct stat st;
	size_t len;
	uint32_t dig;
	int fd;
	enum verdict v = judge(&fd, &st, &len, &dig, d, name, ours, payload);
	if (fd >= 0)
		close(fd);
	return v != FOREIGN;
}

/*
 * The kernel leases a file to its owner or to a holder of CAP_LEASE, which
 * root lacks in a container with docker's default capabilities (where it
 * keeps CAP_SETUID): the lease is asked for again as the file's owner.
 * setfsuid(2) changes the calling thread's file-system uid alone (glibc
 * does not carry it to the other threads, as it does setuid's), and only
 * for this one fcntl; a thread that cannot take the uid gets EACCES.
 */
static int lease_as_owner(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	uid_t was = (uid_t)setfsuid(st.st_uid);
	int rc = -1, e = EACCES;
	if ((uid_t)setfsuid((uid_t)-1) == st.st_uid) {
		rc = fcntl(fd, F_SETLEASE, F_RDLCK);
		e = errno;
	}
	setfsuid(was);
	errno = e;
	return rc;
}

/*
 * Whether anybody holds the file of `fd` (opened read-only) open for
 * writing, asked the one way that also holds it so: a read lease
 * (fcntl F_SETLEASE F_RDLCK) is refused while the file is open for writing
 * anywhere, and while it is held, an open for writing (or a truncate)
 * waits until it is released, and shows as a lease break (F_GETLEASE).
 * 0: held, nobody writes; 1: open for writing somewhere; -1: no lease here
 * (a file system without leases, NFS or some FUSE; clawmd neither the
 * file's owner nor allowed to act as it: EACCES).
 * A lease break is signalled to the holder, SIGIO by default, which ends a
 * process that does not expect it (a host of the library): SIGURG (ignored
 * by default) is asked for instead, and the descriptor is given no owner,
 * so no signal is sent at all once the lease is taken.
 */
static int lease_take(int fd)
{
	if (fcntl(fd, F_SETSIG, SIGURG) < 0)
		return -1;
	if (fcntl(fd, F_SETLEASE, F_RDLCK) < 0 && (errno != EACCES || lease_as_owner(fd) < 0))
		return errno == EAGAIN ? 1 : -1;
	if (fcntl(fd, F_SETOWN, 0) < 0) {
		/* the signal stays SIGURG: ignored unless the host wants it */
	}
	return 0;
}

/* Somebody is opening the leased file for writing: its open waits for us. */
static bool lease_broken(int fd)
{
	return fcntl(fd, F_GETLEASE) != F_RDLCK;
}

/*
 * Remove `name` only when what it holds is provably clawmd's own; move
 * anything else aside.  Why each step:
 *  1. open without following and read through that fd (bounded): the
 *     verdict is about one inode, not about whatever the name means later;
 *  2. ours: empty, or the digest in its temp name matches, or `ours` says
 *     so (e.g. an unedited composed CLAUDE.md); a symlink: its target's
 *     digest.  A non-regular file or one over CLAWMD_FS_STAGED_MAX is not
 *     ours and is not read;
 *  3. nobody may write to it: an agent that holds the file open for
 *     writing (an editor, a tool appending to its memory) writes to the
 *     inode, not the name, and what it writes after an unlink is found
 *     nowhere (issue 42).  A read lease (lease_take) tells, and holds
 *     every new open for writing off until the unlink is done; a file open
 *     for writing, or being opened so, is kept: moved aside under `as`
 *     (left in place when `as` is NULL), where the writes land;
 *  4. no system call unlinks only a given inode, and the agent can rename
 *     a file of its own onto the name between any check and an unlink:
 *     so the name is first taken, renamed to a fresh temp of clawmd's
 *     (unpredictable, and named by the digest of what was judged, so that
 *     a run killed before the unlink leaves a temp the next one removes),
 *     and only the inode that rename took is removed when it is the one
 *     judged; another (the agent's) goes back to the name, or aside when
 *     the name is taken or `as` asks for it.  After the unlink, the fd
 *     shows whether it was written in between (before the lease, or where
 *     there is none): if so, what was written is copied out under a
 *     preserved name, not lost.
 * `capped`: called by clawmd_fs_move_aside_as() past the cap, so what is
 * kept is moved aside without counting again.
 */
static int keep_aside(char **preserved, const struct clawmd_dir *d, const char *name,
		      const char *as, bool capped, struct clawmd_err *err)
{
	return capped ? move_aside_raw(preserved, d, name, as, true, err)
		      : clawmd_fs_move_aside_as(preserved, d, name, as, err);
}

static int remove_own(char **preserved, const struct clawmd_dir *d, const char *name,
		      const char *as, clawmd_fs_ours_fn ours, void *payload, bool capped,
		      struct clawmd_err *err)
{
	struct stat st, now;
	size_t len = 0;
	uint32_t dig = 0;
	int fd, rc = 0;
	char tmp[64];
	*preserved = NULL;
	enum verdict v = judge(&fd, &st, &len, &dig, d, name, ours, payload);
	if (v == GONE)
		return 0;
	if (v == FOREIGN) /* not provably ours: kept, under a preserved name when asked */
		return as ? keep_aside(preserved, d, name, as, capped, err) : 0;
	/* 3: nobody writes to it, and nobody starts to until it is gone */
	int lease = v == OWN_FILE ? lease_take(fd) : -1;
	if (lease == 1) {
		rc = as ? keep_aside(preserved, d, name, as, capped, err) : 0;
		goto out;
	}
	/* 4: take the name (a temp's under its own base name, which the next
	 * compose knows for its leftover) */
	char b32[32];
	const char *base = clawmd_fs_temp_of(b32, name);
	int taken = -1;
	for (int tries = 0; tries < 8 && taken < 0; tries++) {
		clawmd_fs_temp_name_digest(tmp, sizeof(tmp), base ? base : name, dig);
		if (renameat2(d->fd, name, d->fd, tmp, RENAME_NOREPLACE) == 0)
			taken = 1;
		else if (errno != EEXIST)
			break;
	}
	/* Without the rename (no RENAME_NOREPLACE here, a full directory),
	 * the name itself is checked just before the unlink: the window stays
	 * open there, as a cleanup must still remove what it staged. */
	const char *victim = taken > 0 ? tmp : name;
	if (taken < 0 && errno == ENOENT) {
		rc = 0; /* gone meanwhile */
	} else if (fstatat(d->fd, victim, &now, AT_SYMLINK_NOFOLLOW) < 0 ||
		   now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
		/* The name held another file when it was taken: somebody's,
		 * back under its name, else aside. */
		if (taken > 0 && !as && renameat2(d->fd, tmp, d->fd, name, RENAME_NOREPLACE) == 0)
			rc = 0;
		else if (taken > 0 || as)
			rc = keep_aside(preserved, d, victim, as ? as : name, capped, err);
		if (rc < 0 && errno == ENOENT)
			rc = 0; /* gone meanwhile */
	} else if (lease == 0 && lease_broken(fd)) {
		/* 3: an open for writing waits on it: kept where it lands */
		rc = taken > 0 || as ? keep_aside(preserved, d, victim, as ? as : name, capped, err) : 0;
	} else if (unlinkat(d->fd, victim, 0) < 0 && errno != ENOENT) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not remove '%s/%s'", shown(d, name));
	} else if (v == OWN_FILE && fstat(fd, &now) == 0 &&
		   (now.st_size != (off_t)len || now.st_mtim.tv_sec != st.st_mtim.tv_sec ||
		    now.st_mtim.tv_nsec != st.st_mtim.tv_nsec)) {
		rc = copy_out(preserved, d, fd, as ? as : name, capped, err);
	}
out:
	if (fd >= 0)
		close(fd); /* and with it the lease */
	return rc;
}

int clawmd_fs_remove_own(char **preserved, const struct clawmd_dir *d, const char *name,
			 const char *as, clawmd_fs_ours_fn ours, void *payload,
			 struct clawmd_err *err)
{
	return remove_own(preserved, d, name, as, ours, payload, false, err);
}

int clawmd_fs_append_empty(const struct clawmd_dir *d, const char *name, const void *data,
			   size_t len, struct clawmd_err *err)
{
	struct stat st; /* never replacing or following anything, one link */
	int fd = clawmd_fs_open_read(d->fd, name, CLAWMD_FS_NOFOLLOW | CLAWMD_FS_APPEND, &st);
	if (fd == -ENOENT || fd == -ELOOP || fd == -EISDIR || fd == -ENODEV || fd == -EMLINK ||
	    fd == -EAGAIN)
		return 1;
	if (fd == -EOPNOTSUPP)
		return clawmd_err_set(err, CLAWMD_EFS,
				      "could not open '%s/%s' safely: /proc is not mounted (a file "
				      "is opened for writing in place only through /proc/self/fd)",
				      shown(d, name));
	if (fd < 0) {
		errno = -fd;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open '%s/%s'", shown(d, name));
	}
	if (st.st_size != 0) { /* written since it was seen empty: not ours to fill */
		close(fd);
		return 1;
	}
	/* One write where it fits (O_APPEND: after anything the agent appends
	 * meanwhile, never into it), then fsync: the text exists nowhere else
	 * once the entry it came from is replaced. */
	int failed = clawmd_fs_write_all(fd, data, len) < 0 || fsync(fd) < 0;
	int saved = errno;
	if (close(fd) < 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (failed) {
		errno = saved;
		return clawmd_err_sys(err, CLAWMD_EFS, "could not write '%s/%s'", shown(d, name));
	}
	return 0;
}
