/* result.c - what a migrate says (migrate/migrate.h): each action it
 * takes, with its paths as shown (relative to ROOT when inside it), the
 * words of its steps, and the result a caller frees.  The bottom of
 * migrate/: every other part records its actions here. */
#include "migrate/migrate.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const step_names[] = {
	"remove-link", "keep",	 "move-aside",	"move",	       "append", "remove-entry", "append-base",
	"base-has",    "archive", "skip",	"remove-temp", "record", "error",
	"review-base",
};

const char *clawmd_migrate_step_name(enum clawmd_migrate_step step)
{
	if ((size_t)step >= CLAWMD_ARRAY_SIZE(step_names))
		return "unknown";
	return step_names[step];
}

void clawmd_migrate_result_init(struct clawmd_migrate_result *res)
{
	memset(res, 0, sizeof(*res));
}

void clawmd_migrate_result_release(struct clawmd_migrate_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++) {
		free(res->v[i].group);
		free(res->v[i].path);
		free(res->v[i].dest);
		free(res->v[i].note);
		free(res->v[i].git);
	}
	free(res->v);
	free(res->record);
	free(res->ignore_hint);
	clawmd_strv_free(res->warnings, res->nwarnings);
	clawmd_strv_free(res->failed, res->nfailed);
	clawmd_strv_free(res->groups, res->ngroups);
	clawmd_migrate_result_init(res);
}

/* A path as shown: relative to ROOT when inside it. */
char *clawmd_mig_shown(const struct clawmd_layout *lay, const char *dir, const char *name)
{
	char *p = clawmd_path_join(dir, name);
	char *s = clawmd_layout_shown(lay, p);
	free(p);
	return s;
}

/* Record an action; `path` and `dest` are taken over (may be NULL). */
struct clawmd_migrate_action *clawmd_mig_act(struct mig *m, enum clawmd_migrate_step step,
					     const char *group, char *path, char *dest,
					     const char *note)
{
	struct clawmd_migrate_result *r = m->res;
	clawmd_xgrow(&r->v, &m->cap, r->n + 1, sizeof(*r->v));
	struct clawmd_migrate_action *a = &r->v[r->n++];
	memset(a, 0, sizeof(*a));
	a->step = step;
	a->group = group ? clawmd_xstrdup(group) : NULL;
	a->path = path;
	a->dest = dest;
	a->note = note ? clawmd_xstrdup(note) : NULL;
	return a;
}
