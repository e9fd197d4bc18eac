/* providers.h - clawmd.json's "providers" (layout/'s interface: compose's
 * mounts check the container paths again; the lookups are public, in
 * clawmd/layout.h). */
#ifndef CLAWMD_LAYOUT_PROVIDERS_H
#define CLAWMD_LAYOUT_PROVIDERS_H

#include "clawmd.h"

/* One key "providers.NAME.FIELD" of clawmd.json, its value as the other
 * layout keys take theirs (lists joined by commas).  EUSAGE naming the
 * key and what it expects. */
int clawmd_layout_provider_set(struct clawmd_layout *lay, const char *key, const char *v,
			       struct clawmd_err *err);
/* Each provider's container_path against the mounts a runner makes: its
 * entry's own name in the group's directory, or a path that is no mount
 * point, nor above or below one (not "/" or "/workspace", not over the
 * agent's CLAUDE.local.md or container.json, not over the base), and no
 * two entries at one path.  Checked once every key is read (the entry
 * and the container's paths may come after container_path).  EINPUT
 * naming the provider's key. */
int clawmd_layout_providers_check(const struct clawmd_layout *lay, struct clawmd_err *err);
/* What of the layout's contracts a plan depends on, for the no-op record. */
void clawmd_layout_providers_digest(struct clawmd_buf *b, const struct clawmd_layout *lay);
void clawmd_layout_providers_release(struct clawmd_layout *lay);

#endif
