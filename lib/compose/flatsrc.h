/*
 * flatsrc.h - the host's install tree as the flat document reads it
 * (private to compose/; flat.c is its one caller).
 *
 * Host paths, symlinks followed, as nanoclaw's composer follows them;
 * each look is noted in the group's recorder (fs/inputs.h) and its result
 * kept for the pass (compose/pass.h), so a pass over many groups reads
 * each file and lists each directory once.
 */
#ifndef CLAWMD_COMPOSE_FLATSRC_H
#define CLAWMD_COMPOSE_FLATSRC_H

#include "clawmd.h"

/* The file at host path `path`, decoded as Node decodes UTF-8, into `out`:
 * 0, 1 when it is absent, or an error (EFS; EINPUT past 64 MiB).
 * path[0, base) is the source directory it lies in (the skills; 0: none),
 * which the record's check opens once for all its files. */
int clawmd_flat_source_read(struct clawmd_buf *out, struct clawmd_group *g, const char *path,
			    size_t base, struct clawmd_err *err);
/* The names in directory `dir`, in JavaScript's order, *n of them; NULL
 * when it does not exist.  A name that is not UTF-8 is left out with a
 * warning in `plan`. */
char **clawmd_flat_source_list(struct clawmd_plan *plan, struct clawmd_group *g, const char *dir,
			       size_t *n);

#endif
