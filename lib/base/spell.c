/* spell.c - the nearest spelling of a mistyped word among known ones, for
 * "did you mean" suggestions (commands, options, configuration keys). */
#include "clawmd.h"
#include "base/util.h"

#include <ctype.h>

/* Optimal string alignment distance (Levenshtein plus adjacent swaps),
 * case-insensitive; words longer than 64 bytes are never close. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[65][65];
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *clawmd_spell_nearest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX, wl = strlen(word);
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		size_t d = distance(word, cands[i]);
		/* A prefix of a long name ("--dry" for "--dry-run") is close too. */
		size_t cl = strlen(cands[i]);
		if (wl >= 3 && wl < cl && !strncmp(word, cands[i], wl))
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	/* Close enough to be a typo: at most 2 edits, and fewer than half. */
	if (!best || bestd > 2 || bestd * 2 > (wl > 1 ? wl : 1))
		return NULL;
	return best;
}
