/*
 * flat.h - the flat document (private to compose/; doc/compose.md, "The
 * flat document").
 *
 * clawmd_plan_build() hands a group whose layout (clawmd.json "document",
 * or its provider's contract) is flat to clawmd_flat_plan(): the plan then
 * holds one entry per provider's file and nothing else (plan->flat), and
 * compare and apply leave out what only the import layout has (the
 * fragments, the shared base, a created CLAUDE.local.md), removing what
 * clawmd or nanoclaw wrote of it.  A flat entry's header is nanoclaw's, so
 * clawmd's own output is told from a hand edit by the digest it keeps in
 * the group's lock file (clawmd_flat_remember() after a compose that
 * wrote; group/group.h says where in it), or, kept by an older clawmd, in
 * STATE/flat/<group>, which the next such write moves there.
 */
#ifndef CLAWMD_COMPOSE_FLAT_H
#define CLAWMD_COMPOSE_FLAT_H

#include "clawmd.h"

bool clawmd_flat_wanted(struct clawmd_group *g);
/* The lock file holds a whole record of whose the flat entries are (none,
 * a torn one or one still in STATE/flat/<group>: false). */
bool clawmd_flat_recorded(const struct clawmd_group *g);
int clawmd_flat_plan(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err);
/* The file starts with the flat document's header line. */
bool clawmd_flat_header(const char *data, size_t len);
/* A flat entry clawmd wrote and nobody edited since (its digest is the one
 * recorded), or one with the header and no record (nanoclaw's own); with
 * a torn record, none is. */
bool clawmd_flat_ours(const struct clawmd_group *g, const char *name, const char *data, size_t len);
/* Record the digests of the plan's entries (with `keep`, beside those
 * already recorded); true when it kept any other digest. */
bool clawmd_flat_remember(const struct clawmd_group *g, const struct clawmd_plan *plan, bool keep);

/* How the flat document ends a section it cut to fit its cap (the
 * persona, the base: nothing droppable was left), "...HEAD<bytes>TAIL";
 * check's CM604 finds it. */
#define CLAWMD_FLAT_CUT_HEAD "\n\n[The last "
#define CLAWMD_FLAT_CUT_TAIL " bytes of this section were cut to fit the project-document size cap.]"

#endif
