/* Unit tests for the safe filesystem primitives. */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"
#include "compose/fragdir.h"
#include "fs/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <unistd.h>

static char base[256];

/* Two rotating buffers, so that path(a) and path(b) can be passed together. */
static char *path(const char *name)
{
	static char p[2][512];
	static int k;
	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", base, name);
	return p[k];
}

static void put(const char *name, const char *s)
{
	FILE *f = fopen(path(name), "w");
	fputs(s, f);
	fclose(f);
}

static int count_entries(void)
{
	int n = 0;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", base);
	FILE *p = popen(cmd, "r");
	if (fscanf(p, "%d", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

int main(void)
{
	snprintf(base, sizeof(base), "%s/clawmd-fs.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(base))
		return 1;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	mode_t t;

	is(clawmd_dir_open(&d, base, &err), 0, "open a real directory");
	test_must(symlink(base, path("link")), "symlink");
	struct clawmd_dir d2 = CLAWMD_DIR_INIT;
	clawmd_err_clear(&err);
	is(clawmd_dir_open(&d2, path("link"), &err), CLAWMD_EFS, "a symlinked directory is refused");
	ok(strstr(err.msg, "is a symlink") != NULL, "refusal says why: %s", err.msg);
	clawmd_err_clear(&err);
	is(clawmd_dir_openat(&d2, &d, "link", true, &err), CLAWMD_EFS, "openat refuses the link too");
	clawmd_err_clear(&err);
	is(clawmd_dir_openat(&d2, &d, "absent", true, &err), 1, "a missing directory may be fine");
	ok(d2.fd == -1 && d2.path && strstr(d2.path, "/absent"), "its path is kept for messages");
	clawmd_dir_release(&d2);

	/* Beneath a directory, following no symlink on the way (init). */
	clawmd_err_clear(&err);
	is(clawmd_dir_open_beneath(&d2, &d, "b1/b2", false, &err), 2, "beneath: missing, not made");
	clawmd_dir_release(&d2);
	is(clawmd_dir_open_beneath(&d2, &d, "b1/b2", true, &err), 1, "beneath: made on the way");
	ok(d2.fd >= 0 && strstr(d2.path, "/b1/b2"), "... and opened");
	clawmd_dir_release(&d2);
	is(clawmd_dir_open_beneath(&d2, &d, "b1/b2", true, &err), 0, "beneath: there already");
	clawmd_dir_release(&d2);
	mkdir(path("outside"), 0755);
	test_must(symlink("../outside", path("b1/ln")), "symlink");
	clawmd_err_clear(&err);
	is(clawmd_dir_open_beneath(&d2, &d, "b1/ln/x", true, &err), CLAWMD_EFS,
	   "beneath: a symlinked component is refused");
	ok(strstr(err.msg, "symlink") != NULL, "... saying why: %s", err.msg);
	ok(access(path("outside/x"), F_OK) != 0, "... and nothing is made through it");
	clawmd_err_clear(&err);
	is(clawmd_dir_open_beneath(&d2, &d, "b1/../..", false, &err), CLAWMD_EFS,
	   "beneath: '..' out of the directory is refused");
	clawmd_err_clear(&err);
	is(clawmd_fs_create_file(&d, "new", "one", 3, &err), 0, "create_file: a new file");
	is(clawmd_fs_create_file(&d, "new", "two", 3, &err), 1, "create_file: never replaces");
	is(clawmd_fs_read(&buf, &d, "new", 100, &err), 0, "... read back");
	ok(buf.len == 3 && !memcmp(buf.ptr, "one", 3), "... the first content stays");
	test_must(symlink("outside/t", path("dangling")), "symlink");
	is(clawmd_fs_create_file(&d, "dangling", "x", 1, &err), 1,
	   "create_file: a dangling symlink counts as there");
	ok(access(path("outside/t"), F_OK) != 0, "... and is not written through");
	unlink(path("new"));
	unlink(path("dangling"));
	unlink(path("b1/ln"));
	rmdir(path("b1/b2"));
	rmdir(path("b1"));
	rmdir(path("outside"));

	/* Atomic replace. */
	put("f", "old");
	struct stat st0, st1;
	stat(path("f"), &st0);
	is(clawmd_fs_replace_file(&d, "f", "new content", 11, &err), 0, "replace a file");
	is(clawmd_fs_read(&buf, &d, "f", 100, &err), 0, "read it back");
	is_str(buf.ptr, "new content", "content replaced");
	stat(path("f"), &st1);
	ok(st0.st_ino != st1.st_ino, "replaced by rename (new inode)");
	is(count_entries(), 2, "no temp file left behind");

	/* A staged change is invisible until committed, and gone if released. */
	struct clawmd_stage s;
	is(clawmd_fs_stage_file(&s, &d, "f", "staged", 6, &err), 0, "stage");
	clawmd_fs_read(&buf, &d, "f", 100, &err);
	is_str(buf.ptr, "new content", "target unchanged while staged");
	ok(s.tmp[0] == '.' && strstr(s.tmp, ".tmp"), "temp name is hidden: %s", s.tmp);
	clawmd_fs_stage_release(&s);
	is(count_entries(), 2, "released stage leaves nothing");
	is(clawmd_fs_stage_link(&s, &d, "l", "/app/x", &err), 0, "stage a symlink");
	is(clawmd_fs_commit(&s, &err), 0, "commit it");
	clawmd_fs_stage_release(&s);
	is(clawmd_fs_readlink(&buf, &d, "l", &err), 0, "read the link");
	is_str(buf.ptr, "/app/x", "link target");
	clawmd_err_clear(&err);
	is(clawmd_fs_readlink(&buf, &d, "f", &err), CLAWMD_EFS, "readlink of a file is an error");

	/* Reading refuses what could be planted. */
	put("target", "secret");
	test_must(symlink(path("target"), path("sym")), "symlink");
	clawmd_err_clear(&err);
	is(clawmd_fs_read(&buf, &d, "sym", 100, &err), CLAWMD_EFS, "read refuses a symlink");
	mkfifo(path("fifo"), 0644);
	clawmd_err_clear(&err);
	is(clawmd_fs_read(&buf, &d, "fifo", 100, &err), CLAWMD_EFS, "read refuses a FIFO without blocking");
	clawmd_err_clear(&err);
	is(clawmd_fs_read(&buf, &d, "f", 5, &err), CLAWMD_EINPUT, "read caps the size");
	ok(strstr(err.msg, "larger than 5 bytes") != NULL, "size message: %s", err.msg);
	is(clawmd_fs_read(&buf, &d, "nothing", 5, &err), 1, "a missing file is 1");
	is(clawmd_fs_type(&t, &d, "sym", &err), 0, "type of a link");
	ok(t == S_IFLNK, "lstat semantics");

	/* create_empty never follows a link. */
	test_must(symlink(path("newtarget"), path("dangling")), "symlink");
	is(clawmd_fs_create_empty(&d, "dangling", &err), 1, "create_empty over a dangling link: exists");
	ok(access(path("newtarget"), F_OK) != 0, "nothing created through the link");
	is(clawmd_fs_create_empty(&d, "empty", &err), 0, "create_empty");

	/* move_aside never replaces. */
	char *moved = NULL;
	is(clawmd_fs_move_aside(&moved, &d, "target", &err), 0, "move aside");
	ok(moved && !strncmp(moved, "target.clawmd-preserved-", 24), "quarantine name: %s", moved);
	clawmd_fs_read(&buf, &d, moved, 100, &err);
	is_str(buf.ptr, "secret", "content kept under the new name");
	free(moved);
	put("a", "A");
	put("b", "B");
	clawmd_err_clear(&err);
	is(clawmd_fs_rename_noreplace(&d, "a", "b", &err), CLAWMD_EFS, "rename_noreplace refuses to clobber");
	clawmd_fs_read(&buf, &d, "b", 100, &err);
	is_str(buf.ptr, "B", "the destination survived");

	/* Locks: a second holder waits, then times out with ELOCK. */
	int l1 = -1, l2 = -1;
	clawmd_err_clear(&err);
	is(clawmd_fs_lock(&l1, path("locks"), "g", 1, &err), 0, "take a lock (creating its dir)");
	clawmd_err_clear(&err);
	is(clawmd_fs_lock(&l2, path("locks"), "g", 0.05, &err), CLAWMD_ELOCK, "a held lock times out");
	ok(strstr(err.msg, "timed out") != NULL, "timeout message: %s", err.msg);
	close(l1);
	clawmd_err_clear(&err);
	is(clawmd_fs_lock(&l2, path("locks"), "g", 0.05, &err), 0, "free once released");
	close(l2);

	/* Two listings of one directory held open each see all of it (a
	 * dup() would share the offset: the second would see nothing). */
	mkdir(path("ls"), 0755);
	put("ls/a", "a");
	struct clawmd_dir ls = CLAWMD_DIR_INIT;
	clawmd_dir_open(&ls, path("ls"), &err);
	for (int pass = 1; pass <= 2; pass++) {
		DIR *dir = clawmd_fs_list(ls.fd);
		int seen = 0;
		for (struct dirent *de; dir && (de = readdir(dir));)
			seen += !strcmp(de->d_name, "a");
		if (dir)
			closedir(dir);
		is(seen, 1, "listing %d of a held directory sees its file", pass);
	}
	clawmd_dir_release(&ls);

	/* A stale fragment directory the agent replaced with a file: the file
	 * is its content, moved aside, not removed (DESIGN 2.5). */
	mkdir(path("frag"), 0755);
	put("frag/skill-gone", "the agent's notes");
	struct clawmd_dir fr = CLAWMD_DIR_INIT;
	clawmd_dir_open(&fr, path("frag"), &err);
	is(clawmd_fragdir_remove(&fr, "skill-gone", &err), 0, "a file at a stale fragment directory's name");
	ok(access(path("frag/skill-gone"), F_OK) < 0, "... is gone from its name");
	char pcmd[700];
	snprintf(pcmd, sizeof(pcmd), "grep -qx \"the agent's notes\" '%s'/skill-gone.clawmd-preserved-*",
		 path("frag"));
	is(system(pcmd), 0, "... and kept, moved aside");
	mkdir(path("frag/skill-old"), 0755);
	put("frag/skill-old/a.md", "ours");
	is(clawmd_fragdir_remove(&fr, "skill-old", &err), 0, "a stale fragment directory of files");
	ok(access(path("frag/skill-old"), F_OK) < 0, "... is removed");
	clawmd_dir_release(&fr);

	/* Errors keep the first one. */
	struct clawmd_err e = CLAWMD_ERR_INIT;
	clawmd_err_set(&e, CLAWMD_EINPUT, "first");
	clawmd_err_set(&e, CLAWMD_EFS, "second");
	is_str(e.msg, "first", "the first error wins");
	is(clawmd_exit_status(CLAWMD_ELOCK), 5, "ELOCK exits 5");
	is(clawmd_exit_status(CLAWMD_EUSAGE), 2, "EUSAGE exits 2");

	/* The one open for reading (clawmd_fs_open_read): O_PATH first, only
	 * a regular file reopened, as the same inode. */
	struct stat ost, fst;
	put("reg", "regular\n");
	int rfd = clawmd_fs_open_read(d.fd, "reg", CLAWMD_FS_NOFOLLOW, &ost);
	ok(rfd >= 0 && fstat(rfd, &fst) == 0 && fst.st_ino == ost.st_ino && S_ISREG(ost.st_mode),
	   "open_read: a regular file, the inode stat'ed");
	char got[16] = {0};
	ok(rfd >= 0 && read(rfd, got, sizeof(got) - 1) == 8 && !strcmp(got, "regular\n"),
	   "open_read: readable");
	ok(rfd >= 0 && (fcntl(rfd, F_GETFL) & O_PATH) == 0, "open_read: not an O_PATH fd");
	if (rfd >= 0)
		close(rfd);
	mkfifo(path("fifo"), 0600);
	is(clawmd_fs_open_read(d.fd, "fifo", CLAWMD_FS_NOFOLLOW, &ost), -ENODEV,
	   "open_read: a FIFO is refused, not opened (this would block)");
	if (mknod(path("dev"), S_IFCHR | 0600, makedev(1, 3)) == 0)
		is(clawmd_fs_open_read(d.fd, "dev", CLAWMD_FS_NOFOLLOW, &ost), -ENODEV,
		   "open_read: a device is refused");
	else
		ok(1, "# SKIP mknod needs root");
	test_must(symlink("reg", path("lnk")), "symlink");
	is(clawmd_fs_open_read(d.fd, "lnk", CLAWMD_FS_NOFOLLOW, &ost), -ELOOP,
	   "open_read: a symlink is not followed");
	rfd = clawmd_fs_open_read(d.fd, "lnk", CLAWMD_FS_FOLLOW, &ost);
	ok(rfd >= 0, "open_read: followed when asked (a host-configured path)");
	if (rfd >= 0)
		close(rfd);
	mkdir(path("sub"), 0700);
	is(clawmd_fs_open_read(d.fd, "sub", CLAWMD_FS_NOFOLLOW, &ost), -EISDIR,
	   "open_read: a directory is refused");
	is(clawmd_fs_open_read(d.fd, "absent", CLAWMD_FS_NOFOLLOW, &ost), -ENOENT,
	   "open_read: absent");
	int sfd = open(path("sub"), O_RDONLY | O_DIRECTORY);
	test_must(symlink("../reg", path("sub/up")), "symlink");
	int r2 = clawmd_fs_open_read(sfd, "up", CLAWMD_FS_BENEATH | CLAWMD_FS_FOLLOW, &ost);
	ok(r2 == -EXDEV || r2 == -ENOSYS, "open_read: beneath, a link out is refused (%d)", r2);
	r2 = clawmd_fs_open_read(sfd, "../reg", CLAWMD_FS_BENEATH, &ost);
	ok(r2 == -EXDEV || r2 == -ENOSYS, "open_read: beneath, '..' out is refused (%d)", r2);
	close(sfd);

	clawmd_buf_release(&buf);
	clawmd_dir_release(&d);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		return 1;
	return done_testing();
}
