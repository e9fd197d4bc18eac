/* compose.c - the per-spawn job: lock the group, plan, compare, apply. */
#include "clawmd.h"
#include "fs.h"
#include "util.h"

#include <unistd.h>

/*
 * The lock lives in the host-only state directory, not in the group: the
 * group directory is writable by the agent, which could otherwise hold the
 * lock forever or plant a symlink at its name.
 */
int clawmd_group_lock(int *fd, const struct clawmd_layout *lay, const char *group,
		      struct clawmd_err *err)
{
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT, "invalid group name '%s'", group);
	char *dir = clawmd_path_join(lay->state, "locks");
	int rc = clawmd_fs_lock(fd, dir, group, lay->lock_timeout, err);
	free(dir);
	return rc;
}

int clawmd_compose(struct clawmd_plan *plan, struct clawmd_changes *changes,
		   const struct clawmd_layout *lay, const char *group,
		   const struct clawmd_compose_opts *opts, struct clawmd_err *err)
{
	int lock = -1, rc;
	clawmd_plan_init(plan);
	clawmd_changes_init(changes);
	/* Refuse a missing or symlinked group before making its lock file. */
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "invalid group name '%s' (names match [A-Za-z0-9][A-Za-z0-9._-]{0,63})",
				      group);
	char *gpath = clawmd_path_join(lay->groups, group);
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	rc = clawmd_dir_open(&gd, gpath, err);
	clawmd_dir_release(&gd);
	free(gpath);
	if (rc < 0)
		return rc;
	if (!opts->dry_run && (rc = clawmd_group_lock(&lock, lay, group, err)) < 0)
		return rc;
	if ((rc = clawmd_plan_build(plan, lay, group, err)) < 0)
		goto out_unlock;
	if ((rc = clawmd_changes_compute(changes, lay, plan, err)) < 0)
		goto out_unlock;
	if (!opts->dry_run)
		rc = clawmd_changes_apply(changes, lay, err);
out_unlock:
	if (lock >= 0)
		close(lock);
	return rc;
}
