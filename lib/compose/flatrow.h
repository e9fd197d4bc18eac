/*
 * flatrow.h - container.json as nanoclaw reads its row, for the flat
 * document (private to compose/; flat.c is its one caller).
 */
#ifndef CLAWMD_COMPOSE_FLATROW_H
#define CLAWMD_COMPOSE_FLATROW_H

#include "clawmd.h"

#include <cJSON.h>

struct clawmd_flat_row {
	bool all_skills;
	char **skills;
	size_t nskills;
	bool cli_disabled;
	char **mcp_names, **mcp_text; /* valid servers with instructions, in key order */
	size_t nmcp;
};

/* Read the JSON object `doc` (container.json, shown as `cj` in warnings,
 * which go to `plan`; the servers' @ directives are defused and counted in
 * plan->ndefused).  No skills key: every skill. */
void clawmd_flat_row_read(struct clawmd_flat_row *r, struct clawmd_plan *plan, const cJSON *doc,
			  const char *cj);
void clawmd_flat_row_release(struct clawmd_flat_row *r);

#endif
