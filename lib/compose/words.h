/*
 * words.h - what a compose says, for compose/ itself (private; the words
 * the command and the binding share are public, clawmd/compose.h).
 */
#ifndef CLAWMD_COMPOSE_WORDS_H
#define CLAWMD_COMPOSE_WORDS_H

#include "clawmd.h"

/* Append a warning to the plan: formatted, or `msg` itself (owned now). */
void clawmd_plan_warn(struct clawmd_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void clawmd_plan_add_warning(struct clawmd_plan *plan, char *msg);

#endif
