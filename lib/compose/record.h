/*
 * record.h - the record that lets a no-op compose skip planning (private).
 *
 * A compose that found nothing to do records, in the group's lock file in
 * the host-only state directory, exactly what its plan and its comparison
 * read: the facts the recorder noted at each read (fs/inputs.h: the
 * identity of what was read or listed, the type of what only had to
 * exist, the names a pattern matched), and a digest of the layout they
 * were read under (clawmd_layout_digest: the one table of layout keys).
 * It knows what a fact is, never what it is for.  The next compose looks
 * at exactly those facts again and, when every one still matches, knows
 * the group is as the plan wants without reading container.json, a source
 * or a copy.  Any doubt (a mismatch, an unreadable or torn record, another
 * layout) means the full compose, which is never skipped for a reason the
 * record cannot prove.
 *
 *	clawmd_inputs_start(&g->inputs);      // before reading anything
 *	... plan, compare (each read noted): nothing to do ...
 *	clawmd_record_save(g, plan);          // g locked
 *	...
 *	if (clawmd_record_fresh(plan, g)) ... nothing to do ...  // g locked
 *
 * Errors are never reported: the record is a shortcut, and a record that
 * cannot be written or read only costs the full compose.
 */
#ifndef CLAWMD_COMPOSE_RECORD_H
#define CLAWMD_COMPOSE_RECORD_H

#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "clawmd.h"
#include "fs/fs.h"

/* True when the record in the lock file `fd` still holds: `plan` then gets
 * the group's name, the recorded warnings and ndefused, and no entries.
 * With a pass, what the host's sources were found to be is remembered for
 * the rest of the pass (see struct clawmd_pass in clawmd.h). */
bool clawmd_record_fresh(struct clawmd_plan *plan, const struct clawmd_group *g);

/* With a watched pass (clawmd_pass_watch()): true when inotify shows
 * nothing `group`'s last verification rested on changed since, under the
 * same layout; `plan` then gets what clawmd_record_fresh() would give.  One
 * system call, none on the group.  A verification in a watched pass (a
 * clawmd_record_fresh() that returns true) is what makes a group known. */
bool clawmd_record_known(struct clawmd_plan *plan, const struct clawmd_group *g);

/* Record what the compose of `plan` read (g->inputs, fs/inputs.h), after
 * it found nothing to do; nothing is recorded when something read may
 * have changed after it was read without its identity showing it. */
void clawmd_record_save(struct clawmd_group *g, const struct clawmd_plan *plan);

/* Drop the record before changing the group: a run killed halfway must not
 * leave a record that vouches for what it left behind. */
void clawmd_record_forget(const struct clawmd_group *g);

#endif
