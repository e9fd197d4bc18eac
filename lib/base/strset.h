/*
 * strset.h - a set of strings (private): open addressing, FNV-1a, the set
 * owning copies of what is added.  The one hash set of the library's
 * loaders (the paths a walk has seen).
 */
#ifndef CLAWMD_BASE_STRSET_H
#define CLAWMD_BASE_STRSET_H

#include <stdbool.h>
#include <stddef.h>

struct clawmd_strset {
	char **v; /* cap slots, NULL when free; cap a power of two */
	size_t n, cap;
};

#define CLAWMD_STRSET_INIT {NULL, 0, 0}

bool clawmd_strset_has(const struct clawmd_strset *s, const char *p);
/* Add a copy of `p`: false when it was there already. */
bool clawmd_strset_add(struct clawmd_strset *s, const char *p);
void clawmd_strset_release(struct clawmd_strset *s);

#endif
