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
 *	clawmd_watch_start(w, lay, gd, nfacts);        // the record read
 *	for each fact: clawmd_watch_fact(w, &f) ...    // then stat the fact
 *	clawmd_watch_end(w, fresh, digest, ...);       // every fact looked at
 *	...
 *	if (clawmd_watch_hit(w, plan, digest, group))  // drains the queue first
 *
 * The facts are the record's (fs/inputs.h); what each rests on, and how it
 * is watched, is known here alone.  A fact that cannot be watched soundly
 * (no watch left, a filesystem whose changes inotify may not report, a
 * symlink on the way) stops the memo of the group: only the stat path then
 * runs for it.
 */
#ifndef CLAWMD_WATCH_H
#define CLAWMD_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clawmd.h"
#include "fs/fs.h"
#include "fs/inputs.h"

struct clawmd_watch;

/* NULL when inotify is unavailable (no memo: every call takes the stat path). */
struct clawmd_watch *clawmd_watch_new(void);
void clawmd_watch_free(struct clawmd_watch *w);

/* Drain the events, then true when `group` is verified under the layout
 * whose digest is `digest`: `plan` gets the group's recorded warnings and
 * ndefused (the caller sets plan->group).  Makes one system call. */
bool clawmd_watch_hit(struct clawmd_watch *w, struct clawmd_plan *plan, uint64_t digest,
		      const char *group);

/* Start verifying the group at `gd` (its record holds `nfacts` facts): the
 * group stops being verified, and its own watches are set up, unless it
 * cannot be memoized. */
void clawmd_watch_start(struct clawmd_watch *w, const struct clawmd_layout *lay,
			const struct clawmd_dir *gd, size_t nfacts);

/* Watch what fact `f` of the group being verified rests on; called before
 * the fact is looked at. */
void clawmd_watch_fact(struct clawmd_watch *w, const struct clawmd_input *f);

/* Every fact was looked at (`fresh`: each matched, and nothing followed
 * them): the group is verified, or, when a watch failed, refused (not
 * tried again until an event touches what was watched of it).  A check
 * that stopped at a fact that did not match ends without this call. */
void clawmd_watch_end(struct clawmd_watch *w, bool fresh, uint64_t digest, char *const *warnings,
		      size_t nwarnings, size_t ndefused);

#endif
