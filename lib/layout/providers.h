/* providers.h - clawmd.json's "providers" (private to layout/; the lookups
 * are public, in clawmd/layout.h). */
#ifndef CLAWMD_LAYOUT_PROVIDERS_H
#define CLAWMD_LAYOUT_PROVIDERS_H

#include "clawmd.h"

/* One key "providers.NAME.FIELD" of clawmd.json, its value as the other
 * layout keys take theirs (lists joined by commas).  EUSAGE naming the
 * key and what it expects. */
int clawmd_layout_provider_set(struct clawmd_layout *lay, const char *key, const char *v,
			       struct clawmd_err *err);
/* What of the layout's contracts a plan depends on, for the no-op record. */
void clawmd_layout_providers_digest(struct clawmd_buf *b, const struct clawmd_layout *lay);
void clawmd_layout_providers_release(struct clawmd_layout *lay);

#endif
