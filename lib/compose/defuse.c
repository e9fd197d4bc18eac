/* defuse.c - @ directives in text the agent or a host config wrote (inline
 * MCP instructions, the persona) made inert: the model still reads them,
 * no runtime's loader imports anything (clawmd_defuse_imports in
 * clawmd/compose.h).  Two runtimes follow @ imports, each by its own rule:
 * Claude Code (clawmd_md_imports: Markdown-aware, nothing in code, HTML or
 * a fence) and Gemini CLI (runtime/imports.c: any '@' after whitespace
 * outside backticks, in a ~~~ fence, an HTML comment or an indented block
 * too).  A file is defused by the union of the two (issue 28 item 6), and
 * of caliban's and chimera's rules (runtime/imports.c too: an @ line, in
 * code too; any @ after white space, in code too). */
#include "clawmd.h"
#include "base/util.h"
#include "runtime/imports.h" /* each runtime's import syntax */

#include <string.h>

struct defuse_state {
	struct clawmd_buf *out;
	const char *text;
	size_t done;  /* bytes of text already copied */
	size_t count;
	size_t ticks; /* fence length: longer than any backtick run in the text */
	size_t len;
};

/* Longest run of backticks in s[0, len). */
static size_t max_ticks(const char *s, size_t len)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/*
 * Wrap one directive in a code span.  The fence is one backtick longer than
 * any run in the whole text, so it can never pair with a backtick elsewhere
 * (which could turn other text into a new import), and there is no padding
 * space after the opening fence:
 * Claude Code's scanner takes '@' only at the start of a text token or
 * after whitespace, and even in a tight list item (where it scans the raw
 * text, backticks included) the '@' then follows a backtick.  A directive
 * ending in a backtick gets a space before the closing fence, as CommonMark
 * requires; the '@' side stays unpadded.  A backtick right before or after
 * the directive gets a space between it and the fence: touching, it would
 * lengthen the fence, which then pairs with nothing, and an earlier code
 * span that backtick closed would open up again (issue 9, item 7:
 * "` @Y`@u" revived "@Y").
 */
static int defuse_one(size_t off, size_t len, const char *path, void *payload)
{
	struct defuse_state *st = payload;
	const char *tok = st->text + off;
	size_t ticks = st->ticks;
	clawmd_buf_put(st->out, st->text + st->done, off - st->done);
	if (off > 0 && st->text[off - 1] == '`')
		clawmd_buf_putc(st->out, ' ');
	for (size_t i = 0; i < ticks; i++)
		clawmd_buf_putc(st->out, '`');
	clawmd_buf_put(st->out, tok, len);
	if (tok[len - 1] == '`')
		clawmd_buf_putc(st->out, ' ');
	for (size_t i = 0; i < ticks; i++)
		clawmd_buf_putc(st->out, '`');
	if (off + len < st->len && st->text[off + len] == '`')
		clawmd_buf_putc(st->out, ' ');
	st->done = off + len;
	st->count++;
	return 0;
}

/*
 * The stronger form: a backslash before every '@' that is not already
 * escaped, i.e. not preceded by an odd run of backslashes.  Then every '@'
 * follows a backslash, so a raw scan (a tight list item, an HTML comment's
 * residue) never matches, and in inline text every '@' ends an odd run, so
 * it is an escape, which Claude Code's lexer does not scan.  Inside code
 * the backslash shows, which is why this is not the first choice.
 */
static void escape_all(struct clawmd_buf *out, const char *text, size_t len)
{
	size_t run = 0;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '@' && run % 2 == 0)
			clawmd_buf_putc(out, '\\');
		run = text[i] == '\\' ? run + 1 : 0;
		clawmd_buf_putc(out, text[i]);
	}
}

static int count_one(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

/* Live imports in `out`, by any runtime's rule. */
static size_t live_imports(const struct clawmd_buf *out)
{
	size_t n = 0;
	clawmd_md_imports(out->ptr, out->len, count_one, &n);
	clawmd_gemini_imports(out->ptr, out->len, count_one, &n);
	clawmd_caliban_imports(out->ptr, out->len, count_one, &n);
	clawmd_chimera_imports(out->ptr, out->len, count_one, &n);
	return n;
}

/* The offsets of the directives the runtimes' rules find. */
struct offsets {
	size_t *v, n, cap;
};

static int note_offset(size_t off, size_t len, const char *path, void *payload)
{
	struct offsets *o = payload;
	clawmd_xgrow(&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	o->v[o->n++] = off;
	return 0;
}

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return (a > b) - (a < b);
}

/* The directives Gemini CLI, caliban or chimera would follow that Claude
 * Code would not, each '@' once. */
static size_t others_only(const char *text, size_t len)
{
	struct offsets o = {0};
	clawmd_md_imports(text, len, note_offset, &o);
	clawmd_gemini_imports(text, len, note_offset, &o);
	clawmd_caliban_imports(text, len, note_offset, &o);
	clawmd_chimera_imports(text, len, note_offset, &o);
	/* distinct offsets past Claude Code's */
	size_t claude = 0;
	clawmd_md_imports(text, len, count_one, &claude);
	if (o.n > 1)
		qsort(o.v, o.n, sizeof(*o.v), cmp_size);
	size_t distinct = 0;
	for (size_t i = 0; i < o.n; i++)
		distinct += !i || o.v[i] != o.v[i - 1];
	free(o.v);
	return distinct - claude;
}

static size_t defuse_with(struct clawmd_buf *out, const char *text, size_t len,
			  clawmd_import_fn fn)
{
	struct defuse_state st = {out, text, 0, 0, max_ticks(text, len) + 1, len};
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	clawmd_md_imports(text, len, fn, &st);
	clawmd_buf_put(out, text + st.done, len - st.done);
	return st.count;
}

/*
 * Defusing is checked, not assumed: the output is scanned again with both
 * runtimes' scanners, and must hold no live import.  Three forms, each
 * tried only when the one before left something live:
 *  1. code spans around Claude Code's directives, which read best (and
 *     are backtick regions to Gemini CLI);
 *  2. a backslash before each '@' not yet escaped: every '@' then follows
 *     a backslash, never whitespace, so Gemini CLI takes none either (what
 *     a directive only it would follow, in a ~~~ fence, HTML or an
 *     indented block, gets);
 *  3. no '@' left at all ("&#64;", which neither decodes): both patterns
 *     need the byte '@', so this one cannot fail.
 * The count is of the directives either runtime would have followed.
 */
size_t clawmd_defuse_imports(struct clawmd_buf *out, const char *text, size_t len)
{
	size_t count = defuse_with(out, text, len, defuse_one);
	count += others_only(text, len);
	if (!count || !live_imports(out))
		return count;
	escape_all(out, text, len);
	if (!live_imports(out))
		return count;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '@')
			clawmd_buf_puts(out, "&#64;");
		else
			clawmd_buf_putc(out, text[i]);
	}
	return count;
}
