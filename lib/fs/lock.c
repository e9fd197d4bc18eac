/*
 * lock.c - the per-name locks under clawmd's host-only state directory, and
 * that directory's ".gitignore" (fs.h).
 */
#include "fs/fs.h"
#include "fs/private.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * The directory above a lock directory is clawmd's host-only state (locks,
 * records, the layout cache): nothing in it is for a repository.  The state
 * directory has a ".gitignore" of "*", so git ignores it wherever it lives,
 * with no line in the user's .gitignore (what clawmd creates, it makes
 * ignored).  Why this way:
 *  1. written before the lock directory is first made, and checked again
 *     at every lock taken here (one fstatat through the lock directory's
 *     ".."; a no-op compose takes its lock without coming here): a run
 *     killed in between, or a file left empty by a full file system (or by
 *     a version that wrote it in place), is mended by the next migrate or
 *     first compose of a group, and by every migrate that may write (a host
 *     start: clawmd_fs_ignore_state) (issue 28 item 10);
 *  2. staged and renamed as every file is (the one primitive): there is
 *     the whole file or none, never an empty one; not synced (a spawn pays
 *     no extra fsync): what a power cut can cost is an empty file, which
 *     the next lock mends (1);
 *  3. a file that is there with content is the user's, left alone;
 *  4. a temp a killed run staged for it is removed before the next one is
 *     staged (the state directory is host-only: nothing there is anyone
 *     else's);
 *  5. best effort: a lock must not fail for it.
 */
static bool ignore_wanted(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode) && st.st_size == 0;
}

/* STATE/.gitignore written into the open state directory (4, 2). */
static void ignore_write(const struct clawmd_dir *sd)
{
	DIR *d = clawmd_fs_list(sd->fd);
	struct dirent *e;
	char base[32];
	while (d && (e = readdir(d))) {
		const char *of = clawmd_fs_temp_of(base, e->d_name);
		if (of && !strcmp(of, ".gitignore"))
			unlinkat(sd->fd, e->d_name, 0);
	}
	if (d)
		closedir(d);
	struct clawmd_stage st;
	if (clawmd_fs_stage_file_unsynced(&st, sd, ".gitignore", "*\n", 2, NULL) == 0)
		clawmd_fs_commit(&st, NULL);
	clawmd_fs_stage_release(&st);
}

void clawmd_fs_ignore_state(const char *state)
{
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	if (clawmd_dir_open(&sd, state, NULL) == 0 && ignore_wanted(sd.fd, ".gitignore"))
		ignore_write(&sd);
	clawmd_dir_release(&sd);
}

static void ignore_self(const char *lockdir)
{
	const char *slash = strrchr(lockdir, '/');
	if (!slash || slash == lockdir)
		return;
	char *state = clawmd_xstrndup(lockdir, (size_t)(slash - lockdir));
	if (clawmd_fs_mkdirs(state, NULL) == 0)
		clawmd_fs_ignore_state(state);
	free(state);
}

int clawmd_fs_lock(int *fd_out, const char *lockdir, const char *name, double timeout,
		   struct clawmd_err *err)
{
	*fd_out = -1;
	int fd = -1;
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	int rc = 0;
	/* Open first without O_CREAT: the common case then makes no change. */
	if (clawmd_dir_open(&d, lockdir, NULL) < 0) {
		ignore_self(lockdir);
		if ((rc = clawmd_fs_mkdirs(lockdir, err)) < 0 ||
		    (rc = clawmd_dir_open(&d, lockdir, err)) < 0)
			return rc;
	} else if (ignore_wanted(d.fd, "../.gitignore")) {
		ignore_self(lockdir);
	}
	/* flock() needs no write access: read-only keeps the no-op compose
	 * free of any open for writing. */
	fd = openat(d.fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = openat(d.fd, name, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not open lock '%s/%s'", lockdir, name);
		goto out_dir;
	}
	/* A FIFO or device there would hang or mislead every compose (opened
	 * without blocking, to be told). */
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = clawmd_err_set(err, CLAWMD_EFS, "lock '%s/%s' is not a regular file; remove it",
				    lockdir, name);
		goto out_close;
	}
	/* Poll with a short, growing sleep: flock() itself has no timeout. */
	struct timespec start, now, nap = {0, 1000000};
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not lock '%s/%s'", lockdir, name);
			goto out_close;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		double waited = (double)(now.tv_sec - start.tv_sec) +
				(double)(now.tv_nsec - start.tv_nsec) / 1e9;
		if (waited >= timeout) {
			rc = clawmd_err_set(err, CLAWMD_ELOCK,
					    "timed out after %gs waiting for lock '%s/%s'; another "
					    "clawmd holds it", timeout, lockdir, name);
			goto out_close;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 50000000)
			nap.tv_nsec *= 2;
	}
	*fd_out = fd;
	fd = -1;
out_close:
	if (fd >= 0)
		close(fd);
out_dir:
	clawmd_dir_release(&d);
	return rc;
}
