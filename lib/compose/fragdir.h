/*
 * fragdir.h - the directories copy mode writes inside .claude-fragments for a
 * fragment with relative imports (see plan.c, "copy mode: a fragment's
 * relative imports"), private to the library.
 *
 * Such a directory is written as a whole, never edited in place:
 *
 *	if (!clawmd_fragdir_same(frag, "skill-x", want))      // compare (reads)
 *		clawmd_fragdir_stage(tmp, frag, "skill-x", want, err); // complete, fsynced
 *	...
 *	clawmd_fragdir_commit(frag, tmp, "skill-x", want, err);      // swapped in, old removed
 *
 * Everything inside .claude-fragments/<kind>-<item>/ is clawmd's: whatever
 * else is found there (the directory is writable by the agent) is removed
 * with it, never followed: symlinks are unlinked, directories entered with
 * O_NOFOLLOW, and the work is bounded.  A tree past the bounds is moved
 * aside instead, so a planted tree cannot make every spawn slow.
 */
#ifndef CLAWMD_FRAGDIR_H
#define CLAWMD_FRAGDIR_H

#include <stdbool.h>

#include "clawmd.h"
#include "fs/fs.h"
#include "fs/inputs.h"

/* "skill-<name>" or "module-<name>": a directory compose may own. */
bool clawmd_fragdir_name(const char *name);
/* The base name a killed run's staging directory was made for, or NULL. */
const char *clawmd_fragdir_temp_of(char out[32], const char *name);
/* True when directory `name` in `frag` holds exactly want's files; what
 * it read is noted in `in` (fs/inputs.h), the directory at group path
 * `path`. */
bool clawmd_fragdir_same(const struct clawmd_dir *frag, const char *name,
			 const struct clawmd_entry *want, struct clawmd_inputs *in, const char *path);
/* Build the whole directory under a fresh temp name (returned in tmp). */
int clawmd_fragdir_stage(char tmp[64], const struct clawmd_dir *frag, const char *name,
			 const struct clawmd_entry *want, struct clawmd_err *err);
/* Put the staged directory in place; what it replaced is removed when it
 * holds only files of `want`, else moved aside whole (NAME.clawmd-preserved-*). */
int clawmd_fragdir_commit(const struct clawmd_dir *frag, const char *tmp, const char *name,
			  const struct clawmd_entry *want, struct clawmd_err *err);
/* Remove a staged directory that was not committed (best effort). */
void clawmd_fragdir_unstage(const struct clawmd_dir *frag, const char *tmp);
/* Remove a stale directory; moved aside whole when it holds anything but
 * directories and single-link regular files, or is past the bounds. */
int clawmd_fragdir_remove(const struct clawmd_dir *frag, const char *name, struct clawmd_err *err);

#endif
