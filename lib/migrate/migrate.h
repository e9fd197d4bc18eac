/*
 * migrate.h - what the parts of migrate share (private to migrate/).
 *
 *	migrate.c   the run: each group's CLAUDE.md carried into CLAUDE.local.md
 *	global.c    groups/global: its text into the base, the directory archived
 *	record.c    the record of a run, read by the next
 *	files.c     the moves and replaces of a migrate, and a killed run's temps
 *	text.c      which of the carried blocks a file lacks, and the marker
 *	result.c    what a run says: its actions, the words of its steps
 * Each calls only the ones listed after it.
 *
 * Every step reads the disk, decides and makes one atomic change (the
 * comment at the top of migrate.c says why that is crash-safe).
 */
#ifndef CLAWMD_MIGRATE_MIGRATE_H
#define CLAWMD_MIGRATE_MIGRATE_H

#include "clawmd.h"
#include "fs/fs.h"
#include "group/tracked.h"

#include <sys/stat.h>

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

/* ---- result.c ---- */

/* A path as shown: relative to ROOT when inside it. */
char *clawmd_mig_shown(const struct clawmd_layout *lay, const char *dir, const char *name);
/* Record an action; `path` and `dest` are taken over (may be NULL). */
struct clawmd_migrate_action *clawmd_mig_act(struct mig *m, enum clawmd_migrate_step step,
					     const char *group, char *path, char *dest,
					     const char *note);
/* ---- text.c ---- */

/* `old` with the blocks of `add` appended under a marker naming `source`
 * and the digest of digest_of[0, digest_len). */
void clawmd_mig_appended(struct clawmd_buf *out, const struct clawmd_buf *old, const char *source,
			 const char *add, size_t addlen, const char *digest_of, size_t digest_len);
/* `in` holds the marker of `source` for data[0, len). */
bool clawmd_mig_has_marker(const struct clawmd_buf *in, const char *source, const char *data,
			   size_t len);

/* ---- files.c ---- */

/* ROOT's repository, opened once, at the first move that may need it. */
void clawmd_mig_open_tracked(struct mig *m);

/* Remove the temps clawmd_fs_stage_file made for `name` in `d` and a
 * killed run left behind (holding what was staged; else moved aside). */
int clawmd_mig_clean_temps(struct mig *m, const struct clawmd_dir *d, const char *group,
			   const char *name, struct clawmd_err *err);
/* The identity of `name` in `d` (lstat). */
int clawmd_mig_ident(struct stat *st, const struct clawmd_dir *d, const char *name,
		     struct clawmd_err *err);
bool clawmd_mig_same_file(const struct stat *a, const struct stat *b);
int clawmd_mig_rename_between(const struct clawmd_dir *from, const char *fname,
			      const struct clawmd_dir *to, const char *tname, struct clawmd_err *err);
/* Replace `name` with data[0, len), owned and moded as `like`, unless it
 * is no longer the file `was`. */
int clawmd_mig_replace_like(const struct clawmd_dir *d, const char *name, const void *data,
			    size_t len, const struct stat *like, const struct stat *was,
			    struct clawmd_err *err);

/* ---- global.c ---- */

int clawmd_mig_global(struct mig *m, const struct clawmd_dir *groups, struct clawmd_err *err);

/* ---- record.c ---- */

void clawmd_mig_record_read(struct record *rec, const struct clawmd_layout *lay);
int clawmd_mig_record_write(struct mig *m, struct clawmd_err *err);
void clawmd_mig_record_release(struct record *rec);

#endif
