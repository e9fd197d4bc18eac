/*
 * watchdir.h - where the tests of the watched pass build their trees.
 *
 * The watched pass trusts inotify only on the filesystems whose every change
 * this kernel makes on the watched inode (lib/compose/watch.c, fs_local();
 * doc/compose.md): ext4, xfs, btrfs, tmpfs, ramfs, f2fs, zfs.  On any other
 * (overlayfs: /tmp in a Docker or CI container; NFS, 9p, FUSE) it answers
 * by stats at every call, by design.  So a test of the memo must build its
 * tree on a trusted filesystem, wherever make check runs, and a test of the
 * documented fallback on an untrusted one; neither may depend on what the
 * caller's TMPDIR happens to be.
 *
 *   watchdir_trusted(dir, n, "clawmd-watch")  a fresh directory on a trusted
 *       filesystem: $TMPDIR, /tmp, /var/tmp, /dev/shm, the build directory,
 *       $HOME, the first that is one; else a tmpfs the test mounts itself in
 *       a private mount namespace (root, or an unprivileged user namespace).
 *       Where none can be had it ends the test with a TAP skip that says
 *       what to do (it never silently tests less).
 *   watchdir_overlay(dir, n, lower_of)  a fresh directory on overlayfs: an
 *       overlayfs TMPDIR or /tmp as found, else one the test mounts over
 *       directories in `lower_of` (a trusted one) in a private mount
 *       namespace; NULL with the reason in dir when neither can be had.
 *
 * The list of trusted types is the test's own copy: when the library's
 * changes, these tests fail rather than follow it.
 */
#ifndef CLAWMD_WATCHDIR_H
#define CLAWMD_WATCHDIR_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define WATCHDIR_OVERLAYFS 0x794C7630L

static inline bool watchdir_is_trusted(long type)
{
	switch ((unsigned long)type & 0xffffffffUL) {
	case 0xEF53:	 /* ext2, ext3, ext4 */
	case 0x58465342: /* xfs */
	case 0x9123683E: /* btrfs */
	case 0x01021994: /* tmpfs */
	case 0x858458F6: /* ramfs */
	case 0xF2F52010: /* f2fs */
	case 0x2FC12FC1: /* zfs */
		return true;
	}
	return false;
}

/* The filesystem type of dir, or 0 when it cannot be written or stat'ed. */
static inline long watchdir_type(const char *dir)
{
	struct statfs sf;
	if (!dir || !*dir || access(dir, W_OK | X_OK) < 0 || statfs(dir, &sf) < 0)
		return 0;
	return (long)sf.f_type;
}

static inline bool watchdir_make(char *out, size_t n, const char *parent, const char *name)
{
	snprintf(out, n, "%s/%s.XXXXXX", parent, name);
	return mkdtemp(out) != NULL;
}

static inline bool watchdir_write(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	if (fd < 0)
		return false;
	bool ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) == 0 && ok;
}

/* A private mount namespace: as root one of our own; otherwise an
 * unprivileged user namespace in which we are root (Linux 5.11 or later
 * lets such a namespace mount tmpfs and overlayfs). */
static inline bool watchdir_unshare(void)
{
	static int done;
	if (done)
		return done > 0;
	done = -1;
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (uid == 0) {
		if (unshare(CLONE_NEWNS) < 0)
			return false;
	} else {
		char map[64];
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return false;
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
		if (!watchdir_write("/proc/self/uid_map", map))
			return false;
		watchdir_write("/proc/self/setgroups", "deny\n");
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
		if (!watchdir_write("/proc/self/gid_map", map))
			return false;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return false;
	done = 1;
	return true;
}

static inline void watchdir_trusted(char *out, size_t n, const char *name)
{
	const char *cands[] = {getenv("TMPDIR"), "/tmp", "/var/tmp", "/dev/shm", getenv("CLAWMD_BUILD"),
			       getenv("HOME")};
	for (size_t i = 0; i < sizeof(cands) / sizeof(*cands); i++)
		if (watchdir_is_trusted(watchdir_type(cands[i])) && watchdir_make(out, n, cands[i], name))
			return;
	/* None: a tmpfs of our own over a directory made where we can write. */
	const char *parent = getenv("TMPDIR") && watchdir_type(getenv("TMPDIR")) ? getenv("TMPDIR") : "/tmp";
	int err = 0;
	if (watchdir_make(out, n, parent, name)) {
		/* The tree goes one level down, so that its siblings (a test's
		 * ROOT-skills) are on the tmpfs too. */
		size_t len = strlen(out);
		if (watchdir_unshare() && mount("tmpfs", out, "tmpfs", 0, "size=64m,mode=0700") == 0 &&
		    watchdir_is_trusted(watchdir_type(out)) && len + 3 < n) {
			memcpy(out + len, "/t", 3);
			if (mkdir(out, 0700) == 0)
				return;
		}
		err = errno;
		rmdir(out);
	}
	printf("1..0 # SKIP no directory on a filesystem the watch trusts (ext4, xfs, btrfs, tmpfs, ...): "
	       "TMPDIR, /tmp, /var/tmp, /dev/shm, the build directory and HOME are not, and no tmpfs can be "
	       "mounted here (%s); run with TMPDIR set to one\n",
	       err ? strerror(err) : "no temp directory");
	exit(0);
}

static inline const char *watchdir_overlay(char *out, size_t n, const char *lower_of)
{
	const char *cands[] = {getenv("TMPDIR"), "/tmp", "/var/tmp"};
	for (size_t i = 0; i < sizeof(cands) / sizeof(*cands); i++)
		if (watchdir_type(cands[i]) == WATCHDIR_OVERLAYFS &&
		    watchdir_make(out, n, cands[i], "clawmd-overlay"))
			return out;
	char base[560], opts[2200];
	snprintf(base, sizeof(base), "%.540s/.overlay", lower_of);
	snprintf(opts, sizeof(opts), "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work", base, base, base);
	snprintf(out, n, "%s/merged", base);
	const char *dirs[] = {"", "/lower", "/upper", "/work", "/merged"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		char d[720];
		snprintf(d, sizeof(d), "%s%s", base, dirs[i]);
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			goto fail;
	}
	if (watchdir_unshare() && mount("overlay", out, "overlay", 0, opts) == 0 &&
	    watchdir_type(out) == WATCHDIR_OVERLAYFS)
		return out;
fail:
	snprintf(out, n, "no overlayfs TMPDIR or /tmp here, and none can be mounted (%s)", strerror(errno));
	return NULL;
}

#endif
