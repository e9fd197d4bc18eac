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

/* What a part is to the cap ladder: kept whatever its size (the persona,
 * the shared base, the group's own files), dropped largest first past the
 * cap (skill, module and MCP instructions: their tools still describe
 * themselves), or the agent's memory (kept, and left out for runtimes that
 * read CLAUDE.local.md by themselves). */
enum clawmd_part_kind { CLAWMD_PART_CORE = 0, CLAWMD_PART_DROP, CLAWMD_PART_MEMORY };

struct clawmd_inline_part {
	char *from;
	size_t off, len;      /* in text */
	size_t unit;	      /* parts of one fragment share it: dropped together */
	enum clawmd_part_kind kind;
};

struct clawmd_inline {
	struct clawmd_buf text;
	struct clawmd_inline_part *parts;
	size_t n, cap;
	size_t units;
	enum clawmd_part_kind kind; /* of the parts added next */
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
 * rest, then the parts (the memory only when `memory`).  Past `limit`
 * bytes (0: none) the droppable fragments go, largest first (a tie: the
 * earliest), and a last part names them; if the rest is still past it,
 * the file is written whole (a runtime that cuts its end still starts the
 * agent, a failed compose would not).  What was done goes into `note` (empty:
 * nothing), a sentence naming `shown` and the runtime `who`.
 */
void clawmd_inline_finish(struct clawmd_buf *out, struct clawmd_buf *note,
			  const struct clawmd_inline *in, bool memory, const char *shown,
			  const char *who, size_t limit);
#define CLAWMD_INLINE_OMITTED CLAWMD_INLINE_OMITTED_MARK
void clawmd_inline_release(struct clawmd_inline *in);

#endif
