/*
 * seed.h - what compose does for the seed documents' own loaders, caliban
 * and chimera (private to compose/; doc/runtimes.md, "caliban and chimera").
 *
 * caliban reads CLAUDE.md but never CLAUDE.local.md, and follows an @
 * only as the first word of a line: for a group that runs it, the entry
 * imports the agent's memory, and a fragment's file that caliban would
 * reach only through an import inside a line is imported from the entry
 * as well, on a line of its own, after the fragment (Claude Code and
 * chimera load a file once: the second import adds nothing for them).
 * chimera walks CLAUDE.local.md by itself and dedupes imports only within
 * one walked file: an entry importing the memory would hand it the memory
 * twice, so a group whose only readers of CLAUDE.md are chimera gets no
 * such import, whatever the layout's import_local says.
 */
#ifndef CLAWMD_COMPOSE_SEED_H
#define CLAWMD_COMPOSE_SEED_H

#include "clawmd.h"

/* Whether the group's CLAUDE.md imports CLAUDE.local.md, for the
 * runtimes in `runtimes`: the layout's import_local, or caliban among
 * them; never when chimera is the only one reading CLAUDE.md. */
bool clawmd_seed_import_local(const struct clawmd_layout *lay, clawmd_runtimes runtimes);

/* Whether a runtime in `runtimes` reads CLAUDE.md by caliban's rules. */
bool clawmd_seed_runs_caliban(const struct clawmd_layout *lay, clawmd_runtimes runtimes);

/* Whether a runtime in `runtimes` reading `entry` loads by caliban's
 * rules (the flat document then imports the memory). */
bool clawmd_seed_caliban_reads(const struct clawmd_layout *lay, clawmd_runtimes runtimes,
			       const char *entry);

/*
 * For the copied fragment directory `dir` (a CLAWMD_FT_DIR entry, named
 * `dirname` in the group): an import line in `body` for each of its files
 * caliban would not reach from the fragment (an import inside a line, or
 * deeper than its five levels), in the directory's order.
 */
void clawmd_seed_hoist(struct clawmd_buf *body, const struct clawmd_entry *dir,
		       const char *dirname);

#endif
