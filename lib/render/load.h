/*
 * load.h - what every runtime's loader shares (private to render/).
 *
 * A load reads through one struct clawmd_load_view: fs/view.c's resolver
 * (a container path walked through the mount table with directory fds, or
 * a host path), with the load's bounds: a file over CLAWMD_LOAD_FILE_MAX
 * is skipped unread, and one load reads at most CLAWMD_LOAD_BYTES_MAX
 * bytes, tries at most CLAWMD_LOAD_FILES_MAX paths and lists at most
 * CLAWMD_LOAD_ENTRIES_MAX directory entries (CLAWMD_LOAD_DIR_MAX per
 * directory); past a bound, the rest is skipped as missing.
 * clawmd_memory_load() (memory.c) sets the view and the working directory
 * up, then hands them to the runtime's loader (runtimes.h).
 */
#ifndef CLAWMD_RENDER_LOAD_H
#define CLAWMD_RENDER_LOAD_H

#include "clawmd.h"
#include "fs/view.h"
#include "base/util.h"
#include "runtime/text.h" /* text as each runtime decodes it */

#include <sys/types.h>

#define CLAWMD_LOAD_FILE_MAX (4u * 1024 * 1024) /* Claude Code 2.1.330 skips files over 4 MiB */
#define CLAWMD_LOAD_BYTES_MAX (64u * 1024 * 1024)
#define CLAWMD_LOAD_FILES_MAX 50000u
#define CLAWMD_LOAD_ENTRIES_MAX 200000u
#define CLAWMD_LOAD_DIR_MAX 65536u
#define CLAWMD_LOAD_STEPS_MAX 4000000u /* path components resolved */

struct clawmd_load_view {
	struct clawmd_view v;
	size_t bytes, files, entries; /* spent in this load */
	size_t steps;		      /* left in this load */
};


char *clawmd_load_realpath(struct clawmd_load_view *v, const char *p);
/* 'f' a regular file, 'd' a directory, 0 nothing or anything else (after links). */
char clawmd_load_kind(struct clawmd_load_view *v, const char *p);
/* Read the regular file `nd` resolved to; -errno otherwise (EISDIR for
 * directories, EFBIG over the file bound or past the load's bytes). */
int clawmd_load_read(struct clawmd_load_view *v, const struct clawmd_view_node *nd,
		     struct clawmd_buf *out);
/* The first `max` bytes of the regular file `nd` resolved to, whatever its
 * size (within the load's bytes: -EFBIG once they are spent). */
int clawmd_load_read_head(struct clawmd_load_view *v, const struct clawmd_view_node *nd,
			  struct clawmd_buf *out, size_t max);
bool clawmd_load_lexists(struct clawmd_load_view *v, const char *p, bool *is_dir);
/* Names in a directory in readdir(3) order (sorted bytewise if asked);
 * NULL if unreadable or over a bound. */
char **clawmd_load_list(struct clawmd_load_view *v, const char *p, bool sorted, size_t *n,
			dev_t *dev, ino_t *ino);
/*
 * The nearest of `dir` and its ancestors holding one of `names`; NULL:
 * none.  `follow`: only a name whose links lead somewhere counts (stat,
 * fs.access); else anything there (lstat).  `counted`: each look is
 * spent from the load's files.
 */
char *clawmd_load_find_up(struct clawmd_load_view *v, const char *dir, const char *const *names,
			  size_t n, bool follow, bool counted);
/* The directories from `top` down to `dir`, `top` first (from `/` when
 * `top` is not one of dir's ancestors); *n of them. */
char **clawmd_load_walk_down(const char *top, const char *dir, size_t *n);
#endif
