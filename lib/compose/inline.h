/*
 * inline.h - an entry file for a runtime that does not follow @ imports
 * (private to compose/).
 *
 * Codex reads AGENTS.md as plain text: an import-only entry would give its
 * agent nothing but the import lines.  For such a runtime the plan writes
 * one file holding every part the import-only CLAUDE.md would load, in the
 * same order: the persona, the shared base, each skill and module fragment
 * followed by the files it imports from inside its directory, the inline
 * MCP instructions, the optional files, the agent's memory.  Each part is
 * preceded by a comment naming where it came from, as the container sees
 * it.  Text the agent writes comes in defused (compose/defuse.c).
 *
 *	struct clawmd_inline in;
 *	clawmd_inline_init(&in);
 *	clawmd_inline_add(&in, "/app/CLAUDE.md", base, len);
 *	...
 *	if (clawmd_inline_finish(&file, &in, "groups/a/AGENTS.md", "Codex", 32768, &err) < 0) ...
 *	clawmd_inline_release(&in);
 */
#ifndef CLAWMD_COMPOSE_INLINE_H
#define CLAWMD_COMPOSE_INLINE_H

#include "clawmd.h"

struct clawmd_inline_part {
	char *from;
	size_t len;
};

struct clawmd_inline {
	struct clawmd_buf text;
	struct clawmd_inline_part *parts;
	size_t n, cap;
};

void clawmd_inline_init(struct clawmd_inline *in);
/* One part: nothing when len is 0. */
void clawmd_inline_add(struct clawmd_inline *in, const char *from, const char *text, size_t len);
/* A plan entry's text: a file, or a copied fragment directory's files in
 * order, each named from `from_dir` and its name. */
void clawmd_inline_add_entry(struct clawmd_inline *in, const char *from, const char *from_dir,
			     const struct clawmd_entry *e);
/*
 * The entry file into `out`: clawmd's header line with the digest of the
 * rest, then the parts.  EINPUT when it would be more than `limit` bytes
 * (0: no limit), naming `shown`, the runtime `who` and the biggest parts.
 */
int clawmd_inline_finish(struct clawmd_buf *out, const struct clawmd_inline *in, const char *shown,
			 const char *who, size_t limit, struct clawmd_err *err);
void clawmd_inline_release(struct clawmd_inline *in);

#endif
