/*
 * worktree.h - a nested git worktree, as Claude Code tells one (private to
 * render/; §2.8 of claude-code-memory.md).
 */
#ifndef CLAWMD_RENDER_WORKTREE_H
#define CLAWMD_RENDER_WORKTREE_H

#include "render/load.h"

/* When the working directory `cwd` lies in a git worktree nested inside
 * its main repository's work tree: true, with the worktree's root in
 * *git_root and the main work tree's in *canonical (paths in the view,
 * the caller's to free); the walk's directories between the two skip their
 * project files.  Every look goes through the load's view and bounds. */
bool clawmd_git_nested_worktree(struct clawmd_load_view *v, const char *cwd, char **git_root,
				char **canonical);

#endif
