/*
 * present.c - whether a named group is there, a real directory under the
 * groups directory, asked of every GROUP a command is given before it
 * touches any (clawmd/group.h).  clawmd_group_open() checks the name and
 * opens nothing; the steps refuse a missing or symlinked group when they
 * reach it, but a command over several groups must refuse before the first.
 */
#include "clawmd.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int clawmd_group_present(const struct clawmd_root *root, const char *name, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = &root->lay;
	size_t la = strlen(lay->groups);
	while (la > 1 && lay->groups[la - 1] == '/')
		la--;
	char *path = clawmd_xasprintf("%.*s/%s", (int)la, lay->groups, name);
	struct stat st;
	int st_rc = lstat(path, &st);
	const char *why = st_rc < 0 ? "does not exist"
			  : S_ISLNK(st.st_mode) ? "is a symlink (refused: it could lead anywhere)"
			  : !S_ISDIR(st.st_mode) ? "is not a directory" : NULL;
	int rc = 0;
	if (why) {
		char *shown = clawmd_layout_shown(lay, path);
		rc = clawmd_err_set(err, CLAWMD_EFS, "%sgroup '%s': '%s' %s", st_rc < 0 ? "no " : "",
				    name, shown, why);
		free(shown);
	}
	free(path);
	return rc;
}
