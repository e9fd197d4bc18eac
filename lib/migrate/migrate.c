/*
 * migrate.c - the one-shot legacy cutover (DESIGN.md section 3; the
 * contract is in clawmd.h).
 *
 * Crash safety comes from the shape of each step, not from a journal: every
 * step reads the disk, decides, and makes one atomic, durable change whose
 * effect the next run can see.  A run killed after any syscall therefore
 * finds the disk in a state the uninterrupted run also passes through, and
 * finishes from there:
 *
 *  - ".claude-global.md" symlink: one unlinkat; absent means done.
 *  - CLAUDE.md -> CLAUDE.local.md: (1) the new CLAUDE.local.md is staged,
 *    fsynced and renamed in (clawmd_fs_replace_file), the directory fsynced;
 *    (2) only then is CLAUDE.md removed.  Killed between (1) and (2), the
 *    next run finds every block of the carried text in CLAUDE.local.md as
 *    whole lines (even if the agent wrote more since), or the marker with
 *    the carried text's digest, and goes straight to (2): nothing is
 *    appended twice.
 *  - groups/global/CLAUDE.md -> base: the same replace; the next run finds
 *    every block already in the base (or the marker), appends nothing.  A
 *    base git tracks is not written: the same, into its review file.
 *  - groups/global/ -> archive: one renameat2(RENAME_NOREPLACE); absent
 *    means done.  Archives found later are listed in the record by scanning
 *    the archive directory, so the record does not depend on which run did
 *    the move.
 *  - the record: replaced atomically, last; its content has no timestamp,
 *    so a --force run over a migrated tree rewrites nothing.
 *  - temps a killed run left behind (".CLAUDE.local.md.<hex>.tmp" and the
 *    like, the names clawmd_fs_stage_file makes) are removed on the next run
 *    when they hold what was staged (the digest in the name); anything else
 *    under such a name (a compose killed mid-swap leaves the agent's file
 *    there) is moved aside, never unlinked.
 */
#include "clawmd.h"
#include "group/flatentry.h"
#include "fs/fs.h"
#include "group/group.h"
#include "group/tracked.h"
#include "layout/groups.h"
#include "base/util.h"
#include "sys/dl.h"
#include "sys/git.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MIGRATE_LOCK ".migrate" /* a group name never starts with '.' */

/* What an earlier run's record says. */
struct record {
	bool found;
	char **groups, **failed;
	size_t ngroups, nfailed;
};

struct mig {
	const struct clawmd_root *root;
	const struct clawmd_layout *lay;
	const struct clawmd_migrate_opts *opts;
	struct clawmd_migrate_result *res;
	size_t cap;
	bool dirty; /* the current directory has unsynced renames or unlinks */
	struct record rec;
	/* ROOT's git repository, opened at the first carry (group/tracked.h) */
	struct clawmd_tracked *tracked;
	bool tracked_opened;
	char *global_into; /* where global's text went: the base or its review file */
};

static const char *const step_names[] = {
	"remove-link", "keep",	 "move-aside",	"move",	       "append", "remove-entry", "append-base",
	"base-has",    "archive", "skip",	"remove-temp", "record", "error",
	"review-base",
};

const char *clawmd_migrate_step_name(enum clawmd_migrate_step step)
{
	if ((size_t)step >= CLAWMD_ARRAY_SIZE(step_names))
		return "unknown";
	return step_names[step];
}

void clawmd_migrate_result_init(struct clawmd_migrate_result *res)
{
	memset(res, 0, sizeof(*res));
}

void clawmd_migrate_result_release(struct clawmd_migrate_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++) {
		free(res->v[i].group);
		free(res->v[i].path);
		free(res->v[i].dest);
		free(res->v[i].note);
		free(res->v[i].git);
	}
	free(res->v);
	free(res->record);
	free(res->ignore_hint);
	clawmd_strv_free(res->warnings, res->nwarnings);
	clawmd_strv_free(res->failed, res->nfailed);
	clawmd_strv_free(res->groups, res->ngroups);
	clawmd_migrate_result_init(res);
}

/* A path as shown: relative to ROOT when inside it. */
static char *shown2(const struct clawmd_layout *lay, const char *dir, const char *name)
{
	char *p = clawmd_path_join(dir, name);
	char *s = clawmd_layout_shown(lay, p);
	free(p);
	return s;
}

/* Record an action; `path` and `dest` are taken over (may be NULL). */
static struct clawmd_migrate_action *act(struct mig *m, enum clawmd_migrate_step step,
					 const char *group, char *path, char *dest,
					 const char *note)
{
	struct clawmd_migrate_result *r = m->res;
	clawmd_xgrow(&r->v, &m->cap, r->n + 1, sizeof(*r->v));
	struct clawmd_migrate_action *a = &r->v[r->n++];
	memset(a, 0, sizeof(*a));
	a->step = step;
	a->group = group ? clawmd_xstrdup(group) : NULL;
	a->path = path;
	a->dest = dest;
	a->note = note ? clawmd_xstrdup(note) : NULL;
	return a;
}

/* ROOT's repository, opened once, at the first move that may need it. */
static void open_tracked(struct mig *m)
{
	if (!m->tracked_opened) {
		m->tracked = clawmd_tracked_open(m->lay);
		m->tracked_opened = true;
	}
}

/* The text of a tracked CLAUDE.md now in CLAUDE.local.md (`data`): stage
 * the move, so that it stays in git (group/tracked.h). */
static void keep_tracked(struct mig *m, struct clawmd_migrate_action *a, const char *group,
			 const char *data, size_t len)
{
	open_tracked(m);
	a->git = clawmd_tracked_move(m->tracked, group, CLAWMD_ENTRY_NAME, CLAWMD_LOCAL_NAME, data, len,
				     m->opts->dry_run, &a->git_failed);
}

/* ---- the pure parts ------------------------------------------------------ */

static bool blank_line(const char *s, const char *e)
{
	clawmd_trim(&s, &e);
	return s == e;
}

/* Lines of [s, e) with trailing blanks stripped, each followed by '\n'. */
static void put_normalized(struct clawmd_buf *out, const char *s, const char *e)
{
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *le = nl ? nl : e;
		const char *t = le;
		while (t > s && clawmd_is_blank(t[-1]))
			t--;
		clawmd_buf_put(out, s, (size_t)(t - s));
		clawmd_buf_putc(out, '\n');
		s = nl ? nl + 1 : e;
	}
}

void clawmd_migrate_missing(struct clawmd_buf *out, const char *global, size_t glen,
			    const char *base, size_t blen)
{
	struct clawmd_buf nbase = CLAWMD_BUF_INIT, nblock = CLAWMD_BUF_INIT;
	const char *p = global, *end = global + glen;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	/* "\n" + every line + "\n": a block is contained when "\n" + its
	 * lines + "\n" occurs in it, i.e. as a run of whole lines. */
	clawmd_buf_putc(&nbase, '\n');
	put_normalized(&nbase, base, base + blen);
	while (p < end) {
		/* Skip blank lines, then take the block up to the next one. */
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;
		if (blank_line(p, nl ? nl : end)) {
			p = next;
			continue;
		}
		const char *bs = p, *be = p;
		while (p < end) {
			nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			if (blank_line(p, le))
				break;
			be = le;
			p = nl ? nl + 1 : end;
		}
		clawmd_buf_clear(&nblock);
		clawmd_buf_putc(&nblock, '\n');
		put_normalized(&nblock, bs, be);
		if (!memmem(nbase.ptr, nbase.len, nblock.ptr, nblock.len)) {
			if (out->len)
				clawmd_buf_putc(out, '\n');
			clawmd_buf_put(out, bs, (size_t)(be - bs));
			clawmd_buf_putc(out, '\n');
		}
	}
	clawmd_buf_release(&nbase);
	clawmd_buf_release(&nblock);
}

/* The marker line for carried text from `source`. */
static void marker(struct clawmd_buf *out, const char *source, const char *data, size_t len)
{
	clawmd_buf_printf(out, CLAWMD_MIGRATE_MARKER "%s (fnv1a64=%016llx) -->\n", source,
			  (unsigned long long)clawmd_fnv1a64(data, len));
}

/* `old` + a blank line + the marker + `add`. */
static void appended(struct clawmd_buf *out, const struct clawmd_buf *old, const char *source,
		     const char *add, size_t addlen, const char *digest_of, size_t digest_len)
{
	clawmd_buf_clear(out);
	clawmd_buf_put(out, old->ptr ? old->ptr : "", old->len);
	if (out->len && out->ptr[out->len - 1] != '\n')
		clawmd_buf_putc(out, '\n');
	if (out->len)
		clawmd_buf_putc(out, '\n');
	marker(out, source, digest_of, digest_len);
	clawmd_buf_put(out, add, addlen);
	if (addlen && add[addlen - 1] != '\n')
		clawmd_buf_putc(out, '\n');
}

static bool has_marker(const struct clawmd_buf *in, const char *source, const char *data,
		       size_t len)
{
	struct clawmd_buf m = CLAWMD_BUF_INIT;
	marker(&m, source, data, len);
	bool found = in->len && memmem(in->ptr, in->len, m.ptr, m.len);
	clawmd_buf_release(&m);
	return found;
}

/* ---- filesystem helpers -------------------------------------------------- */

/* Remove the temps clawmd_fs_stage_file made for `name` in `d` and a killed
 * run left behind: ".<name, cut at 24>.<16 hex>.tmp", regular files only. */
static int clean_temps(struct mig *m, const struct clawmd_dir *d, const char *group,
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
			act(m, CLAWMD_MIGRATE_MOVE_ASIDE, group, shown2(m->lay, d->path, n),
			    shown2(m->lay, d->path, kept),
			    "a temp name holding content clawmd did not stage: kept");
		else
			act(m, CLAWMD_MIGRATE_REMOVE_TEMP, group, shown2(m->lay, d->path, n), NULL,
			    "left by an interrupted run");
		free(kept);
	}
	closedir(dir);
	return rc;
}

/* Identity of what is at `name`, to notice it changing under us. */
static int ident(struct stat *st, const struct clawmd_dir *d, const char *name,
		 struct clawmd_err *err)
{
	if (fstatat(d->fd, name, st, AT_SYMLINK_NOFOLLOW) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not stat '%s/%s'", d->path, name);
	return 0;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Rename between two directories, never replacing anything. */
static int rename_between(const struct clawmd_dir *from, const char *fname,
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
static int replace_like(const struct clawmd_dir *d, const char *name, const void *data,
			size_t len, const struct stat *like, const struct stat *was,
			struct clawmd_err *err)
{
	struct clawmd_stage st;
	struct stat now;
	int rc = clawmd_fs_stage_file(&st, d, name, data, len, err);
	if (rc == 0 && like)
		rc = copy_owner(d, st.tmp, like, err);
	if (rc == 0 && was) {
		if ((rc = ident(&now, d, name, err)) == 0 && !same_file(&now, was))
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

/* ---- one group ------------------------------------------------------------ */

/* Move a wrong-type entry aside (never read through it). */
static int aside(struct mig *m, const struct clawmd_dir *gd, const char *group, const char *name,
		 mode_t t, struct clawmd_err *err)
{
	char *to = NULL;
	const char *what = t == S_IFLNK ? "a symlink" : t == S_IFDIR ? "a directory"
										: "not a regular file";
	char *note = clawmd_xasprintf("%s: moved aside, not followed", what);
	if (!m->opts->dry_run) {
		int rc = clawmd_fs_move_aside(&to, gd, name, err);
		if (rc < 0) {
			free(note);
			return rc;
		}
		m->dirty = true;
	}
	act(m, CLAWMD_MIGRATE_MOVE_ASIDE, group, shown2(m->lay, gd->path, name),
	    to ? shown2(m->lay, gd->path, to) : NULL, note);
	free(note);
	free(to);
	return 0;
}

/* Whether the carried text is only blanks: the entry held only the legacy import. */
static bool carry_is_empty(const struct clawmd_buf *carried)
{
	const char *s = carried->ptr, *e = carried->ptr + carried->len;
	clawmd_trim(&s, &e);
	for (const char *q = s; q < e; q++)
		if (!clawmd_is_blank(*q) && *q != '\n')
			return false;
	return true;
}

/* What CLAUDE.local.md holds now, into `local`, and its identity: `*lt` is
 * S_IFREG when it is a file (`lst` then set), 0 when there is none (what
 * stood there that was no file is set aside). */
static int carry_read_local(struct mig *m, const struct clawmd_dir *gd, const char *group,
			    struct clawmd_buf *local, struct stat *lst, mode_t *lt,
			    struct clawmd_err *err)
{
	int rc;
	if ((rc = clawmd_fs_type(lt, gd, CLAWMD_LOCAL_NAME, err)) < 0)
		return rc;
	if (*lt && *lt != S_IFREG) {
		if ((rc = aside(m, gd, group, CLAWMD_LOCAL_NAME, *lt, err)) < 0)
			return rc;
		*lt = 0;
	}
	if (*lt == S_IFREG &&
	    ((rc = ident(lst, gd, CLAWMD_LOCAL_NAME, err)) < 0 ||
	     (rc = clawmd_fs_read(local, gd, CLAWMD_LOCAL_NAME, CLAWMD_MIGRATE_FILE_MAX, err)) < 0))
		return rc;
	return 0;
}

/* The entry goes, once what it carried is where it belongs: `now_local`
 * (NULL: nothing was carried) is what CLAUDE.local.md holds. */
static int carry_remove(struct mig *m, const struct clawmd_dir *gd, const char *group,
			struct clawmd_migrate_action *a, const struct clawmd_buf *now_local,
			const struct stat *est, struct clawmd_err *err)
{
	int rc;
	/* Staged before CLAUDE.md goes, once CLAUDE.local.md is durable: a run
	 * killed between leaves CLAUDE.md on disk, untracked, which the next
	 * run removes; one killed before finds the text already in
	 * CLAUDE.local.md and stages it then. */
	if (now_local)
		keep_tracked(m, a, group, now_local->ptr ? now_local->ptr : "", now_local->len);
	if (m->opts->dry_run)
		return 0;
	/* The source goes only now that its content is durable, and only
	 * if it is still the file that was read. */
	struct stat now;
	if ((rc = ident(&now, gd, CLAWMD_ENTRY_NAME, err)) < 0)
		return rc;
	if (!same_file(&now, est))
		return clawmd_err_set(err, CLAWMD_EFS,
				      "'%s/%s' changed while it was being migrated; run "
				      "clawmd migrate again", gd->path, CLAWMD_ENTRY_NAME);
	if ((rc = clawmd_fs_unlink(gd, CLAWMD_ENTRY_NAME, err)) < 0)
		return rc;
	m->dirty = true; /* the caller syncs the directory once */
	return 0;
}

/*
 * Carry CLAUDE.md (a regular file clawmd did not compose, identity `est`)
 * into CLAUDE.local.md, then remove it.
 */
static int carry_entry(struct mig *m, const struct clawmd_dir *gd, const char *group,
		       const struct clawmd_buf *entry, const struct stat *est,
		       struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	struct clawmd_buf carried = CLAWMD_BUF_INIT, local = CLAWMD_BUF_INIT,
			  out = CLAWMD_BUF_INIT;
	char *epath = shown2(lay, gd->path, CLAWMD_ENTRY_NAME);
	char *lpath = shown2(lay, gd->path, CLAWMD_LOCAL_NAME);
	struct clawmd_migrate_action *a = NULL;
	const struct clawmd_buf *now_local = NULL; /* what CLAUDE.local.md holds */
	mode_t lt;
	struct stat lst;
	int rc;

	clawmd_entry_carry(&carried, entry->ptr, entry->len, lay->ct_group);
	if (carry_is_empty(&carried)) {
		act(m, CLAWMD_MIGRATE_REMOVE_ENTRY, group, epath, NULL,
		    "nothing to carry: only the legacy import");
		epath = NULL;
		goto remove;
	}
	if ((rc = carry_read_local(m, gd, group, &local, &lst, &lt, err)) < 0)
		goto out;

	/*
	 * Already there: the marker of this very text, or every block of it
	 * as whole lines (the rule groups/global uses against the base).  An
	 * interrupted run got this far, even if the agent has written to its
	 * memory since; appending again would only duplicate.
	 */
	clawmd_migrate_missing(&out, carried.ptr, carried.len, local.ptr ? local.ptr : "",
			       local.len);
	if (local.len &&
	    (!out.len || has_marker(&local, CLAWMD_ENTRY_NAME, carried.ptr, carried.len))) {
		a = act(m, CLAWMD_MIGRATE_REMOVE_ENTRY, group, epath, lpath,
			"already in " CLAWMD_LOCAL_NAME);
		now_local = &local;
		epath = lpath = NULL;
		goto remove;
	}
	clawmd_buf_clear(&out);
	if (!local.len) {
		a = act(m, CLAWMD_MIGRATE_MOVE, group, epath, lpath, NULL);
		clawmd_buf_put(&out, carried.ptr, carried.len);
	} else {
		a = act(m, CLAWMD_MIGRATE_APPEND, group, epath, lpath, "under a marker");
		appended(&out, &local, CLAWMD_ENTRY_NAME, carried.ptr, carried.len, carried.ptr,
			 carried.len);
	}
	a->bytes = carried.len;
	now_local = &out;
	epath = lpath = NULL;
	/* The memory keeps the owner and mode of the file it grows from. */
	if (!m->opts->dry_run &&
	    (rc = replace_like(gd, CLAWMD_LOCAL_NAME, out.ptr, out.len, lt == S_IFREG ? &lst : est,
			       lt == S_IFREG ? &lst : NULL, err)) < 0)
		goto out;
remove:
	rc = carry_remove(m, gd, group, a, now_local, est, err);
out:
	free(epath);
	free(lpath);
	clawmd_buf_release(&carried);
	clawmd_buf_release(&local);
	clawmd_buf_release(&out);
	return rc;
}

static int migrate_group(struct mig *m, const struct clawmd_dir *groups, const char *group,
			 struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	bool dry = m->opts->dry_run;
	struct clawmd_group *g;
	const struct clawmd_dir *gdir;
	struct clawmd_buf entry = CLAWMD_BUF_INIT;
	int rc;
	mode_t t;

	if ((rc = clawmd_group_open(&g, m->root, group, err)) < 0)
		return rc;
	if (!dry && (rc = clawmd_group_lock(g, err)) < 0)
		goto out;
	m->dirty = false;
	if ((rc = clawmd_group_dir(&gdir, g, err)) < 0)
		goto out;
	const struct clawmd_dir gd = *gdir; /* borrowed from the handle */
	if (!dry && (rc = clean_temps(m, &gd, group, CLAWMD_LOCAL_NAME, err)) < 0)
		goto out;

	/* 1. The legacy symlink.  Anything else of that name is the owner's. */
	if ((rc = clawmd_fs_type(&t, &gd, CLAWMD_LEGACY_LINK_NAME, err)) < 0)
		goto out;
	if (t == S_IFLNK) {
		if (!dry && (rc = clawmd_fs_unlink(&gd, CLAWMD_LEGACY_LINK_NAME, err)) < 0)
			goto out;
		m->dirty = true;
		act(m, CLAWMD_MIGRATE_REMOVE_LINK, group,
		    shown2(lay, gd.path, CLAWMD_LEGACY_LINK_NAME), NULL, NULL);
	} else if (t) {
		act(m, CLAWMD_MIGRATE_KEEP, group, shown2(lay, gd.path, CLAWMD_LEGACY_LINK_NAME),
		    NULL, "not the legacy symlink: kept");
	}

	/* 2. The hand-owned CLAUDE.md. */
	if ((rc = clawmd_fs_type(&t, &gd, CLAWMD_ENTRY_NAME, err)) < 0)
		goto out;
	if (t && t != S_IFREG) {
		rc = aside(m, &gd, group, CLAWMD_ENTRY_NAME, t, err);
	} else if (t) {
		struct stat est;
		if ((rc = ident(&est, &gd, CLAWMD_ENTRY_NAME, err)) < 0 ||
		    (rc = clawmd_fs_read(&entry, &gd, CLAWMD_ENTRY_NAME, CLAWMD_MIGRATE_FILE_MAX,
					 err)) < 0)
			goto out;
		/* nanoclaw's own output, import-era or flat, is no memory */
		if (rc == 0 && !clawmd_entry_ours(entry.ptr, entry.len) &&
		    !clawmd_flat_ours(g, CLAWMD_ENTRY_NAME, entry.ptr, entry.len))
			rc = carry_entry(m, &gd, group, &entry, &est, err);
	}
	/* One directory sync for the removals: each is redone by a rerun if a
	 * crash loses it, and a removed source's content was made durable
	 * (file and directory synced) before the source went. */
	if (rc >= 0 && !dry && m->dirty)
		rc = clawmd_fs_sync_dir(&gd, err);
out:
	clawmd_buf_release(&entry);
	clawmd_group_free(g);
	return rc < 0 ? rc : 0;
}

/* ---- groups/global -------------------------------------------------------- */

static char *utc_stamp(void)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	return clawmd_xstrdup(stamp);
}

/*
 * The base is tracked by git: the blocks of global/CLAUDE.md it lacks
 * (`miss`, of the file `g`) go to the review file beside it instead, under
 * the same marker, appended to what an earlier run put there.  The base is
 * part of the host's checkout: rewritten by a run at host start, it would
 * dirty the checkout the host updates with git pull, and its next update
 * would conflict with text nobody reviewed.  The review file is untracked,
 * so 'git status' lists it, and a warning says where it is.  The rerun
 * rules are the base's: the marker of this very file, or every block
 * already there, and nothing is appended again.  `gpath` and `bpath` are
 * taken over.
 */
static int review_global(struct mig *m, const struct clawmd_dir *bd, const char *bname,
			 const struct clawmd_buf *g, const struct clawmd_buf *miss,
			 const struct stat *like, char *gpath, char *bpath, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	bool dry = m->opts->dry_run;
	struct clawmd_buf old = CLAWMD_BUF_INIT, add = CLAWMD_BUF_INIT, out = CLAWMD_BUF_INIT;
	char *rname = clawmd_xasprintf("%s" CLAWMD_MIGRATE_REVIEW_SUFFIX, bname);
	char *rfull = clawmd_path_join(bd->path, rname);
	char *rpath = clawmd_layout_shown(lay, rfull);
	struct stat rst;
	mode_t t;
	int rc;

	if (!dry && (rc = clean_temps(m, bd, CLAWMD_LEGACY_GLOBAL, rname, err)) < 0)
		goto out;
	if ((rc = clawmd_fs_type(&t, bd, rname, err)) < 0)
		goto out;
	if (t && t != S_IFREG) {
		rc = clawmd_err_set(err, CLAWMD_EFS, "'%s' is not a regular file: migrate writes "
						     "the text the tracked base '%s' lacks there; "
						     "move it away and run clawmd migrate again",
				    rpath, bpath);
		goto out;
	}
	if (t && ((rc = ident(&rst, bd, rname, err)) < 0 ||
		  (rc = clawmd_fs_read(&old, bd, rname, CLAWMD_MIGRATE_FILE_MAX, err)) < 0))
		goto out;
	rc = 0;
	clawmd_migrate_missing(&add, miss->ptr, miss->len, old.ptr ? old.ptr : "", old.len);
	if (!add.len || has_marker(&old, "groups/global/CLAUDE.md", g->ptr, g->len)) {
		act(m, CLAWMD_MIGRATE_BASE_HAS, CLAWMD_LEGACY_GLOBAL, gpath, clawmd_xstrdup(rpath),
		    "nothing to carry: already in the review file beside the tracked base");
		gpath = NULL;
	} else {
		struct clawmd_migrate_action *a =
			act(m, CLAWMD_MIGRATE_REVIEW_BASE, CLAWMD_LEGACY_GLOBAL, gpath,
			    clawmd_xstrdup(rpath),
			    "the blocks the shared base lacks, under a marker: git tracks the base, "
			    "so it is left as it is");
		gpath = NULL;
		a->bytes = add.len;
		a->git = clawmd_xasprintf(
			"%s is tracked by git, so migrate %s it unchanged: the %zu bytes of "
			"groups/global/CLAUDE.md it lacks %s in %s, which git does not track; review "
			"them, move what the agents should read into %s, commit it, and remove %s",
			bpath, dry ? "would leave" : "left", add.len, dry ? "would go" : "are", rpath,
			bpath, rpath);
		appended(&out, &old, "groups/global/CLAUDE.md", add.ptr, add.len, g->ptr, g->len);
		if (!dry)
			rc = replace_like(bd, rname, out.ptr, out.len, like, t ? &rst : NULL, err);
	}
	if (rc == 0) {
		free(m->global_into);
		m->global_into = rpath;
		rpath = NULL;
	}
out:
	free(gpath);
	free(bpath);
	free(rpath);
	free(rfull);
	free(rname);
	clawmd_buf_release(&old);
	clawmd_buf_release(&add);
	clawmd_buf_release(&out);
	return rc;
}

/* The blocks of global/CLAUDE.md the base lacks, appended to it. */
static int carry_global(struct mig *m, const struct clawmd_dir *glob, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	bool dry = m->opts->dry_run;
	struct clawmd_dir bd = CLAWMD_DIR_INIT;
	struct clawmd_buf g = CLAWMD_BUF_INIT, base = CLAWMD_BUF_INIT, miss = CLAWMD_BUF_INIT,
			  out = CLAWMD_BUF_INIT;
	char *gpath = shown2(lay, glob->path, CLAWMD_ENTRY_NAME);
	char *bpath = clawmd_layout_shown(lay, lay->base);
	char *bdir = clawmd_xstrdup(lay->base);
	char *slash = strrchr(bdir, '/');
	const char *bname = slash + 1;
	mode_t t;
	int rc;

	if ((rc = clawmd_fs_type(&t, glob, CLAWMD_ENTRY_NAME, err)) < 0)
		goto out;
	if (t != S_IFREG) {
		/* act() takes gpath over: it is not freed again below. */
		if (t)
			act(m, CLAWMD_MIGRATE_KEEP, CLAWMD_LEGACY_GLOBAL, gpath, NULL,
			    "not a regular file: archived as it is, not read");
		else
			free(gpath);
		gpath = NULL;
		goto out;
	}
	if ((rc = clawmd_fs_read(&g, glob, CLAWMD_ENTRY_NAME, CLAWMD_MIGRATE_FILE_MAX, err)) < 0)
		goto out;
	*slash = '\0';
	if ((rc = clawmd_dir_open(&bd, bdir[0] ? bdir : "/", err)) < 0)
		goto out;
	if (!dry && (rc = clean_temps(m, &bd, CLAWMD_LEGACY_GLOBAL, bname, err)) < 0)
		goto out;
	struct stat bst;
	bool have_base = fstatat(bd.fd, bname, &bst, AT_SYMLINK_NOFOLLOW) == 0;
	if ((rc = clawmd_fs_read(&base, &bd, bname, CLAWMD_MIGRATE_FILE_MAX, err)) < 0)
		goto out;
	rc = 0;
	clawmd_migrate_missing(&miss, g.ptr, g.len, base.ptr ? base.ptr : "", base.len);
	if (!miss.len || has_marker(&base, "groups/global/CLAUDE.md", g.ptr, g.len)) {
		act(m, CLAWMD_MIGRATE_BASE_HAS, CLAWMD_LEGACY_GLOBAL, gpath, bpath,
		    "nothing to carry: already in the shared base");
		gpath = bpath = NULL;
		goto out;
	}
	/* A base the owner keeps in git is not rewritten at host start. */
	open_tracked(m);
	if (clawmd_tracked_has(m->tracked, lay->base)) {
		rc = review_global(m, &bd, bname, &g, &miss, have_base ? &bst : NULL, gpath, bpath,
				   err);
		gpath = bpath = NULL;
		goto out;
	}
	struct clawmd_migrate_action *a =
		act(m, CLAWMD_MIGRATE_APPEND_BASE, CLAWMD_LEGACY_GLOBAL, gpath, bpath,
		    "the blocks the shared base lacks, under a marker");
	a->bytes = miss.len;
	gpath = bpath = NULL;
	appended(&out, &base, "groups/global/CLAUDE.md", miss.ptr, miss.len, g.ptr, g.len);
	if (!dry)
		rc = replace_like(&bd, bname, out.ptr, out.len, have_base ? &bst : NULL,
				  have_base ? &bst : NULL, err);
out:
	free(gpath);
	free(bpath);
	free(bdir);
	clawmd_dir_release(&bd);
	clawmd_buf_release(&g);
	clawmd_buf_release(&base);
	clawmd_buf_release(&miss);
	clawmd_buf_release(&out);
	return rc < 0 ? rc : 0;
}

static int archive_global(struct mig *m, const struct clawmd_dir *groups, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	struct clawmd_dir ad = CLAWMD_DIR_INIT;
	char *adir = clawmd_path_join(lay->state, CLAWMD_MIGRATE_ARCHIVE);
	char *stamp = utc_stamp();
	char *to = NULL, *base;
	struct clawmd_migrate_action *a;
	int rc = 0;

	if (m->opts->dry_run) {
		to = clawmd_xasprintf("%s/global-%s", adir, stamp);
		goto done;
	}
	if ((rc = clawmd_fs_mkdirs(adir, err)) < 0 || (rc = clawmd_dir_open(&ad, adir, err)) < 0)
		goto out;
	/* Never clobber an archive: a second cutover in the same second gets a
	 * suffix. */
	for (int i = 1;; i++) {
		char *name = i == 1 ? clawmd_xasprintf("global-%s", stamp)
				    : clawmd_xasprintf("global-%s-%d", stamp, i);
		rc = rename_between(groups, CLAWMD_LEGACY_GLOBAL, &ad, name, err);
		if (rc <= 0) {
			to = rc == 0 ? clawmd_path_join(adir, name) : NULL;
			free(name);
			break;
		}
		free(name);
		if (i == 100) {
			rc = clawmd_err_set(err, CLAWMD_EFS, "no free archive name in '%s'", adir);
			break;
		}
	}
	if (rc < 0)
		goto out;
	if ((rc = clawmd_fs_sync_dir(&ad, err)) < 0 || (rc = clawmd_fs_sync_dir(groups, err)) < 0)
		goto out;
done:
	a = act(m, CLAWMD_MIGRATE_ARCHIVE_DIR, CLAWMD_LEGACY_GLOBAL,
		shown2(lay, groups->path, "global"), clawmd_layout_shown(lay, to),
		"archived, never deleted; no container mounts it");
	/* A tracked global CLAUDE.md now shows as deleted in 'git status', its
	 * text in the base: say so, as for a group's moved CLAUDE.md. */
	base = m->global_into ? clawmd_xstrdup(m->global_into) : clawmd_layout_shown(lay, lay->base);
	open_tracked(m);
	a->git = clawmd_tracked_gone(m->tracked, CLAWMD_LEGACY_GLOBAL, CLAWMD_ENTRY_NAME, base,
				     m->global_into != NULL, m->opts->dry_run);
	free(base);
out:
	free(to);
	free(stamp);
	free(adir);
	clawmd_dir_release(&ad);
	return rc;
}

static int migrate_global(struct mig *m, const struct clawmd_dir *groups, struct clawmd_err *err)
{
	struct clawmd_dir glob = CLAWMD_DIR_INIT;
	struct clawmd_group *lock; /* groups/global is locked as a group is */
	int rc;
	if ((rc = clawmd_group_open(&lock, m->root, CLAWMD_LEGACY_GLOBAL, err)) < 0)
		return rc;
	if (!m->opts->dry_run && (rc = clawmd_group_lock(lock, err)) < 0)
		goto out;
	if ((rc = clawmd_dir_openat(&glob, groups, CLAWMD_LEGACY_GLOBAL, false, err)) < 0)
		goto out;
	if ((rc = carry_global(m, &glob, err)) < 0)
		goto out;
	clawmd_dir_release(&glob);
	rc = archive_global(m, groups, err);
out:
	clawmd_dir_release(&glob);
	clawmd_group_free(lock);
	return rc;
}

/* ---- the record ------------------------------------------------------------ */

/* The archives in STATE/archive, sorted: the record lists what exists, not
 * what this particular run moved. */
static cJSON *archives_json(const struct clawmd_layout *lay)
{
	cJSON *arr = cJSON_CreateArray();
	char *adir = clawmd_path_join(lay->state, CLAWMD_MIGRATE_ARCHIVE);
	struct clawmd_dir ad = CLAWMD_DIR_INIT;
	char **v = NULL;
	size_t n = 0, cap = 0;
	if (clawmd_dir_open(&ad, adir, NULL) == 0) {
		DIR *dir = clawmd_fs_list(ad.fd);
		struct dirent *e;
		while (dir && (e = readdir(dir))) {
			if (strncmp(e->d_name, "global-", 7))
				continue;
			clawmd_xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n++] = shown2(lay, adir, e->d_name);
		}
		if (dir)
			closedir(dir);
	}
	if (n)
		qsort(v, n, sizeof(*v), clawmd_strcmp_ptr);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(v[i]));
	clawmd_strv_free(v, n);
	clawmd_dir_release(&ad);
	free(adir);
	return arr;
}

static int write_record(struct mig *m, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	struct clawmd_migrate_result *r = m->res;
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	struct clawmd_buf old = CLAWMD_BUF_INIT;
	int rc = 0;

	cJSON *doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "clawmd_migrate", 1);
	cJSON *g = cJSON_AddArrayToObject(doc, "groups");
	/* A retry ran only the failed groups: the examined ones stay those of
	 * the run that examined them. */
	char **groups = r->retry ? m->rec.groups : r->groups;
	size_t ngroups = r->retry ? m->rec.ngroups : r->ngroups;
	for (size_t i = 0; i < ngroups; i++)
		cJSON_AddItemToArray(g, cJSON_CreateString(groups[i]));
	/* Failed groups with why; a later run retries them. */
	cJSON *f = cJSON_AddArrayToObject(doc, "failed");
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].step != CLAWMD_MIGRATE_ERROR)
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "group", r->v[i].group);
		cJSON_AddStringToObject(o, "error", r->v[i].note ? r->v[i].note : "");
		cJSON_AddItemToArray(f, o);
	}
	cJSON_AddItemToObject(doc, "archives", archives_json(lay));
	char *text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text)
		abort();
	size_t len = strlen(text);
	text[len++] = '\n'; /* cJSON_Print's NUL becomes the final newline */

	if (m->opts->dry_run)
		goto done;
	if ((rc = clawmd_fs_mkdirs(lay->state, err)) < 0 ||
	    (rc = clawmd_dir_open(&sd, lay->state, err)) < 0)
		goto out;
	if ((rc = clean_temps(m, &sd, NULL, CLAWMD_MIGRATE_RECORD, err)) < 0)
		goto out;
	rc = clawmd_fs_read(&old, &sd, CLAWMD_MIGRATE_RECORD, CLAWMD_MIGRATE_FILE_MAX, NULL);
	if (rc == 0 && old.len == len && !memcmp(old.ptr, text, len)) {
		rc = 0;
		goto out; /* --force over a migrated tree: not even a new inode */
	}
	/* Staged by hand: when the directory cannot be synced after the
	 * rename, the record goes again, so that a failed run never leaves a
	 * record that a power cut could make the only durable change. */
	struct clawmd_stage stg;
	rc = clawmd_fs_stage_file(&stg, &sd, CLAWMD_MIGRATE_RECORD, text, len, err);
	if (rc == 0 && (rc = clawmd_fs_commit(&stg, err)) == 0 &&
	    (rc = clawmd_fs_sync_dir(&sd, err)) < 0)
		unlinkat(sd.fd, CLAWMD_MIGRATE_RECORD, 0);
	clawmd_fs_stage_release(&stg);
	if (rc < 0)
		goto out;
done:
	act(m, CLAWMD_MIGRATE_WRITE_RECORD, NULL, clawmd_xstrdup(r->record), NULL, NULL)->bytes =
		len;
	rc = 0;
out:
	free(text);
	clawmd_buf_release(&old);
	clawmd_dir_release(&sd);
	return rc;
}

static void record_release(struct record *rec)
{
	clawmd_strv_free(rec->groups, rec->ngroups);
	clawmd_strv_free(rec->failed, rec->nfailed);
	memset(rec, 0, sizeof(*rec));
}

/* The strings of `arr` (or of each element's `key`, for objects). */
static char **json_names(size_t *n, const cJSON *arr, const char *key)
{
	char **v = NULL;
	size_t cap = 0;
	const cJSON *it;
	*n = 0;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *s = key ? cJSON_GetObjectItemCaseSensitive(it, key) : it;
		if (!cJSON_IsString(s))
			continue;
		clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = clawmd_xstrdup(s->valuestring);
	}
	return v;
}

/*
 * Read the record, if there is one.  The state directory is the host's,
 * but the read is bounded all the same.  A record that cannot be read or
 * parsed still counts as done (it was written only at the end of a run),
 * with nothing to retry.
 */
static void record_read(struct record *rec, const struct clawmd_layout *lay)
{
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	mode_t t = 0;
	record_release(rec);
	if (clawmd_dir_open(&sd, lay->state, NULL) < 0)
		return;
	clawmd_fs_type(&t, &sd, CLAWMD_MIGRATE_RECORD, NULL);
	rec->found = t == S_IFREG;
	if (rec->found && clawmd_fs_read(&b, &sd, CLAWMD_MIGRATE_RECORD, CLAWMD_MIGRATE_FILE_MAX,
					 NULL) == 0) {
		cJSON *doc = cJSON_ParseWithLength(b.ptr, b.len);
		rec->groups = json_names(&rec->ngroups, cJSON_GetObjectItemCaseSensitive(doc, "groups"),
					 NULL);
		rec->failed = json_names(&rec->nfailed,
					 cJSON_GetObjectItemCaseSensitive(doc, "failed"), "group");
		cJSON_Delete(doc);
	}
	clawmd_buf_release(&b);
	clawmd_dir_release(&sd);
}

static bool listed(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/* ---- the whole run ----------------------------------------------------------- */

/* Walk groups/: the groups (sorted), with skips reported; *global set when
 * groups/global is a real directory. */
static int list_groups(struct mig *m, const struct clawmd_dir *groups, bool *global,
		       struct clawmd_err *err)
{
	struct clawmd_migrate_result *r = m->res;
	size_t cap = 0;
	DIR *dir = clawmd_fs_list(groups->fd);
	*global = false;
	if (!dir)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", groups->path);
	char **skips = NULL, **notes = NULL;
	size_t nskips = 0, scap = 0, ncap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		const char *n = e->d_name;
		struct stat st;
		if (n[0] == '.')
			continue;
		if (fstatat(groups->fd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone meanwhile */
		const char *why = NULL;
		if (S_ISLNK(st.st_mode))
			why = "a symlinked directory: not a group, not followed";
		else if (!S_ISDIR(st.st_mode))
			continue;
		else if (!strcmp(n, CLAWMD_LEGACY_GLOBAL)) {
			*global = true;
			continue;
		} else if (!clawmd_name_valid(n, strlen(n)))
			why = "not a valid group name ([A-Za-z0-9][A-Za-z0-9._-]{0,63}): skipped";
		if (why) {
			clawmd_xgrow(&skips, &scap, nskips + 1, sizeof(*skips));
			clawmd_xgrow(&notes, &ncap, nskips + 1, sizeof(*notes));
			skips[nskips] = clawmd_xstrdup(n);
			notes[nskips++] = (char *)why;
			continue;
		}
		clawmd_xgrow(&r->groups, &cap, r->ngroups + 1, sizeof(*r->groups));
		r->groups[r->ngroups++] = clawmd_xstrdup(n);
	}
	closedir(dir);
	if (r->ngroups)
		qsort(r->groups, r->ngroups, sizeof(*r->groups), clawmd_strcmp_ptr);
	/* Skips in name order too, so the report is stable. */
	for (size_t i = 0; i < nskips; i++)
		for (size_t j = i + 1; j < nskips; j++)
			if (strcmp(skips[j], skips[i]) < 0) {
				char *s = skips[i], *w = notes[i];
				skips[i] = skips[j], notes[i] = notes[j];
				skips[j] = s, notes[j] = w;
			}
	for (size_t i = 0; i < nskips; i++) {
		act(m, CLAWMD_MIGRATE_SKIP, NULL, shown2(m->lay, groups->path, skips[i]), NULL,
		    notes[i]);
		free(skips[i]);
	}
	free(skips);
	free(notes);
	return 0;
}

/* A group failed: say so in the result, keep going. */
static void group_failed(struct mig *m, const char *group, const struct clawmd_err *e1)
{
	struct clawmd_migrate_result *r = m->res;
	act(m, CLAWMD_MIGRATE_ERROR, group, NULL, NULL, e1->msg);
	r->failed = clawmd_xrealloc(r->failed, (r->nfailed + 1) * sizeof(*r->failed));
	r->failed[r->nfailed++] = clawmd_xstrdup(group);
}

/*
 * Migrate turns each group's CLAUDE.md into CLAUDE.local.md, memory the
 * agent writes; in a git work tree that does not ignore it, `check` then
 * reports CM403 on a tree clawmd set up itself.  Migrate does not edit the
 * user's .gitignore: it runs unattended at host start, usually in a
 * deployed checkout of the host, where an edit to that tracked file dirties
 * the checkout the host updates with git pull.  It says the one line to add
 * instead, once, in the run that migrates.  (The state directory needs no
 * line: it ignores itself, see clawmd_fs_lock.)
 *
 * The probe is a path below the groups directory that no group can have
 * ("-clawmd-probe-" is not a valid group name), so libgit2 reads only the
 * host's .gitignore files on the way, never one inside a group.
 */
#define IGNORE_PROBE "-clawmd-probe-"

static char *local_ignore_hint(const struct clawmd_layout *lay)
{
	const struct clawmd_git *git = clawmd_git(NULL);
	git_repository *repo = NULL;
	char *rg = NULL, *rwd = NULL, *probe = NULL, *hint = NULL;
	int ignored = 1;
	if (!git || git->git_repository_open_ext(&repo, lay->root, 0, NULL) < 0)
		return NULL;
	const char *wd = git->git_repository_workdir(repo);
	if (!wd || !(rg = realpath(lay->groups, NULL)) || !(rwd = realpath(wd, NULL)))
		goto out;
	size_t l = strlen(rwd);
	if (strncmp(rg, rwd, l) || (rg[l] != '/' && rg[l] && strcmp(rwd, "/")))
		goto out;
	const char *rest = rg + l;
	while (*rest == '/')
		rest++;
	probe = *rest ? clawmd_xasprintf("%s/" IGNORE_PROBE "/%s", rest, CLAWMD_LOCAL_NAME)
		      : clawmd_xstrdup(IGNORE_PROBE "/" CLAWMD_LOCAL_NAME);
	if (git->git_ignore_path_is_ignored(&ignored, repo, probe) == 0 && !ignored) {
		char *gi = clawmd_path_join(rwd, ".gitignore");
		char *shown = clawmd_layout_shown(lay, gi);
		hint = clawmd_xasprintf("the groups' CLAUDE.local.md files are not ignored by git: add "
					"the line 'CLAUDE.local.md' to %s (per-group memory the "
					"agents write; 'clawmd check' reports CM403 until then)",
					shown);
		free(shown);
		free(gi);
	}
out:
	free(probe);
	free(rg);
	free(rwd);
	git->git_repository_free(repo);
	return hint;
}

/* The run's warnings, once its result is known (res->warnings). */
static void warnings(struct clawmd_migrate_result *res, const struct clawmd_layout *lay)
{
	size_t cap = 0;
	if (res->legacy_left) {
		clawmd_xgrow(&res->warnings, &cap, res->nwarnings + 1, sizeof(char *));
		res->warnings[res->nwarnings++] = clawmd_xasprintf(
			"%s/%s exists again after the cutover; 'clawmd migrate --force' carries it over",
			lay->groups, CLAWMD_LEGACY_GLOBAL);
	}
	if (res->ignore_hint) {
		clawmd_xgrow(&res->warnings, &cap, res->nwarnings + 1, sizeof(char *));
		res->warnings[res->nwarnings++] = clawmd_xstrdup(res->ignore_hint);
	}
	/* Text git tracked, moved: staged so it stays in git, or what to run. */
	for (size_t i = 0; i < res->n; i++)
		if (res->v[i].git) {
			clawmd_xgrow(&res->warnings, &cap, res->nwarnings + 1, sizeof(char *));
			res->warnings[res->nwarnings++] = clawmd_xstrdup(res->v[i].git);
		}
}

/* Whether the record says there is nothing to do: every group migrated,
 * none failed (a record with failed groups means: retry those). */
static bool migrate_recorded(struct mig *m)
{
	if (m->opts->force)
		return false;
	record_read(&m->rec, m->lay);
	return m->rec.found && !m->rec.nfailed;
}

/* Each group, and groups/global: on a retry only those the record lists as
 * failed (one that is gone since has nothing left to migrate).  A group
 * that fails is noted in the result and the others go on. */
static void migrate_groups(struct mig *m, const struct clawmd_dir *groups, bool global)
{
	struct clawmd_migrate_result *out = m->res;
	struct clawmd_err e1 = CLAWMD_ERR_INIT;
	if (out->retry) {
		size_t k = 0;
		for (size_t i = 0; i < out->ngroups; i++) {
			if (listed(m->rec.failed, m->rec.nfailed, out->groups[i]))
				out->groups[k++] = out->groups[i];
			else
				free(out->groups[i]);
		}
		out->ngroups = k;
		global = global && listed(m->rec.failed, m->rec.nfailed, CLAWMD_LEGACY_GLOBAL);
	}
	for (size_t i = 0; i < out->ngroups; i++) {
		clawmd_err_clear(&e1);
		if (migrate_group(m, groups, out->groups[i], &e1) < 0)
			group_failed(m, out->groups[i], &e1);
	}
	if (global) {
		clawmd_err_clear(&e1);
		if (migrate_global(m, groups, &e1) < 0)
			group_failed(m, CLAWMD_LEGACY_GLOBAL, &e1);
	}
}

/* Whether groups/global is still a directory (a root migrated already). */
static bool legacy_left(const struct clawmd_layout *lay)
{
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	mode_t t = 0;
	if (clawmd_dir_open(&gd, lay->groups, NULL) == 0)
		clawmd_fs_type(&t, &gd, CLAWMD_LEGACY_GLOBAL, NULL);
	clawmd_dir_release(&gd);
	return t == S_IFDIR;
}

int clawmd_migrate(struct clawmd_migrate_result *out, const struct clawmd_root *root,
		   const struct clawmd_migrate_opts *opts, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = &root->lay;
	struct mig m = {root, lay, opts, out, 0};
	struct clawmd_dir groups = CLAWMD_DIR_INIT;
	bool global = false;
	int lock = -1, rc = 0;

	clawmd_migrate_result_init(out);
	out->dry_run = opts->dry_run;
	if ((rc = clawmd_opts_version(opts->version, CLAWMD_MIGRATE_OPTS_VERSION,
				      "clawmd_migrate_opts", err)) < 0)
		return rc;
	/* The record is JSON, read first and written last. */
	if ((rc = clawmd_dl_need_cjson(err)) < 0)
		return rc;
	{
		char *rec = clawmd_path_join(lay->state, CLAWMD_MIGRATE_RECORD);
		out->record = clawmd_layout_shown(lay, rec);
		free(rec);
	}
	/* Nothing is made (not even STATE) for a root without its groups. */
	if ((rc = clawmd_groups_open(&groups, lay, err)) < 0)
		goto out;
	/* The common case, every host start after the first: a stat and a
	 * small read.  A STATE/.gitignore left empty (a full disk, an older
	 * clawmd) is mended here too, at every host start (fs.c). */
	if (!opts->dry_run)
		clawmd_fs_ignore_state(lay->state);
	if (migrate_recorded(&m))
		goto already;
	if (!opts->dry_run) {
		char *ldir = clawmd_path_join(lay->state, "locks");
		rc = clawmd_fs_lock(&lock, ldir, MIGRATE_LOCK, lay->lock_timeout, err);
		free(ldir);
		if (rc < 0)
			goto out;
		/* Another migrate may have finished while we waited. */
		if (migrate_recorded(&m))
			goto already;
	}
	out->retry = m.rec.found;
	if ((rc = list_groups(&m, &groups, &global, err)) < 0)
		goto out;
	migrate_groups(&m, &groups, global);
	/* The record after every group was attempted, listing the failed
	 * ones: one bad group must not keep the fleet from completing. */
	rc = write_record(&m, err);
	if (rc == 0)
		out->ignore_hint = local_ignore_hint(lay);
	goto out;
already:
	out->already = true;
	out->legacy_left = legacy_left(lay);
	rc = 0;
out:
	warnings(out, lay);
	record_release(&m.rec);
	free(m.global_into);
	clawmd_tracked_close(m.tracked);
	clawmd_dir_release(&groups);
	if (lock >= 0)
		close(lock);
	return rc;
}
