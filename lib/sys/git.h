/*
 * git.h - libgit2, loaded on first use.
 *
 * Linking libgit2 costs about 2 ms of dynamic loading per process start
 * (its dependency chain), more than the whole no-op compose.  So nothing
 * links it: the first caller of clawmd_git() dlopen()s it and resolves the
 * functions listed below; later calls return the same table.  The
 * prototypes come from <git2.h>, so every call is type-checked.
 *
 * To use another libgit2 function, add one X(name) line to the list.
 */
#ifndef CLAWMD_GIT_H
#define CLAWMD_GIT_H

#include <git2.h>
#include "clawmd.h"

#define CLAWMD_GIT_FUNCS(X)                                                                        \
	X(git_libgit2_init)                                                                        \
	X(git_error_last)                                                                          \
	X(git_repository_open_ext)                                                                 \
	X(git_repository_workdir)                                                                  \
	X(git_repository_path)                                                                     \
	X(git_repository_commondir)                                                                \
	X(git_repository_is_worktree)                                                              \
	X(git_repository_free)                                                                     \
	X(git_ignore_path_is_ignored)                                                              \
	X(git_ignore_add_rule)                                                                     \
	X(git_repository_set_workdir)                                                              \
	X(git_patch_from_buffers)                                                                  \
	X(git_patch_to_buf)                                                                        \
	X(git_patch_free)                                                                          \
	X(git_buf_dispose)                                                                         \
	X(git_repository_index)                                                                    \
	X(git_index_get_bypath)                                                                    \
	X(git_index_add)                                                                           \
	X(git_index_remove_bypath)                                                                 \
	X(git_index_write)                                                                         \
	X(git_index_free)                                                                          \
	X(git_blob_create_from_buffer)

struct clawmd_git {
#define CLAWMD_GIT_MEMBER(name) __typeof__(name) *name;
	CLAWMD_GIT_FUNCS(CLAWMD_GIT_MEMBER)
#undef CLAWMD_GIT_MEMBER
};

/* The loaded and initialised libgit2, or NULL with CLAWMD_EFS in err. */
const struct clawmd_git *clawmd_git(struct clawmd_err *err);
/* libgit2's last error message, never NULL. */
const char *clawmd_git_errmsg(const struct clawmd_git *git);

#endif
