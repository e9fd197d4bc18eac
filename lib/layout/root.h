/* root.h - finding ROOT (private to layout/; clawmd_layout_find_root() is
 * public). */
#ifndef CLAWMD_LAYOUT_ROOT_H
#define CLAWMD_LAYOUT_ROOT_H

#include "clawmd.h"

/* ROOT for the absolute directory `cwd`: the nearest ancestor holding a
 * clawmd.json, else a .git, that no candidate further up holds in its
 * groups directory.  NULL with EUSAGE saying how to name one. */
char *clawmd_layout_walk_up(const char *cwd, struct clawmd_err *err);

#endif
