/* keys.h - the table of layout keys (layout.c), as clawmd.json's reader
 * asks it (private to layout/). */
#ifndef CLAWMD_LAYOUT_KEYS_H
#define CLAWMD_LAYOUT_KEYS_H

#include "clawmd.h"

/* `key` is a row of the table (clawmd_layout_set may still refuse its
 * value). */
bool clawmd_layout_key_known(const char *key);
/* A host path as a layout key takes it: absolute, or relative to ROOT. */
char *clawmd_layout_host_path(const struct clawmd_layout *lay, const char *v);

#endif
