/* changes.c - compare a plan with a group directory, and apply the
 * difference without ever losing content or following a planted link. */
#include "clawmd.h"
#include "fs.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* What we read of an existing entry to compare it or show a diff. */
#define OLD_MAX (4 * 1024 * 1024 + 1)

void clawmd_changes_init(struct clawmd_changes *ch)
{
	memset(ch, 0, sizeof(*ch));
}

void clawmd_changes_release(struct clawmd_changes *ch)
{
	if (!ch)
		return;
	for (size_t i = 0; i < ch->n; i++) {
		free(ch->v[i].name);
		free(ch->v[i].moved_to);
		clawmd_buf_release(&ch->v[i].old);
	}
	free(ch->v);
	free(ch->group);
	free(ch->path);
	clawmd_changes_init(ch);
}

static enum clawmd_ftype ftype(mode_t m)
{
	switch (m) {
	case 0:
		return CLAWMD_FT_NONE;
	case S_IFREG:
		return CLAWMD_FT_FILE;
	case S_IFLNK:
		return CLAWMD_FT_LINK;
	case S_IFDIR:
		return CLAWMD_FT_DIR;
	default:
		return CLAWMD_FT_OTHER;
	}
}

static struct clawmd_change *add(struct clawmd_changes *ch, size_t *cap, enum clawmd_action a,
				 const char *name, enum clawmd_ftype old_type)
{
	clawmd_xgrow(&ch->v, cap, ch->n + 1, sizeof(*ch->v));
	struct clawmd_change *c = &ch->v[ch->n++];
	memset(c, 0, sizeof(*c));
	c->action = a;
	c->name = clawmd_xstrdup(name);
	c->old_type = old_type;
	return c;
}

/* The basename inside the directory that holds an entry. */
static const char *leaf(const char *name)
{
	const char *s = strrchr(name, '/');
	return s ? s + 1 : name;
}

/*
 * Compare one wanted entry with what is in `d`.  An entry of the wrong type
 * that clawmd cannot have written (a directory, a FIFO, or a symlink where
 * CLAUDE.md belongs) is preserved first; a file or symlink in a fragment
 * name is ours in either mode and simply replaced, which is how switching
 * between symlink and copy mode converges.
 */
static int compare_entry(struct clawmd_changes *ch, size_t *cap, const struct clawmd_dir *d,
			 const struct clawmd_entry *want, bool is_entry, bool local_free,
			 struct clawmd_err *err)
{
	mode_t m;
	int rc = clawmd_fs_type(&m, d, leaf(want->name), err);
	if (rc < 0)
		return rc;
	enum clawmd_ftype t = ftype(m);
	struct clawmd_change *c;
	struct clawmd_buf old = CLAWMD_BUF_INIT;

	if (t == CLAWMD_FT_FILE) {
		rc = clawmd_fs_read(&old, d, leaf(want->name), OLD_MAX, err);
		if (rc < 0 && err->code == CLAWMD_EINPUT) {
			clawmd_err_clear(err); /* too large to show: differs anyway */
			clawmd_buf_clear(&old);
			rc = 0;
		}
		if (rc < 0)
			goto out;
		if (is_entry && !clawmd_composed_is_ours(old.ptr, old.len)) {
			c = add(ch, cap, CLAWMD_PRESERVE, want->name, t);
			c->into_local = local_free;
			c->old = old;
			old = (struct clawmd_buf)CLAWMD_BUF_INIT;
			t = CLAWMD_FT_NONE;
		} else if (want->type == CLAWMD_FT_FILE && old.len == want->len &&
			   !memcmp(old.ptr, want->data, want->len)) {
			goto out; /* unchanged */
		}
	} else if (t == CLAWMD_FT_LINK && !is_entry) {
		if ((rc = clawmd_fs_readlink(&old, d, leaf(want->name), err)) < 0)
			goto out;
		if (want->type == CLAWMD_FT_LINK && !strcmp(old.ptr, want->data))
			goto out;
	} else if (t != CLAWMD_FT_NONE) {
		add(ch, cap, CLAWMD_PRESERVE, want->name, t);
		t = CLAWMD_FT_NONE;
	}
	c = add(ch, cap, CLAWMD_WRITE, want->name, t);
	c->want = want;
	c->old = old;
	old = (struct clawmd_buf)CLAWMD_BUF_INIT;
out:
	clawmd_buf_release(&old);
	return rc;
}

static bool planned(const struct clawmd_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n; i++)
		if (!strcmp(plan->entries[i].name, name))
			return true;
	return false;
}

/* Fragments clawmd wrote: skill-*.md, module-*.md, mcp-*.md. */
static bool fragment_name(const char *name)
{
	size_t len = strlen(name);
	return len > 3 && !strcmp(name + len - 3, ".md") &&
	       (!strncmp(name, "skill-", 6) || !strncmp(name, "module-", 7) ||
		!strncmp(name, "mcp-", 4));
}

/*
 * Entries of `d` that clawmd wrote but the plan no longer wants: stale
 * fragments (in .claude-fragments) and, in either directory, the temps of a
 * run that was killed between staging and committing.  Only files and
 * symlinks: a directory under such a name is not ours and stays.
 */
static int leftovers(struct clawmd_changes *ch, size_t *cap, const struct clawmd_dir *d,
		     const char *prefix, const struct clawmd_plan *plan, struct clawmd_err *err)
{
	int dfd = dup(d->fd);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	char **found = NULL;
	size_t n = 0, fcap = 0;
	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		return clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", d->path);
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (!clawmd_fs_is_temp_name(e->d_name) && !(*prefix && fragment_name(e->d_name)))
			continue;
		char *name = clawmd_xasprintf("%s%s", prefix, e->d_name);
		if (planned(plan, name)) {
			free(name);
			continue;
		}
		clawmd_xgrow(&found, &fcap, n + 1, sizeof(*found));
		found[n++] = name;
	}
	closedir(dir);
	/* Sorted, so that output and syscalls are deterministic. */
	if (n)
		qsort(found, n, sizeof(*found), clawmd_strcmp_ptr);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		mode_t m;
		if ((rc = clawmd_fs_type(&m, d, leaf(found[i]), err)) < 0)
			break;
		/* A staging directory of a killed run (only ever directly in
		 * the group directory) is emptied of our names and removed. */
		if (m == S_IFDIR && !*prefix && clawmd_fs_is_temp_name(found[i])) {
			add(ch, cap, CLAWMD_REMOVE, found[i], CLAWMD_FT_DIR);
			continue;
		}
		if (m != S_IFREG && m != S_IFLNK)
			continue;
		struct clawmd_change *c = add(ch, cap, CLAWMD_REMOVE, found[i], ftype(m));
		rc = m == S_IFLNK ? clawmd_fs_readlink(&c->old, d, leaf(found[i]), err)
				  : clawmd_fs_read(&c->old, d, leaf(found[i]), OLD_MAX, err);
		if (rc < 0 && err->code == CLAWMD_EINPUT) {
			clawmd_err_clear(err);
			rc = 0;
		}
		rc = rc < 0 ? rc : 0;
	}
	clawmd_strv_free(found, n);
	return rc;
}

static int local_state(bool *missing, bool *free_for_entry, const struct clawmd_dir *gd,
		       struct clawmd_err *err)
{
	struct stat st;
	*missing = *free_for_entry = false;
	if (fstatat(gd->fd, CLAWMD_LOCAL_NAME, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return clawmd_err_sys(err, CLAWMD_EFS, "could not stat '%s/" CLAWMD_LOCAL_NAME "'",
					      gd->path);
		*missing = *free_for_entry = true;
		return 0;
	}
	/* An empty regular file may be replaced; a symlink is never followed
	 * and counts as content. */
	*free_for_entry = S_ISREG(st.st_mode) && st.st_size == 0;
	return 0;
}

static char *shown_path(const struct clawmd_layout *lay, const char *group)
{
	size_t rl = strlen(lay->root);
	char *abs = clawmd_path_join(lay->groups, group);
	if (!strncmp(abs, lay->root, rl) && abs[rl] == '/') {
		char *rel = clawmd_xstrdup(abs + rl + 1);
		free(abs);
		return rel;
	}
	return abs;
}

int clawmd_changes_compute(struct clawmd_changes *out, const struct clawmd_layout *lay,
			   const struct clawmd_plan *plan, struct clawmd_err *err)
{
	struct clawmd_dir gd = CLAWMD_DIR_INIT, fd = CLAWMD_DIR_INIT;
	size_t cap = 0;
	bool local_missing, local_free;
	char *gpath = clawmd_path_join(lay->groups, plan->group);
	int rc;

	clawmd_changes_init(out);
	out->group = clawmd_xstrdup(plan->group);
	out->path = shown_path(lay, plan->group);
	if ((rc = clawmd_dir_open(&gd, gpath, err)) < 0)
		goto out;
	free(gd.path);
	gd.path = clawmd_xstrdup(out->path);
	if ((rc = local_state(&local_missing, &local_free, &gd, err)) < 0)
		goto out;

	/* The fragments directory: a planted symlink or file there is moved
	 * aside and a real directory made in its place. */
	mode_t m;
	if ((rc = clawmd_fs_type(&m, &gd, CLAWMD_FRAGMENTS_DIR, err)) < 0)
		goto out;
	if (m == S_IFDIR) {
		if ((rc = clawmd_dir_openat(&fd, &gd, CLAWMD_FRAGMENTS_DIR, false, err)) < 0)
			goto out;
	} else {
		if (m)
			add(out, &cap, CLAWMD_PRESERVE, CLAWMD_FRAGMENTS_DIR, ftype(m));
		add(out, &cap, CLAWMD_MKDIR, CLAWMD_FRAGMENTS_DIR, CLAWMD_FT_NONE);
	}

	for (size_t i = 0; i < plan->n; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		bool in_frag = strchr(e->name, '/') != NULL;
		bool is_entry = !strcmp(e->name, CLAWMD_ENTRY_NAME);
		if (in_frag && fd.fd < 0) { /* the directory is new: all fragments too */
			add(out, &cap, CLAWMD_WRITE, e->name, CLAWMD_FT_NONE)->want = e;
			continue;
		}
		rc = compare_entry(out, &cap, in_frag ? &fd : &gd, e, is_entry, local_free, err);
		if (rc < 0)
			goto out;
	}
	if ((rc = leftovers(out, &cap, &gd, "", plan, err)) < 0)
		goto out;
	if (fd.fd >= 0 &&
	    (rc = leftovers(out, &cap, &fd, CLAWMD_FRAGMENTS_DIR "/", plan, err)) < 0)
		goto out;
	bool entry_into_local = false;
	for (size_t i = 0; i < out->n; i++)
		entry_into_local |= out->v[i].action == CLAWMD_PRESERVE && out->v[i].into_local;
	if (local_missing && !entry_into_local)
		add(out, &cap, CLAWMD_CREATE_LOCAL, CLAWMD_LOCAL_NAME, CLAWMD_FT_NONE);
out:
	clawmd_dir_release(&fd);
	clawmd_dir_release(&gd);
	free(gpath);
	return rc;
}

/* ---- apply -------------------------------------------------------------- */

/* Remove a killed run's staging directory: our names inside, then the
 * directory if that emptied it (anything else inside is left alone). */
static int remove_staging_dir(const struct clawmd_dir *gd, const char *name,
			      struct clawmd_err *err)
{
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	int rc = clawmd_dir_openat(&sd, gd, name, true, err);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	int dfd = dup(sd.fd);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", sd.path);
		goto out;
	}
	struct dirent *e;
	while ((e = readdir(dir)) && rc == 0) {
		mode_t m;
		if (!fragment_name(e->d_name) && !clawmd_fs_is_temp_name(e->d_name))
			continue;
		if ((rc = clawmd_fs_type(&m, &sd, e->d_name, err)) == 0 &&
		    (m == S_IFREG || m == S_IFLNK))
			rc = clawmd_fs_unlink(&sd, e->d_name, err);
	}
	closedir(dir);
	if (rc == 0 && unlinkat(gd->fd, name, AT_REMOVEDIR) < 0 && errno != ENOTEMPTY &&
	    errno != EEXIST)
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not remove '%s'", sd.path);
out:
	clawmd_dir_release(&sd);
	return rc;
}

/*
 * Apply in two phases so that a failure while writing (a full disk, EIO)
 * leaves the group exactly as it was:
 *
 *  1. stage: every new file and symlink is written, fsynced and closed
 *     under a temp name; a new .claude-fragments is built complete under a
 *     temp directory name.  Any failure removes the temps and stops.
 *  2. commit, in an order where each intermediate state still loads:
 *     a. move wrong-typed entries aside (never deleting their content);
 *     b. fragments and the shared base, then the new directory into place,
 *        so everything the new CLAUDE.md imports exists before it does;
 *     c. preserve a hand-written CLAUDE.md, then rename the new one in;
 *     d. remove stale fragments, which nothing imports any more;
 *     e. create CLAUDE.local.md if missing; fsync both directories.
 */
int clawmd_changes_apply(struct clawmd_changes *ch, const struct clawmd_layout *lay,
			 struct clawmd_err *err)
{
	struct clawmd_dir gd = CLAWMD_DIR_INIT, fd = CLAWMD_DIR_INIT;
	struct clawmd_stage *st = clawmd_xcalloc(ch->n, sizeof(*st));
	char tmpdir[64] = "";
	bool mkdir_frag = false;
	char *gpath = clawmd_path_join(lay->groups, ch->group);
	int rc = 0;

	if (ch->n == 0)
		goto out_free;
	if ((rc = clawmd_dir_open(&gd, gpath, err)) < 0)
		goto out_free;
	free(gd.path);
	gd.path = clawmd_xstrdup(ch->path);
	for (size_t i = 0; i < ch->n; i++)
		mkdir_frag |= ch->v[i].action == CLAWMD_MKDIR;

	/* 1. Stage. */
	if (mkdir_frag) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = clawmd_fnv1a64(&st, sizeof(st)) ^ (uint64_t)getpid();
		snprintf(tmpdir, sizeof(tmpdir), "." CLAWMD_FRAGMENTS_DIR ".%016llx.tmp",
			 (unsigned long long)r);
		if (mkdirat(gd.fd, tmpdir, 0755) < 0) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not create '%s/%s'", gd.path, tmpdir);
			tmpdir[0] = '\0';
			goto out;
		}
		if ((rc = clawmd_dir_openat(&fd, &gd, tmpdir, false, err)) < 0)
			goto out;
		free(fd.path);
		fd.path = clawmd_xasprintf("%s/" CLAWMD_FRAGMENTS_DIR, gd.path);
	} else if (clawmd_dir_openat(&fd, &gd, CLAWMD_FRAGMENTS_DIR, true, err) < 0) {
		rc = err->code;
		goto out;
	}
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		if (c->action != CLAWMD_WRITE)
			continue;
		const struct clawmd_dir *d = strchr(c->name, '/') ? &fd : &gd;
		rc = c->want->type == CLAWMD_FT_LINK
			     ? clawmd_fs_stage_link(&st[i], d, leaf(c->name), c->want->data, err)
			     : clawmd_fs_stage_file(&st[i], d, leaf(c->name), c->want->data,
						    c->want->len, err);
		if (rc < 0)
			goto out;
	}

	/* 2a. Move aside what is in the way (not CLAUDE.md: see 2c). */
	for (size_t i = 0; i < ch->n; i++) {
		struct clawmd_change *c = &ch->v[i];
		if (c->action != CLAWMD_PRESERVE || !strcmp(c->name, CLAWMD_ENTRY_NAME))
			continue;
		const struct clawmd_dir *d = strchr(c->name, '/') ? &fd : &gd;
		if ((rc = clawmd_fs_move_aside(&c->moved_to, d, leaf(c->name), err)) < 0)
			goto out;
	}
	/* 2b. Fragments and the shared base; then the new directory. */
	for (size_t i = 0; i < ch->n; i++)
		if (ch->v[i].action == CLAWMD_WRITE && strcmp(ch->v[i].name, CLAWMD_ENTRY_NAME) &&
		    (rc = clawmd_fs_commit(&st[i], err)) < 0)
			goto out;
	if (mkdir_frag) {
		if ((rc = clawmd_fs_sync_dir(&fd, err)) < 0)
			goto out;
		if ((rc = clawmd_fs_rename_noreplace(&gd, tmpdir, CLAWMD_FRAGMENTS_DIR, err)) < 0)
			goto out;
		tmpdir[0] = '\0';
	}
	/* 2c. The entry. */
	for (size_t i = 0; i < ch->n; i++) {
		struct clawmd_change *c = &ch->v[i];
		if (strcmp(c->name, CLAWMD_ENTRY_NAME))
			continue;
		if (c->action == CLAWMD_PRESERVE && c->into_local) {
			if (renameat(gd.fd, CLAWMD_ENTRY_NAME, gd.fd, CLAWMD_LOCAL_NAME) < 0) {
				rc = clawmd_err_sys(err, CLAWMD_EFS, "could not move '%s/%s' to '%s/%s'",
						    gd.path, CLAWMD_ENTRY_NAME, gd.path,
						    CLAWMD_LOCAL_NAME);
				goto out;
			}
			c->moved_to = clawmd_xstrdup(CLAWMD_LOCAL_NAME);
		} else if (c->action == CLAWMD_PRESERVE) {
			if ((rc = clawmd_fs_move_aside(&c->moved_to, &gd, c->name, err)) < 0)
				goto out;
		} else if (c->action == CLAWMD_WRITE && (rc = clawmd_fs_commit(&st[i], err)) < 0) {
			goto out;
		}
	}
	/* 2d, 2e. */
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		if (c->action == CLAWMD_REMOVE && c->old_type == CLAWMD_FT_DIR)
			rc = remove_staging_dir(&gd, c->name, err);
		else if (c->action == CLAWMD_REMOVE)
			rc = clawmd_fs_unlink(strchr(c->name, '/') ? &fd : &gd, leaf(c->name), err);
		else if (c->action == CLAWMD_CREATE_LOCAL)
			rc = clawmd_fs_create_empty(&gd, CLAWMD_LOCAL_NAME, err);
		if (rc < 0)
			goto out;
		rc = 0;
	}
	if (fd.fd >= 0 && (rc = clawmd_fs_sync_dir(&fd, err)) < 0)
		goto out;
	rc = clawmd_fs_sync_dir(&gd, err);
out:
	for (size_t i = 0; i < ch->n; i++)
		if (st[i].name)
			clawmd_fs_stage_release(&st[i]);
	if (tmpdir[0]) /* staged temps are gone now, so the directory is empty */
		unlinkat(gd.fd, tmpdir, AT_REMOVEDIR);
	clawmd_dir_release(&fd);
	clawmd_dir_release(&gd);
out_free:
	free(st);
	free(gpath);
	return rc < 0 ? rc : 0;
}
