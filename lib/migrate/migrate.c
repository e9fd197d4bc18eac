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
#include "migrate/migrate.h"
#include "group/flatentry.h"
#include "group/group.h"
#include "layout/groups.h"
#include "base/util.h"
#include "sys/dl.h"
#include "sys/git.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIGRATE_LOCK ".migrate" /* a group name never starts with '.' */

/* The text of a tracked CLAUDE.md now in CLAUDE.local.md (`data`): stage
 * the move, so that it stays in git (group/tracked.h). */
static void keep_tracked(struct mig *m, struct clawmd_migrate_action *a, const char *group,
			 const char *data, size_t len)
{
	clawmd_mig_open_tracked(m);
	a->git = clawmd_tracked_move(m->tracked, group, CLAWMD_ENTRY_NAME, CLAWMD_LOCAL_NAME, data, len,
				     m->opts->dry_run, &a->git_failed);
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
	clawmd_mig_act(m, CLAWMD_MIGRATE_MOVE_ASIDE, group, clawmd_mig_shown(m->lay, gd->path, name),
	    to ? clawmd_mig_shown(m->lay, gd->path, to) : NULL, note);
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
	    ((rc = clawmd_mig_ident(lst, gd, CLAWMD_LOCAL_NAME, err)) < 0 ||
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
	if ((rc = clawmd_mig_ident(&now, gd, CLAWMD_ENTRY_NAME, err)) < 0)
		return rc;
	if (!clawmd_mig_same_file(&now, est))
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
	char *epath = clawmd_mig_shown(lay, gd->path, CLAWMD_ENTRY_NAME);
	char *lpath = clawmd_mig_shown(lay, gd->path, CLAWMD_LOCAL_NAME);
	struct clawmd_migrate_action *a = NULL;
	const struct clawmd_buf *now_local = NULL; /* what CLAUDE.local.md holds */
	mode_t lt;
	struct stat lst;
	int rc;

	clawmd_entry_carry(&carried, entry->ptr, entry->len, lay->ct_group);
	if (carry_is_empty(&carried)) {
		clawmd_mig_act(m, CLAWMD_MIGRATE_REMOVE_ENTRY, group, epath, NULL,
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
	    (!out.len || clawmd_mig_has_marker(&local, CLAWMD_ENTRY_NAME, carried.ptr, carried.len))) {
		a = clawmd_mig_act(m, CLAWMD_MIGRATE_REMOVE_ENTRY, group, epath, lpath,
			"already in " CLAWMD_LOCAL_NAME);
		now_local = &local;
		epath = lpath = NULL;
		goto remove;
	}
	clawmd_buf_clear(&out);
	if (!local.len) {
		a = clawmd_mig_act(m, CLAWMD_MIGRATE_MOVE, group, epath, lpath, NULL);
		clawmd_buf_put(&out, carried.ptr, carried.len);
	} else {
		a = clawmd_mig_act(m, CLAWMD_MIGRATE_APPEND, group, epath, lpath, "under a marker");
		clawmd_mig_appended(&out, &local, CLAWMD_ENTRY_NAME, carried.ptr, carried.len, carried.ptr,
			 carried.len);
	}
	a->bytes = carried.len;
	now_local = &out;
	epath = lpath = NULL;
	/* The memory keeps the owner and mode of the file it grows from. */
	if (!m->opts->dry_run &&
	    (rc = clawmd_mig_replace_like(gd, CLAWMD_LOCAL_NAME, out.ptr, out.len, lt == S_IFREG ? &lst : est,
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
	if (!dry && (rc = clawmd_mig_clean_temps(m, &gd, group, CLAWMD_LOCAL_NAME, err)) < 0)
		goto out;

	/* 1. The legacy symlink.  Anything else of that name is the owner's. */
	if ((rc = clawmd_fs_type(&t, &gd, CLAWMD_LEGACY_LINK_NAME, err)) < 0)
		goto out;
	if (t == S_IFLNK) {
		if (!dry && (rc = clawmd_fs_unlink(&gd, CLAWMD_LEGACY_LINK_NAME, err)) < 0)
			goto out;
		m->dirty = true;
		clawmd_mig_act(m, CLAWMD_MIGRATE_REMOVE_LINK, group,
		    clawmd_mig_shown(lay, gd.path, CLAWMD_LEGACY_LINK_NAME), NULL, NULL);
	} else if (t) {
		clawmd_mig_act(m, CLAWMD_MIGRATE_KEEP, group, clawmd_mig_shown(lay, gd.path, CLAWMD_LEGACY_LINK_NAME),
		    NULL, "not the legacy symlink: kept");
	}

	/* 2. The hand-owned CLAUDE.md. */
	if ((rc = clawmd_fs_type(&t, &gd, CLAWMD_ENTRY_NAME, err)) < 0)
		goto out;
	if (t && t != S_IFREG) {
		rc = aside(m, &gd, group, CLAWMD_ENTRY_NAME, t, err);
	} else if (t) {
		struct stat est;
		if ((rc = clawmd_mig_ident(&est, &gd, CLAWMD_ENTRY_NAME, err)) < 0 ||
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
		clawmd_mig_act(m, CLAWMD_MIGRATE_SKIP, NULL, clawmd_mig_shown(m->lay, groups->path, skips[i]), NULL,
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
	clawmd_mig_act(m, CLAWMD_MIGRATE_ERROR, group, NULL, NULL, e1->msg);
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
	clawmd_mig_record_read(&m->rec, m->lay);
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
		if (clawmd_mig_global(m, groups, &e1) < 0)
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
	rc = clawmd_mig_record_write(&m, err);
	if (rc == 0)
		out->ignore_hint = local_ignore_hint(lay);
	goto out;
already:
	out->already = true;
	out->legacy_left = legacy_left(lay);
	rc = 0;
out:
	warnings(out, lay);
	clawmd_mig_record_release(&m.rec);
	free(m.global_into);
	clawmd_tracked_close(m.tracked);
	clawmd_dir_release(&groups);
	if (lock >= 0)
		close(lock);
	return rc;
}
