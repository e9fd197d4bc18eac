/*
 * skipped.c - what a walk of the groups directory passes over that a user
 * should hear of: a symlinked group directory.  clawmd_groups_list() takes
 * real directories only, and naming a symlink as GROUP is refused, so a
 * command over every group says which it skipped (clawmd/layout.h).
 */
#include "clawmd.h"
#include "base/util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

size_t clawmd_groups_symlinked(char ***out, const struct clawmd_layout *lay)
{
	DIR *d = opendir(lay->groups);
	struct stat st;
	size_t n = 0, cap = 0;
	*out = NULL;
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode) && clawmd_name_valid(e->d_name, strlen(e->d_name))) {
			clawmd_xgrow(out, &cap, n + 1, sizeof(**out));
			(*out)[n++] = clawmd_xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	return n;
}
