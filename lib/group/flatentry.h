/*
 * flatentry.h - a flat entry as its readers tell it (group/'s interface,
 * for compose, migrate and lint alike; doc/compose.md, "The flat
 * document").
 *
 * A group whose layout (clawmd.json "document", or its provider's
 * contract) is flat gets one entry per provider's file, written by
 * compose/flat.c.  Its header is nanoclaw's, so clawmd's own output is
 * told from a hand edit by the digest it keeps in the group's lock file
 * (clawmd_flat_remember() after a compose that wrote; group/group.h says
 * where in it), or, kept by an older clawmd, in STATE/flat/<group>, which
 * the next such write moves there.
 */
#ifndef CLAWMD_GROUP_FLATENTRY_H
#define CLAWMD_GROUP_FLATENTRY_H

#include "clawmd.h"

/* The first line of every flat document, nanoclaw's byte for byte. */
#define CLAWMD_FLAT_HEADER                                                                         \
	"<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. "   \
	"Memory: memory/. -->"
/* How the flat document ends a section it cut to fit its cap (the
 * persona, the base: nothing droppable was left), "...HEAD<bytes>TAIL";
 * check's CM604 finds it. */
#define CLAWMD_FLAT_CUT_HEAD "\n\n[The last "
#define CLAWMD_FLAT_CUT_TAIL " bytes of this section were cut to fit the project-document size cap.]"

/* The group's layout is flat: its first runtime's contract says so, else
 * clawmd.json's "document". */
bool clawmd_flat_wanted(struct clawmd_group *g);
/* The lock file holds a whole record of whose the flat entries are (none,
 * a torn one or one still in STATE/flat/<group>: false). */
bool clawmd_flat_recorded(const struct clawmd_group *g);
/* The file starts with the flat document's header line. */
bool clawmd_flat_header(const char *data, size_t len);
/* A flat entry clawmd wrote and nobody edited since (its digest is the one
 * recorded), or one with the header and no record (nanoclaw's own); with
 * a torn record, none is. */
bool clawmd_flat_ours(const struct clawmd_group *g, const char *name, const char *data, size_t len);
/* Record the digests of the plan's entries (with `keep`, beside those
 * already recorded); true when it kept any other digest. */
bool clawmd_flat_remember(const struct clawmd_group *g, const struct clawmd_plan *plan, bool keep);

#endif
