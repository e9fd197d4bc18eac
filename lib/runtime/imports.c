/*
 * imports.c - the import syntax of each runtime that follows imports in
 * its own way (runtime/imports.h): Gemini CLI's (doc/runtime-gemini.md,
 * §3.1 and §3.2), caliban's @ lines and chimera's pattern (doc/runtimes.md,
 * "caliban and chimera").  Claude Code's, Markdown-aware, is claude/mdscan.c.
 * render's loaders follow the imports found here; compose defuses them.
 */
#include "runtime/imports.h"
#include "runtime/text.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- Gemini CLI ------------------------------------------------------------- */

static bool ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Linear: the runs of backticks are listed once, with the longest run at
 * or after each. */
void clawmd_gemini_code_regions(struct clawmd_gemini_regions *out, const char *s, size_t len)
{
	size_t nruns = 0, cap = 0;
	size_t (*runs)[2] = NULL; /* start, length */
	for (size_t i = 0; i < len;) {
		if (s[i] != '`') {
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && s[j] == '`')
			j++;
		clawmd_xgrow(&runs, &cap, nruns + 1, sizeof(*runs));
		runs[nruns][0] = i;
		runs[nruns][1] = j - i;
		nruns++;
		i = j;
	}
	size_t *maxafter = clawmd_xcalloc(nruns + 1, sizeof(size_t));
	for (size_t k = nruns; k-- > 0;)
		maxafter[k] = runs[k][1] > maxafter[k + 1] ? runs[k][1] : maxafter[k + 1];
	memset(out, 0, sizeof(*out));
	size_t ri = 0;	/* the run holding the match's start */
	size_t off = 0; /* where in that run the start is */
	while (ri < nruns) {
		size_t start = runs[ri][0] + off, r = runs[ri][1] - off;
		bool matched = false;
		for (size_t k = r; k >= 1 && !matched; k--) {
			size_t end;
			if (r - k >= k) {
				/* the rest of the same run closes it */
				end = start + 2 * k;
				matched = true;
				if (off + 2 * k < runs[ri][1]) {
					off += 2 * k;
				} else {
					ri++;
					off = 0;
				}
			} else if (maxafter[ri + 1] >= k) {
				size_t q = ri + 1;
				while (runs[q][1] < k)
					q++;
				end = runs[q][0] + k;
				matched = true;
				if (k < runs[q][1]) {
					ri = q;
					off = k;
				} else {
					ri = q + 1;
					off = 0;
				}
			} else {
				continue;
			}
			clawmd_xgrow(&out->r, &out->cap, out->n + 1, sizeof(*out->r));
			out->r[out->n][0] = start;
			out->r[out->n][1] = end;
			out->n++;
		}
		if (!matched) {
			/* no closing run for any length: the regex moves one on */
			if (off + 1 < runs[ri][1]) {
				off++;
			} else {
				ri++;
				off = 0;
			}
		}
	}
	free(maxafter);
	free(runs);
}

/* Whether `at` lies in a region; *cur only moves forward (the positions
 * asked come in increasing order), so a scan is linear. */
bool clawmd_gemini_in_code(const struct clawmd_gemini_regions *rg, size_t *cur, size_t at)
{
	while (*cur < rg->n && rg->r[*cur][1] <= at)
		++*cur;
	return *cur < rg->n && at >= rg->r[*cur][0];
}

/* The next import at or after *pos: [*a, *e) spans "@path". */
bool clawmd_gemini_next_import(const char *s, size_t len, size_t *pos, size_t *a, size_t *e)
{
	size_t i = *pos;
	while (i < len) {
		const char *at = memchr(s + i, '@', len - i);
		if (!at)
			break;
		i = (size_t)(at - s);
		if (i > 0 && !ws(s[i - 1])) {
			i++;
			continue;
		}
		size_t j = i + 1;
		while (j < len && !ws(s[j]))
			j++;
		size_t plen = j - i - 1;
		char c = plen ? s[i + 1] : 0;
		bool ok = plen && (c == '.' || c == '/' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
		if (ok) {
			*a = i;
			*e = j;
			*pos = j + 1;
			return true;
		}
		i = j + 1;
	}
	*pos = len;
	return false;
}

/* Each import Gemini CLI would follow in `text`, in order: fn(offset of
 * the '@', length of "@path", NULL, payload); a nonzero return stops.  Its
 * rule, not Claude Code's: '@' at the start or after whitespace, outside a
 * backtick region, whatever the Markdown around it (a ~~~ fence, an HTML
 * block or comment, an indented block).  Compose defuses by this rule
 * too (clawmd_defuse_imports). */
void clawmd_gemini_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload)
{
	struct clawmd_gemini_regions rg;
	clawmd_gemini_code_regions(&rg, text, len);
	size_t pos = 0, cur = 0, a, e;
	while (clawmd_gemini_next_import(text, len, &pos, &a, &e))
		if (!clawmd_gemini_in_code(&rg, &cur, a) && fn(a, e - a, NULL, payload))
			break;
	free(rg.r);
}

/* ---- caliban ---------------------------------------------------------------- */

/*
 * parse_import_directive: the line's first non-blank character is '@', and
 * the first word after it (which may follow blanks) holds '/' or '.' or
 * starts with '~'.  *a, *b delimit the word.
 */
bool clawmd_caliban_directive(const char *ln, size_t l, size_t *a, size_t *b)
{
	size_t i = 0, k;
	while (i < l && (k = clawmd_space_at(ln, i, l, false)))
		i += k;
	if (i >= l || ln[i] != '@')
		return false;
	i++;
	while (i < l && (k = clawmd_space_at(ln, i, l, false)))
		i += k;
	size_t e = i;
	while (e < l && !clawmd_space_at(ln, e, l, false))
		e++;
	if (e == i)
		return false;
	if (!memchr(ln + i, '/', e - i) && !memchr(ln + i, '.', e - i) && ln[i] != '~')
		return false;
	*a = i;
	*b = e;
	return true;
}

void clawmd_caliban_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload)
{
	for (size_t i = 0; i < len;) {
		const char *ln = text + i, *nl = memchr(ln, '\n', len - i);
		size_t l = nl ? (size_t)(nl - ln) : len - i, a, b;
		if (clawmd_caliban_directive(ln, l, &a, &b)) {
			size_t at = (size_t)((const char *)memchr(ln, '@', l) - text);
			if (fn(at, i + b - at, NULL, payload))
				return;
		}
		i += l + (nl != NULL);
	}
}

/* ---- chimera ---------------------------------------------------------------- */

/* The character ending at s[i] is white space (re's \s). */
static bool space_before(const char *s, size_t i)
{
	size_t st = i - 1;
	while (st > 0 && i - st < 4 && ((unsigned char)s[st] & 0xc0) == 0x80)
		st--;
	return clawmd_space_at(s, st, i, true) == i - st;
}

/* The regex's first path character: [~./A-Za-z0-9_\-]. */
static bool path_start(char ch)
{
	return ch == '~' || ch == '.' || ch == '/' || ch == '_' || ch == '-' ||
	       (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

bool clawmd_chimera_import_at(const char *text, size_t len, size_t i, size_t *e)
{
	if (text[i] != '@' || i + 1 >= len || !path_start(text[i + 1]) ||
	    (i && !space_before(text, i)))
		return false;
	*e = i + 2;
	while (*e < len && !clawmd_space_at(text, *e, len, true))
		++*e;
	return true;
}

void clawmd_chimera_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload)
{
	for (size_t i = 0; i < len; i++) {
		size_t e;
		if (!clawmd_chimera_import_at(text, len, i, &e))
			continue;
		if (fn(i, e - i, NULL, payload))
			return;
		i = e - 1;
	}
}
