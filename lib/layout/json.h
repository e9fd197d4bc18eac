/* json.h - ROOT/clawmd.json, for the layout (private to layout/). */
#ifndef CLAWMD_LAYOUT_JSON_H
#define CLAWMD_LAYOUT_JSON_H

#include "clawmd.h"

/* The largest clawmd.json read (its cache may be twice that). */
#define CLAWMD_LAYOUT_JSON_MAX (256 * 1024)

/* Apply ROOT/clawmd.json to `lay` (its ROOT set, the default preset
 * applied): no file leaves the defaults.  EINPUT naming the file, the line
 * and the key; EFS when it cannot be read.  A cache of it to keep is left
 * in lay->json_cache for clawmd_layout_keep(). */
int clawmd_layout_load_json(struct clawmd_layout *lay, struct clawmd_err *err);

#endif
