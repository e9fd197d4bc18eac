/*
 * match.c - gitignore semantics for the `paths:` globs of rules, as the
 * `ignore` package (7.0.5) that Claude Code uses applies them.
 *
 * Why not libgit2's ignore engine: its rules only apply through a
 * repository (git_ignore_add_rule() and git_ignore_path_is_ignored() take
 * a git_repository), which needs a repository at the rule's base directory
 * and would mix in that repository's .gitignore files, info/exclude and
 * core.excludesFile.  Claude Code matches the globs alone, against a path
 * relative to a directory that is often not a repository root, so this is
 * a small matcher of its own, over fnmatch(3) per path segment.
 *
 * The semantics (node-ignore's): blank lines and lines starting with '#'
 * are no patterns; trailing unescaped spaces are dropped; '!' negates and
 * the last matching pattern wins; a pattern with a slash other than a
 * trailing one is anchored at the base, one without matches a name at any
 * depth; a trailing slash matches directories only; "**" spans any number
 * of directories; a matching directory makes everything below it match
 * (and nothing below an ignored directory can be re-included).  node-ignore
 * is case-insensitive by default (ignorecase: true) and Claude Code calls
 * ignore() without options, so matching folds case (FNM_CASEFOLD).
 */
#include "clawmd.h"
#include "claude/match.h"
#include "base/util.h"

#include <fnmatch.h>

struct pat {
	char **seg;
	size_t nseg;
	bool neg, dir_only;
};

static bool parse_pat(struct pat *p, const char *pattern)
{
	memset(p, 0, sizeof(*p));
	size_t len = strlen(pattern);
	/* trailing spaces go unless escaped */
	while (len && pattern[len - 1] == ' ' && !(len >= 2 && pattern[len - 2] == '\\'))
		len--;
	if (!len || pattern[0] == '#')
		return false;
	size_t i = 0;
	if (pattern[0] == '!') {
		p->neg = true;
		i = 1;
	} else if (pattern[0] == '\\' && (pattern[1] == '!' || pattern[1] == '#')) {
		i = 1;
	}
	if (len && pattern[len - 1] == '/') {
		p->dir_only = true;
		len--;
	}
	if (i >= len)
		return false;
	char *s = clawmd_xstrndup(pattern + i, len - i);
	bool anchored = strchr(s, '/') != NULL;
	char *rest = s;
	while (*rest == '/')
		rest++;
	size_t cap = 0;
	if (!anchored) {
		clawmd_xgrow(&p->seg, &cap, p->nseg + 1, sizeof(char *));
		p->seg[p->nseg++] = clawmd_xstrdup("**");
	}
	for (char *a = rest;;) {
		char *sl = strchr(a, '/');
		size_t n = sl ? (size_t)(sl - a) : strlen(a);
		if (n) {
			clawmd_xgrow(&p->seg, &cap, p->nseg + 1, sizeof(char *));
			p->seg[p->nseg++] = clawmd_xstrndup(a, n);
		}
		if (!sl)
			break;
		a = sl + 1;
	}
	free(s);
	if (!p->nseg)
		return clawmd_strv_free(p->seg, p->nseg), false;
	return true;
}

static bool seg_match(char *const *ps, size_t np, char *const *xs, size_t nx)
{
	if (!np)
		return nx == 0;
	if (!strcmp(ps[0], "**")) {
		for (size_t k = 0; k <= nx; k++)
			if (seg_match(ps + 1, np - 1, xs + k, nx - k))
				return true;
		return false;
	}
	return nx && fnmatch(ps[0], xs[0], FNM_CASEFOLD) == 0 && seg_match(ps + 1, np - 1, xs + 1, nx - 1);
}

bool clawmd_globs_match(char *const *globs, size_t n, const char *rel)
{
	if (!rel || !*rel || rel[0] == '/' || !strncmp(rel, "..", 2))
		return false;
	struct pat *pats = clawmd_xcalloc(n ? n : 1, sizeof(*pats));
	bool *valid = clawmd_xcalloc(n ? n : 1, sizeof(bool));
	for (size_t i = 0; i < n; i++)
		valid[i] = parse_pat(&pats[i], globs[i]);
	/* the path's segments */
	char **xs = NULL;
	size_t nx = 0, cap = 0;
	for (const char *a = rel;;) {
		const char *sl = strchr(a, '/');
		size_t len = sl ? (size_t)(sl - a) : strlen(a);
		if (len) {
			clawmd_xgrow(&xs, &cap, nx + 1, sizeof(char *));
			xs[nx++] = clawmd_xstrndup(a, len);
		}
		if (!sl)
			break;
		a = sl + 1;
	}
	bool ignored = false;
	/* each parent directory first, then the path itself (as a file) */
	for (size_t depth = 1; depth <= nx && !ignored; depth++) {
		bool is_dir = depth < nx;
		for (size_t i = 0; i < n; i++) {
			if (!valid[i] || (pats[i].dir_only && !is_dir))
				continue;
			if (pats[i].neg != ignored)
				continue; /* cannot change the outcome */
			if (seg_match(pats[i].seg, pats[i].nseg, xs, depth))
				ignored = !pats[i].neg;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (valid[i])
			clawmd_strv_free(pats[i].seg, pats[i].nseg);
	clawmd_strv_free(xs, nx);
	free(pats);
	free(valid);
	return ignored;
}
