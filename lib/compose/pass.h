/*
 * pass.h - a pass over many groups of one root (private; the public side is
 * struct clawmd_pass in clawmd/compose.h and struct clawmd_root).
 *
 * A plain pass remembers, for the pass's length, what the host's sources
 * were found to be: each source path's identity, stat'ed once for all the
 * groups (compose/record.c), and the bytes plan.c read (the shared base,
 * copied sources, listings, the layout's warnings).  A watched pass lives
 * as long as its host, and any source may change meanwhile: it holds the
 * inotify watch (compose/watch.h) and, of all that, only the sources'
 * bytes, each used again only after a stat finds it unchanged.
 */
#ifndef CLAWMD_COMPOSE_PASS_H
#define CLAWMD_COMPOSE_PASS_H

#include "clawmd.h"
#include "fs/stamp.h"
#include "fs/inputs.h"

/* A pass's memory of the host's sources: path facts by (base, flags,
 * path), each stat'ed once per pass (open addressing, FNV-1a). */
struct clawmd_pass_memo {
	char *key; /* base, flags, path, NUL; or a source's key (pass.h) */
	size_t klen;
	int rc;
	struct clawmd_ident id;
	char *data; /* a source's bytes (clawmd_pass_remember) */
	size_t len;
	struct clawmd_inputs facts; /* what reading them noted (fs/inputs.h) */
};

struct clawmd_pass {
	struct clawmd_pass_memo *v;
	size_t n, cap; /* cap: a power of two */
	/* A watched pass (clawmd_pass_watch()) lives as long as its host: it
	 * keeps no stats, only sources' bytes (checked at each use) and what
	 * inotify vouches for. */
	bool watched;
	size_t kept; /* a watched pass: the bytes of sources it keeps */
	struct clawmd_watch *watch; /* NULL: inotify unavailable */
};

/* The slot for `key` (open addressing, FNV-1a): its key is NULL when the
 * pass has no such entry. */
struct clawmd_pass_memo *clawmd_pass_slot(struct clawmd_pass_memo *v, size_t cap, const char *key,
					  size_t klen);
/* Enter `key` with a stat's outcome (rc, id), growing the table. */
struct clawmd_pass_memo *clawmd_pass_put(struct clawmd_pass *p, const char *key, size_t klen,
					 int rc, const struct clawmd_ident *id);

/* What plan.c remembers in a pass: a key's first byte (never a digit,
 * which the record's fact keys start with), then NUL-separated strings. */
enum clawmd_pass_tag {
	CLAWMD_PASS_SOURCE = 'r',   /* a source's bytes: its directory, its path */
	CLAWMD_PASS_FLAT = 'f',	    /* a source as the flat document reads it: its path */
	CLAWMD_PASS_FLAT_NAMES = 'n', /* a directory's names as the flat document lists them */
	CLAWMD_PASS_SKILLS = 's',   /* the skills shipping a fragment: the directory */
	CLAWMD_PASS_MODULES = 'm',  /* the modules shipping one: the directory */
	CLAWMD_PASS_BASE = 'b',	    /* the shared base is a file: its path */
	CLAWMD_PASS_WARNINGS = 'w', /* the layout's warnings */
};

/*
 * The host's sources as plan.c read them: `key` names what was read; the
 * bytes remembered are copied and NUL-terminated, and with them the facts
 * the read noted in `in` from its fact `from` on, which a recall notes
 * again (the read it saves rested on them).  Only successes are
 * remembered: a failure is tried again by the next group, and reported
 * there.  NULL pass: nothing is remembered; a watched one: sources only
 * (CLAWMD_PASS_SOURCE, CLAWMD_PASS_FLAT, CLAWMD_PASS_FLAT_NAMES), each
 * looked at again at recall.
 */
bool clawmd_pass_recall(struct clawmd_pass *pass, const char *key, size_t klen,
			const char **data, size_t *len, struct clawmd_inputs *in);
void clawmd_pass_remember(struct clawmd_pass *pass, const char *key, size_t klen,
			  const char *data, size_t len, const struct clawmd_inputs *in,
			  size_t from);

#endif
