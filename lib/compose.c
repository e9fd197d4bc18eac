/* compose.c - the per-spawn job: lock the group, plan, compare, apply. */
#include "compose.h"
#include "fs.h"
#include "state.h"
#include "util.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

/*
 * The lock lives in the host-only state directory, not in the group: the
 * group directory is writable by the agent, which could otherwise hold the
 * lock forever or plant a symlink at its name.
 */
int clawmd_group_lock(int *fd, const struct clawmd_layout *lay, const char *group,
		      struct clawmd_err *err)
{
	int rc = clawmd_group_name_check(group, err);
	if (rc < 0)
		return rc;
	char *dir = clawmd_path_join(lay->state, "locks");
	rc = clawmd_fs_lock(fd, dir, group, lay->lock_timeout, err);
	free(dir);
	return rc;
}

int clawmd_group_name_check(const char *group, struct clawmd_err *err)
{
	if (clawmd_name_valid(group, strlen(group)))
		return 0;
	return clawmd_err_set(err, CLAWMD_EINPUT,
			      "invalid group name '%s' (names match [A-Za-z0-9][A-Za-z0-9._-]{0,63})",
			      group);
}

int clawmd_group_open(struct clawmd_dir *gd, const struct clawmd_layout *lay, const char *group,
		      struct clawmd_err *err)
{
	int rc = clawmd_group_name_check(group, err);
	if (rc < 0)
		return rc;
	char *gpath = clawmd_path_join(lay->groups, group);
	rc = clawmd_dir_open(gd, gpath, err);
	free(gpath);
	return rc;
}

/* The lock, quickly: the lock file exists after the first compose and is
 * free unless another compose of the group runs; otherwise the full
 * clawmd_group_lock(), which creates it and waits, or with `quick` 1. */
static int lock_group(int *fd, const struct clawmd_layout *lay, const char *group,
		      const char *lockpath, bool quick, struct clawmd_err *err)
{
	*fd = open(lockpath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd >= 0 && flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return quick ? 1 : clawmd_group_lock(fd, lay, group, err);
}

/*
 * Lock, then either the record shows nothing changed since the last
 * compose that found nothing to do (state.h), or the full compose: plan,
 * compare, apply.  A full compose that finds nothing to do records what
 * it saw; one that changes the group drops the record first.
 */
int clawmd_compose(struct clawmd_plan *plan, struct clawmd_changes *changes,
		   const struct clawmd_layout *lay, const char *group,
		   const struct clawmd_compose_opts *opts, struct clawmd_err *err)
{
	int lock = -1, rc = 0;
	char *gpath = NULL, *lockpath = NULL;
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	clawmd_plan_init(plan);
	clawmd_changes_init(changes);
	if ((rc = clawmd_group_name_check(group, err)) < 0)
		return rc;
	gpath = clawmd_path_join(lay->groups, group);
	/* A watched pass that saw nothing change since the group was last
	 * verified: no lock, no system call on the group.  Nothing is written,
	 * and a concurrent compose that writes makes events. */
	if (!opts->dry_run && clawmd_state_known(plan, opts->pass, lay, group))
		goto noop;
	/* Opened once, for every step below (compose.h); a missing or
	 * symlinked group is refused before its lock file is made. */
	if ((rc = clawmd_group_open(&gd, lay, group, err)) < 0)
		goto out;
	if (!opts->dry_run) {
		lockpath = clawmd_xasprintf("%s/locks/%s", lay->state, group);
		/* With record_only, no lock file means no record, and a busy
		 * lock a compose that is changing the group: 1 either way. */
		if ((rc = lock_group(&lock, lay, group, lockpath, opts->record_only, err)))
			goto out;
		if (clawmd_state_fresh(plan, lock, lay, &gd, opts->pass))
			goto noop;
	}
	if (opts->record_only) {
		rc = 1;
		goto out;
	}
	struct timespec since = clawmd_state_now();
	if ((rc = clawmd_plan_build_in(plan, lay, group, &gd, opts->pass, err)) < 0)
		goto out;
	if ((rc = clawmd_changes_compute_in(changes, lay, plan, &gd, err)) < 0)
		goto out;
	if (opts->dry_run)
		goto out;
	if (changes->n == 0) {
		clawmd_state_save(lock, lockpath, lay, plan, &gd, since);
	} else {
		clawmd_state_forget(lock, lockpath);
		rc = clawmd_changes_apply_in(changes, lay, &gd, err);
	}
	goto out;
noop: /* the plan holds what the record or the watch remembered */
	plan->group = clawmd_xstrdup(group);
	changes->group = clawmd_xstrdup(group);
	changes->path = clawmd_layout_shown(lay, gpath);
out:
	if (lock >= 0)
		close(lock);
	clawmd_dir_release(&gd);
	free(lockpath);
	free(gpath);
	return rc;
}
