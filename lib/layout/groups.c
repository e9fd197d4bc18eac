/* groups.c - the groups directory: opening it, listing its groups, and the
 * directory of it that holds ROOT (never a group). */
#include "clawmd.h"
#include "fs/fs.h"
#include "layout/groups.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- groups ------------------------------------------------------------- */

int clawmd_groups_open(struct clawmd_dir *out, const struct clawmd_layout *lay,
		       struct clawmd_err *err)
{
	struct clawmd_err oe = CLAWMD_ERR_INIT;
	int rc = clawmd_dir_open(out, lay->groups, &oe);
	if (rc < 0 && oe.sys_errno == ENOENT) {
		char *shown = clawmd_layout_shown(lay, lay->groups);
		rc = clawmd_err_set(err, CLAWMD_EFS,
				    "no groups directory '%s': create it (clawmd init does), or name "
				    "the groups directory with --groups DIR or \"groups\" in clawmd.json",
				    shown);
		free(shown);
	} else if (rc < 0 && err && !err->code) {
		*err = oe;
	}
	return rc;
}

bool clawmd_layout_holds_root(const struct clawmd_layout *lay, const char *name)
{
	if (!lay->root || !lay->groups)
		return false;
	/* at every open of a group: ROOT/groups, or one beside ROOT, is told
	 * without a copy when its text has nothing to normalize */
	size_t gl = strlen(lay->groups);
	if (!strstr(lay->groups, "/.") && !strstr(lay->groups, "//") && gl && lay->groups[gl - 1] != '/' &&
	    !clawmd_path_under(lay->root, lay->groups))
		return false;
	char *p = clawmd_path_join(lay->groups, name), *norm = clawmd_path_norm(p);
	bool holds = clawmd_path_under(lay->root, norm);
	free(p);
	free(norm);
	return holds;
}

int clawmd_groups_list(char ***out, size_t *n, const struct clawmd_layout *lay,
		       struct clawmd_err *err)
{
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	char **v = NULL;
	size_t cap = 0, k = 0;
	*out = NULL;
	*n = 0;
	/* Above ROOT, the groups directory's other directories are ROOT's
	 * neighbours (other projects): a group there is acted on when named,
	 * never found by a walk that would compose into every one of them. */
	if (lay->root && lay->groups) {
		char *norm = clawmd_path_norm(lay->groups);
		bool above = clawmd_path_under(lay->root, norm);
		free(norm);
		if (above) {
			char *shown = clawmd_layout_shown(lay, lay->groups);
			int r = clawmd_err_set(err, CLAWMD_EUSAGE,
					       "groups: '%s' is above ROOT, so its directories are ROOT's "
					       "neighbours: name the groups to act on (none is found by "
					       "listing it)", shown);
			free(shown);
			return r;
		}
	}
	int rc = clawmd_groups_open(&d, lay, err);
	if (rc < 0)
		return rc;
	DIR *dir = clawmd_fs_list(d.fd);
	if (!dir) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", lay->groups);
		goto out;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		struct stat st;
		size_t len = strlen(e->d_name);
		/* Symlinks are not groups: fstatat without following them. */
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "global") ||
		    !clawmd_name_valid(e->d_name, len) ||
		    fstatat(d.fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		clawmd_xgrow(&v, &cap, k + 1, sizeof(*v));
		v[k++] = clawmd_xstrdup(e->d_name);
	}
	closedir(dir);
	if (k)
		qsort(v, k, sizeof(*v), clawmd_strcmp_ptr);
	*out = v;
	*n = k;
out:
	clawmd_dir_release(&d);
	return rc;
}