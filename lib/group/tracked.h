/*
 * tracked.h - text git tracks stays in git when clawmd moves it.
 *
 * compose (a hand-written CLAUDE.md it preserves) and migrate (a legacy
 * CLAUDE.md it carries into CLAUDE.local.md) move the owner's text to a
 * new name, which init's .gitignore ignores.  When the old name was tracked
 * by the host's repository, the text would silently leave git: 'git status'
 * shows a deletion, and a 'git clean -fdX' or a new clone loses the text.
 * So the move is staged instead, as 'git mv' would stage it: the new name
 * is added to the index (even though ignored: an index entry wins over
 * .gitignore), the old one removed.  'git status' shows the rename; the
 * owner commits it.
 *
 * The blob is made from the bytes clawmd itself wrote, never by reading the
 * new name back: the group is the agent's, and a name it swapped for a
 * symlink meanwhile must not carry a host file into the repository.  Only
 * ROOT's repository is opened (never one inside a group), and only when a
 * move happened: a compose with nothing to preserve loads no libgit2.
 */
#ifndef CLAWMD_GROUP_TRACKED_H
#define CLAWMD_GROUP_TRACKED_H

#include "clawmd.h"

/*
 * ROOT's repository and its index, opened once for a run (migrate carries
 * many groups): NULL when ROOT is in no git work tree, or its groups
 * directory is outside it.  clawmd_tracked_close(NULL) is a no-op.
 */
struct clawmd_tracked;
struct clawmd_tracked *clawmd_tracked_open(const struct clawmd_layout *lay);
void clawmd_tracked_close(struct clawmd_tracked *t);

/*
 * `from` was moved to `to` (names in group `group`), and `to` now holds
 * `data`.  NULL when `from` is not tracked (or t is NULL); else a message
 * for the owner, caller frees: the move was staged, or (dry_run) would be,
 * or could not be, then with the exact commands to run, and *failed set.
 */
char *clawmd_tracked_move(struct clawmd_tracked *t, const char *group, const char *from,
			  const char *to, const char *data, size_t len, bool dry_run, bool *failed);

/*
 * `name` in group `group` left the work tree for a place git does not see
 * (migrate archives groups/global/ under the state directory, which ignores
 * itself): NULL when it is not tracked (or t is NULL); else a message for
 * the owner, caller frees, saying that 'git status' shows it deleted and
 * what to commit.  Nothing is staged: the text went into `into`, a file the
 * owner reviews before committing (`review`: the untracked review file
 * beside a tracked base, which is not for committing).
 */
char *clawmd_tracked_gone(struct clawmd_tracked *t, const char *group, const char *name,
			  const char *into, bool review, bool dry_run);

/*
 * Whether the host file `path` (absolute; its directory must exist) is in
 * the index of ROOT's repository: a file the owner keeps in git, which
 * migrate, running unattended at host start, must not rewrite.  false when
 * t is NULL (no git work tree) or `path` is outside the work tree.
 */
bool clawmd_tracked_has(struct clawmd_tracked *t, const char *path);

#endif
