/*
 * compose.h - the steps of clawmd_compose() on a group directory held open
 * (private).
 *
 * The public clawmd_plan_build(), clawmd_changes_compute() and
 * clawmd_changes_apply() each open the group by its path.  A compose opens
 * it once, refusing a symlink, and hands that descriptor to the record, the
 * plan, the comparison and the apply: every step works on the directory
 * that was checked, whatever is renamed onto its path meanwhile, and a
 * spawn pays one open.  `gd` is the group directory as clawmd_dir_open()
 * opened it from lay->groups/<group> (its path absolute: lib/state.c looks
 * it up again); messages show it as clawmd_layout_shown() does.
 */
#ifndef CLAWMD_COMPOSE_H
#define CLAWMD_COMPOSE_H

#include "clawmd.h"
#include "fs.h"

/* 0, or EINPUT saying why `group` is not a group's name. */
int clawmd_group_name_check(const char *group, struct clawmd_err *err);

/* Open lay->groups/<group>, refusing an invalid name (EINPUT), a symlink
 * or anything but a directory (EFS). */
int clawmd_group_open(struct clawmd_dir *gd, const struct clawmd_layout *lay, const char *group,
		      struct clawmd_err *err);

/* clawmd_plan_build() on `gd`, within a pass (the host's sources are read
 * once per pass; NULL: no pass). */
int clawmd_plan_build_in(struct clawmd_plan *out, const struct clawmd_layout *lay,
			 const char *group, const struct clawmd_dir *gd, struct clawmd_pass *pass,
			 struct clawmd_err *err);

/* clawmd_changes_compute() and clawmd_changes_apply() on `gd`. */
int clawmd_changes_compute_in(struct clawmd_changes *out, const struct clawmd_layout *lay,
			      const struct clawmd_plan *plan, const struct clawmd_dir *gd,
			      struct clawmd_err *err);
int clawmd_changes_apply_in(struct clawmd_changes *ch, const struct clawmd_layout *lay,
			    const struct clawmd_dir *gd, struct clawmd_err *err);

#endif
