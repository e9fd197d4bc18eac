/* groups.h - the groups directory, for lib/ (private; the listing is
 * public: clawmd_groups_list() in clawmd/layout.h). */
#ifndef CLAWMD_LAYOUT_GROUPS_H
#define CLAWMD_LAYOUT_GROUPS_H

#include "clawmd.h"
#include "fs/fs.h"

/* The layout's groups directory, opened as clawmd_dir_open() opens one.
 * A missing one is EFS naming it as the user sees it, with how to make or
 * name it: a root that never had groups, or the wrong root, fails the
 * same way in every command that walks the groups. */
int clawmd_groups_open(struct clawmd_dir *out, const struct clawmd_layout *lay,
		       struct clawmd_err *err);

#endif
