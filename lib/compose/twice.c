/* twice.c - what a plan hands one runtime twice (twice.h). */
#include "compose/twice.h"
#include "group/group.h"
#include "compose/words.h"
#include "base/util.h"

#include <string.h>

static bool reads_file(const struct clawmd_contract *c, const char *name)
{
	return (c->entry && !strcmp(c->entry, name)) || clawmd_runtime_list_has(c->reads, name);
}

const char *clawmd_plan_twice(const struct clawmd_plan *plan, const struct clawmd_contract *c)
{
	for (size_t i = 0; c && c->entry && i < plan->n; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		if (e->type != CLAWMD_FT_FILE || !clawmd_runtime_entry_name(e->name) ||
		    !strcmp(e->name, c->entry) || !reads_file(c, e->name))
			continue;
		/* an inlined or flat entry carries text for anyone; an
		 * import-only one for a runtime that follows its imports */
		if (c->imports || plan->flat || memmem(e->data, e->len, "\n<!-- from ", 11))
			return e->name;
	}
	/* its own inlined entry holds the memory it also reads by itself */
	static const char mem[] = "/" CLAWMD_LOCAL_NAME " -->\n";
	for (size_t i = 0; c && c->entry && i < plan->n; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		if (e->type == CLAWMD_FT_FILE && !strcmp(e->name, c->entry) &&
		    clawmd_runtime_list_has(c->reads, CLAWMD_LOCAL_NAME) &&
		    memmem(e->data, e->len, mem, sizeof(mem) - 1))
			return CLAWMD_LOCAL_NAME;
	}
	/* chimera walks CLAUDE.local.md and also follows the entry's import
	 * of it: imported for another runtime of the group, it reads the
	 * memory twice (compose/seed.h) */
	static const char imp[] = "\n@./" CLAWMD_LOCAL_NAME "\n";
	for (size_t i = 0; c && c->like == CLAWMD_RUNTIME_CHIMERA && c->entry && i < plan->n; i++) {
		const struct clawmd_entry *e = &plan->entries[i];
		if (e->type == CLAWMD_FT_FILE && !strcmp(e->name, c->entry) &&
		    memmem(e->data, e->len, imp, sizeof(imp) - 1))
			return CLAWMD_LOCAL_NAME;
	}
	return NULL;
}

void clawmd_plan_warn_twice(struct clawmd_plan *plan, const struct clawmd_group *g,
			    clawmd_runtimes runtimes)
{
	for (int rt = 0; rt < clawmd_layout_nruntimes(g->lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(g->lay, rt);
		const char *twice = (runtimes & (1u << rt)) ? clawmd_plan_twice(plan, c) : NULL;
		if (!twice)
			continue;
		clawmd_plan_warn(plan, "%s: %s reads both %s and %s, and the group's other runtimes "
				 "need both: it gets the instructions twice; run it in a group "
				 "of its own",
				 g->shown, c->title, c->entry, twice);
	}
}
