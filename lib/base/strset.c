/* strset.c - a set of strings (strset.h). */
#include "clawmd.h"
#include "base/strset.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static size_t slot(const struct clawmd_strset *s, const char *p)
{
	size_t i = (size_t)clawmd_fnv1a64(p, strlen(p)) & (s->cap - 1);
	while (s->v[i] && strcmp(s->v[i], p))
		i = (i + 1) & (s->cap - 1);
	return i;
}

bool clawmd_strset_has(const struct clawmd_strset *s, const char *p)
{
	return s->cap && s->v[slot(s, p)];
}

bool clawmd_strset_add(struct clawmd_strset *s, const char *p)
{
	if (2 * (s->n + 1) > s->cap) {
		struct clawmd_strset bigger = {NULL, s->n, s->cap ? s->cap * 2 : 64};
		bigger.v = clawmd_xcalloc(bigger.cap, sizeof(char *));
		for (size_t i = 0; i < s->cap; i++)
			if (s->v[i])
				bigger.v[slot(&bigger, s->v[i])] = s->v[i];
		free(s->v);
		*s = bigger;
	}
	size_t i = slot(s, p);
	if (s->v[i])
		return false;
	s->v[i] = clawmd_xstrdup(p);
	s->n++;
	return true;
}

void clawmd_strset_release(struct clawmd_strset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct clawmd_strset)CLAWMD_STRSET_INIT;
}
