/*
 * watch.h - inotify behind a watched pass (private; see clawmd_pass_watch()
 * in clawmd.h for what a host sees).
 *
 * A watched pass remembers "group G was verified" and keeps inotify
 * watches on every directory and file that verification rested on, so the
 * next compose of G decides the no-op from the queued events alone, without
 * a system call on the group.  The record (record.c) stays the authority:
 * a group is only ever marked verified by clawmd_record_fresh() after every
 * fact of its record was stat'ed and matched, and every watch below was
 * added *before* the stat of the facts it covers.  So a change made before
 * the watch is seen by the stat, one made after it is an event: no window.
 *
 *	int g = clawmd_watch_begin(w, group);         // -1: do not memoize
 *	clawmd_watch_dir(w, g, anchor, dir, name) ...  // then stat the fact
 *	clawmd_watch_obj(w, g, path, inode, followed) ...
 *	clawmd_watch_verified(w, g, digest, ...);      // all facts matched
 *	...
 *	if (clawmd_watch_hit(w, plan, digest, group))  // drains the queue first
 *
 * g is a group's slot, or CLAWMD_WATCH_ALL for what every group rests on
 * (the host's sources and the directories above them).  Every function
 * returns -1 when the fact cannot be watched soundly (no watch left, a
 * filesystem whose changes inotify may not report, a symlink on the way);
 * the caller then stops memoizing the group and only the stat path runs.
 */
#ifndef CLAWMD_WATCH_H
#define CLAWMD_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd.h"

#define CLAWMD_WATCH_ALL (-2)

struct clawmd_watch;

/* NULL when inotify is unavailable (no memo: every call takes the stat path). */
struct clawmd_watch *clawmd_watch_new(void);
void clawmd_watch_free(struct clawmd_watch *w);

/* Drain the events, then true when `group` is verified under the layout
 * whose digest is `digest`: `plan` gets the group's recorded warnings and
 * ndefused (the caller sets plan->group).  Makes one system call. */
bool clawmd_watch_hit(struct clawmd_watch *w, struct clawmd_plan *plan, uint64_t digest,
		      const char *group);

/* Start verifying `group`: its slot (the group stops being verified), or -1. */
int clawmd_watch_begin(struct clawmd_watch *w, const char *group);

/*
 * Watch directory `dir` for events on its entry `name` (NULL: on any entry;
 * "*SUFFIX": on every entry whose name ends in SUFFIX)
 * and on itself.  When `dir` lies under `anchor` (ROOT), each directory from
 * the anchor down to `dir` is watched for the next component too, and none
 * of them may be a symlink: a symlink's target has parents nobody watches.
 * What is above the anchor is taken as fixed (the anchor itself may be
 * reached through a symlink): ROOT, or a layout directory outside it.  anchor NULL: `dir` alone,
 * followed (a /proc/self/fd/N path for a directory compose opened).
 */
int clawmd_watch_dir(struct clawmd_watch *w, int g, const char *anchor, const char *dir,
		     const char *name);

/* The object at `path`; nothing there is fine (the directory's watch sees
 * it appear).  With `inode`, its inode (a symlink's own, not followed) is
 * watched too, which sees writes made through another hard link or another
 * mount of it, which its directory's watch does not.  `followed`: the fact
 * follows a symlink there, so a symlink is refused (its target's parents
 * are not watched). */
int clawmd_watch_obj(struct clawmd_watch *w, int g, const char *path, bool inode, bool followed);

/* A watch failed: stop trying for the group (each try costs system calls
 * at every compose) until an event touches what was watched of it. */
void clawmd_watch_refuse(struct clawmd_watch *w, int g);

/* Every fact of the group's record matched after its watches were added. */
void clawmd_watch_verified(struct clawmd_watch *w, int g, uint64_t digest, char *const *warnings,
			   size_t nwarnings, size_t ndefused);

#endif
