/* release.c - Claude Code releases and the loading rules that changed
 * between them (claude-code-memory.md section 15, measured end to end). */
#include "clawmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The newest release whose rules were measured; the default claude_version. */
const struct clawmd_release clawmd_release_default = {2, 1, 330};

static int part(unsigned *out, const char **s)
{
	if (**s < '0' || **s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long v = strtoul(*s, &end, 10);
	if (errno || v > 1000000)
		return -1;
	*out = (unsigned)v;
	*s = end;
	return 0;
}

int clawmd_release_parse(struct clawmd_release *out, const char *text, struct clawmd_err *err)
{
	const char *s = text;
	struct clawmd_release r = {0, 0, 0};
	if (!strcmp(text, "latest")) {
		*out = clawmd_release_default;
		return 0;
	}
	if (part(&r.major, &s) < 0 || *s++ != '.' || part(&r.minor, &s) < 0 || *s++ != '.' ||
	    part(&r.patch, &s) < 0 || *s)
		return clawmd_err_set(err, CLAWMD_EUSAGE,
				      "claude_version: expected a release such as 2.1.330 or "
				      "'latest', not '%s'",
				      text);
	*out = r;
	return 0;
}

int clawmd_release_cmp(const struct clawmd_release *a, const struct clawmd_release *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}

static bool at_least(const struct clawmd_release *r, unsigned maj, unsigned min, unsigned pat)
{
	struct clawmd_release b = {maj, min, pat};
	return clawmd_release_cmp(r, &b) >= 0;
}

bool clawmd_release_native(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 113);
}

bool clawmd_release_managed_policy(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 136);
}

bool clawmd_release_realpath_dedup(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 142);
}

bool clawmd_release_realpath_gate(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 232);
}

bool clawmd_release_agents_md(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 281);
}

bool clawmd_release_agents_md_renamed(const struct clawmd_release *r)
{
	return at_least(r, 2, 1, 285);
}
