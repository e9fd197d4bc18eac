/*
 * words.c - what a compose says: the words for its actions and file
 * types, and its warnings, in the library so that the command and the
 * Node binding say the same (clawmd/compose.h).
 *
 * A warning added here reaches both: the command prints each (escaped,
 * "clawmd: warning: "), the binding hands each back in `warnings`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose/words.h"
#include "fs/fs.h"
#include "base/util.h"

void clawmd_plan_add_warning(struct clawmd_plan *plan, char *msg)
{
	plan->warnings = clawmd_xrealloc(plan->warnings, (plan->nwarnings + 1) * sizeof(char *));
	plan->warnings[plan->nwarnings++] = msg;
}

void clawmd_plan_warn(struct clawmd_plan *plan, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	clawmd_plan_add_warning(plan, s);
}

const char *clawmd_action_name(enum clawmd_action a)
{
	static const char *const words[] = {"write", "remove", "preserve", "mkdir", "create"};
	return (unsigned)a < CLAWMD_ARRAY_SIZE(words) ? words[a] : "write";
}

const char *clawmd_ftype_name(enum clawmd_ftype t)
{
	static const char *const words[] = {"none", "file", "symlink", "directory", "other"};
	return (unsigned)t < CLAWMD_ARRAY_SIZE(words) ? words[t] : "other";
}

/* "PATH: defused N @ directive(s) ...", put together without printf: it
 * is said at every spawn of a group whose agent wrote one, no-ops
 * included, and printf's machinery was a tenth of the adapter's no-op. */
static char *defused_warning(const char *path, size_t ndefused)
{
	static const char head[] = ": defused ",
			  tail[] = " @ directive(s) in inline MCP instructions or the persona (they "
				   "load as text; 'clawmd check' lists them)";
	char num[24], *d = num + sizeof(num);
	do
		*--d = (char)('0' + ndefused % 10);
	while (ndefused /= 10);
	size_t pl = strlen(path), dl = (size_t)(num + sizeof(num) - d);
	char *s = clawmd_xmalloc(pl + sizeof(head) - 1 + dl + sizeof(tail));
	char *p = mempcpy(s, path, pl);
	p = mempcpy(p, head, sizeof(head) - 1);
	p = mempcpy(p, d, dl);
	memcpy(p, tail, sizeof(tail));
	return s;
}

size_t clawmd_compose_warnings(char ***out, const struct clawmd_plan *plan,
			       const struct clawmd_changes *ch)
{
	size_t n = 0, cap = 0;
	char **v = NULL;
	for (size_t i = 0; i < plan->nwarnings; i++) {
		clawmd_xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n++] = clawmd_xstrdup(plan->warnings[i]);
	}
	/* Every compose that defuses says so: the agent's container.json or
	 * persona asked for an import that will not load. */
	if (plan->ndefused) {
		clawmd_xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n++] = defused_warning(ch->path, plan->ndefused);
	}
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		if (!c->moved_to)
			continue;
		/* Carried into the memory, the text is where it belongs; moved
		 * aside, it waits for review, and status counts it (PRESERVED):
		 * say which. */
		bool carried = !strcmp(c->moved_to, CLAWMD_LOCAL_NAME);
		const char *ov = strstr(c->moved_to, CLAWMD_PRESERVED_MARK CLAWMD_PRESERVED_OVERFLOW);
		clawmd_xgrow(&v, &cap, n + 1, sizeof(*v));
		if (ov) {
			/* The cap on what waits for review: said every time. */
			bool file = !ov[sizeof(CLAWMD_PRESERVED_MARK CLAWMD_PRESERVED_OVERFLOW) - 1];
			v[n++] = clawmd_xasprintf(
				"%s/%s %s; %s %s/%s: %d entries moved aside as %.*s already wait "
				"for review (the cap); review and delete them",
				ch->path, c->name,
				c->action == CLAWMD_PRESERVE ? "was not written by clawmd"
							     : "was edited while compose ran",
				file ? "kept in" : "moved aside past the cap to", ch->path,
				c->moved_to, CLAWMD_PRESERVED_CAP, (int)(ov - c->moved_to), c->moved_to);
			continue;
		}
		v[n++] = clawmd_xasprintf("%s/%s %s; %s %s/%s%s", ch->path, c->name,
					  c->action == CLAWMD_PRESERVE ? "was not written by clawmd"
								       : "was edited while compose ran",
					  carried ? "its text is now the group's memory,"
						  : "moved aside to",
					  ch->path, c->moved_to,
					  carried ? ""
						  : " for review ('clawmd status' counts it as PRESERVED)");
	}
	*out = v;
	return n;
}
