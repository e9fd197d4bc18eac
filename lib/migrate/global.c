/* global.c - groups/global (migrate/migrate.h): its CLAUDE.md carried into
 * the base (or, when git tracks the base, into its review file), then
 * the directory archived under STATE/archive. */
#include "migrate/migrate.h"
#include "layout/groups.h"
#include "base/util.h"
#include "sys/git.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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
 * (`miss`, of the file `global`) go to the review file beside it instead, under
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
			 const struct clawmd_buf *global, const struct clawmd_buf *miss,
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

	if (!dry && (rc = clawmd_mig_clean_temps(m, bd, CLAWMD_LEGACY_GLOBAL, rname, err)) < 0)
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
	if (t && ((rc = clawmd_mig_ident(&rst, bd, rname, err)) < 0 ||
		  (rc = clawmd_fs_read(&old, bd, rname, CLAWMD_MIGRATE_FILE_MAX, err)) < 0))
		goto out;
	rc = 0;
	clawmd_migrate_missing(&add, miss->ptr, miss->len, old.ptr ? old.ptr : "", old.len);
	if (!add.len || clawmd_mig_has_marker(&old, "groups/global/CLAUDE.md", global->ptr, global->len)) {
		clawmd_mig_act(m, CLAWMD_MIGRATE_BASE_HAS, CLAWMD_LEGACY_GLOBAL, gpath, clawmd_xstrdup(rpath),
		    "nothing to carry: already in the review file beside the tracked base");
		gpath = NULL;
	} else {
		struct clawmd_migrate_action *a =
			clawmd_mig_act(m, CLAWMD_MIGRATE_REVIEW_BASE, CLAWMD_LEGACY_GLOBAL, gpath,
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
		clawmd_mig_appended(&out, &old, "groups/global/CLAUDE.md", add.ptr, add.len,
				    global->ptr, global->len);
		if (!dry)
			rc = clawmd_mig_replace_like(bd, rname, out.ptr, out.len, like, t ? &rst : NULL, err);
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
	struct clawmd_buf global = CLAWMD_BUF_INIT, base = CLAWMD_BUF_INIT, miss = CLAWMD_BUF_INIT,
			  out = CLAWMD_BUF_INIT;
	char *gpath = clawmd_mig_shown(lay, glob->path, CLAWMD_ENTRY_NAME);
	char *bpath = clawmd_layout_shown(lay, lay->base);
	char *bdir = clawmd_xstrdup(lay->base);
	char *slash = strrchr(bdir, '/');
	const char *bname = slash + 1;
	mode_t t;
	int rc;

	if ((rc = clawmd_fs_type(&t, glob, CLAWMD_ENTRY_NAME, err)) < 0)
		goto out;
	if (t != S_IFREG) {
		/* clawmd_mig_act() takes gpath over: it is not freed again below. */
		if (t)
			clawmd_mig_act(m, CLAWMD_MIGRATE_KEEP, CLAWMD_LEGACY_GLOBAL, gpath, NULL,
			    "not a regular file: archived as it is, not read");
		else
			free(gpath);
		gpath = NULL;
		goto out;
	}
	if ((rc = clawmd_fs_read(&global, glob, CLAWMD_ENTRY_NAME, CLAWMD_MIGRATE_FILE_MAX, err)) < 0)
		goto out;
	*slash = '\0';
	if ((rc = clawmd_dir_open(&bd, bdir[0] ? bdir : "/", err)) < 0)
		goto out;
	if (!dry && (rc = clawmd_mig_clean_temps(m, &bd, CLAWMD_LEGACY_GLOBAL, bname, err)) < 0)
		goto out;
	struct stat bst;
	bool have_base = fstatat(bd.fd, bname, &bst, AT_SYMLINK_NOFOLLOW) == 0;
	if ((rc = clawmd_fs_read(&base, &bd, bname, CLAWMD_MIGRATE_FILE_MAX, err)) < 0)
		goto out;
	rc = 0;
	clawmd_migrate_missing(&miss, global.ptr, global.len, base.ptr ? base.ptr : "", base.len);
	if (!miss.len || clawmd_mig_has_marker(&base, "groups/global/CLAUDE.md", global.ptr, global.len)) {
		clawmd_mig_act(m, CLAWMD_MIGRATE_BASE_HAS, CLAWMD_LEGACY_GLOBAL, gpath, bpath,
		    "nothing to carry: already in the shared base");
		gpath = bpath = NULL;
		goto out;
	}
	/* A base the owner keeps in git is not rewritten at host start. */
	clawmd_mig_open_tracked(m);
	if (clawmd_tracked_has(m->tracked, lay->base)) {
		rc = review_global(m, &bd, bname, &global, &miss, have_base ? &bst : NULL, gpath, bpath,
				   err);
		gpath = bpath = NULL;
		goto out;
	}
	struct clawmd_migrate_action *a =
		clawmd_mig_act(m, CLAWMD_MIGRATE_APPEND_BASE, CLAWMD_LEGACY_GLOBAL, gpath, bpath,
		    "the blocks the shared base lacks, under a marker");
	a->bytes = miss.len;
	gpath = bpath = NULL;
	clawmd_mig_appended(&out, &base, "groups/global/CLAUDE.md", miss.ptr, miss.len, global.ptr,
			    global.len);
	if (!dry)
		rc = clawmd_mig_replace_like(&bd, bname, out.ptr, out.len, have_base ? &bst : NULL,
				  have_base ? &bst : NULL, err);
out:
	free(gpath);
	free(bpath);
	free(bdir);
	clawmd_dir_release(&bd);
	clawmd_buf_release(&global);
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
		rc = clawmd_mig_rename_between(groups, CLAWMD_LEGACY_GLOBAL, &ad, name, err);
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
	a = clawmd_mig_act(m, CLAWMD_MIGRATE_ARCHIVE_DIR, CLAWMD_LEGACY_GLOBAL,
		clawmd_mig_shown(lay, groups->path, "global"), clawmd_layout_shown(lay, to),
		"archived, never deleted; no container mounts it");
	/* A tracked global CLAUDE.md now shows as deleted in 'git status', its
	 * text in the base: say so, as for a group's moved CLAUDE.md. */
	base = m->global_into ? clawmd_xstrdup(m->global_into) : clawmd_layout_shown(lay, lay->base);
	clawmd_mig_open_tracked(m);
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

int clawmd_mig_global(struct mig *m, const struct clawmd_dir *groups, struct clawmd_err *err)
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
