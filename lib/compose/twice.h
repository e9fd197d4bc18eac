/*
 * twice.h - what a plan hands one runtime twice (private; the question is
 * public: clawmd_plan_twice() in clawmd/compose.h).
 *
 * Copilot CLI reads AGENTS.md and CLAUDE.md in one directory, Cursor
 * CLAUDE.local.md beside its AGENTS.md (doc/runtimes.md, "The same text
 * twice"): a group whose other runtimes need both files hands such a
 * runtime its instructions twice.  Both layouts' planners (plan.c,
 * flat.c) and check (lint/group.c) ask the same question of a finished
 * plan.
 */
#ifndef CLAWMD_COMPOSE_TWICE_H
#define CLAWMD_COMPOSE_TWICE_H

#include "clawmd.h"

/* A warning for each runtime in `runtimes` the plan hands its
 * instructions twice, naming the files. */
void clawmd_plan_warn_twice(struct clawmd_plan *plan, const struct clawmd_group *g,
			    clawmd_runtimes runtimes);

#endif
