/*
 * flat.h - the flat document (private to compose/; doc/compose.md, "The
 * flat document").
 *
 * clawmd_plan_build() hands a group whose layout is flat
 * (clawmd_flat_wanted()) to clawmd_flat_plan(): the plan then holds one
 * entry per provider's file and nothing else (plan->flat), and compare
 * and apply leave out what only the import layout has (the fragments, the
 * shared base, a created CLAUDE.local.md), removing what clawmd or
 * nanoclaw wrote of it.  Whose a flat entry in the group is, and what
 * marks one, is group/'s (group/flatentry.h): compose, migrate and lint
 * all ask it.
 */
#ifndef CLAWMD_COMPOSE_FLAT_H
#define CLAWMD_COMPOSE_FLAT_H

#include "clawmd.h"
#include "group/flatentry.h"

int clawmd_flat_plan(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err);

#endif
