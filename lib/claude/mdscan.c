/*
 * mdscan.c - find @-imports as Claude Code's marked-based lexer does, with
 * md4c, and strip block HTML comments as Claude Code does.
 *
 * Claude Code lexes with marked 15 (gfm: false) and scans the `text` of
 * every token of type text with /(?:^|\s)@((?:[^\s\\]|\\ )+)/g.  md4c gives
 * callbacks, not tokens, so marked's text tokens are rebuilt:
 *
 *  1. A text token is a maximal run of md4c NORMAL and ENTITY callbacks
 *     (marked does not decode entities) that are contiguous in the source
 *     or separated by a soft break (marked keeps the newline in the text).
 *     Any span boundary (emphasis, link), hard break, code span, inline
 *     HTML or a gap in the source ends a token.
 *  2. md4c hands an escaped character over as a one-character callback just
 *     after its backslash; marked makes it an `escape` token, which is not
 *     scanned and splits the text around it.  So such callbacks are skipped.
 *  3. Image alt text is never scanned: marked's image token has no tokens.
 *  4. HTML blocks: when the raw text, left-trimmed, starts with "<!--" and
 *     contains "-->", the <!--...--> spans are removed and the residue is
 *     scanned as one text; other HTML blocks are skipped.
 *  5. List items: marked lexes item content with `top` false, so each
 *     paragraph becomes a block `text` token whose text is the raw source
 *     line(s); Claude Code scans that before recursing into its inline
 *     tokens.  So for a paragraph directly in a list item the raw lines are
 *     scanned first (code spans included: the "tight list item" quirk),
 *     then its inline text tokens.
 *  6. Code blocks and code spans are scanned only when the caller asks for
 *     in-code tokens (for check), and flagged.
 *
 * Every piece of rebuilt text keeps a map back to source offsets, so each
 * token is reported at its place in the caller's text.
 */
#include "claude/mdscan.h"
#include "base/util.h"

#include <md4c.h>
#include <stdint.h>

#define SYNTH SIZE_MAX /* a map entry for a character not in the source */

/* ---- JavaScript whitespace ---------------------------------------------- */

static uint32_t utf8_at(const char *s, size_t len, size_t i, size_t *n)
{
	const unsigned char *p = (const unsigned char *)s + i;
	size_t left = len - i;
	if (p[0] < 0x80 || left < 2) {
		*n = 1;
		return p[0];
	}
	if ((p[0] & 0xe0) == 0xc0 && (p[1] & 0xc0) == 0x80) {
		*n = 2;
		return ((uint32_t)(p[0] & 0x1f) << 6) | (p[1] & 0x3f);
	}
	if ((p[0] & 0xf0) == 0xe0 && left >= 3 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80) {
		*n = 3;
		return ((uint32_t)(p[0] & 0x0f) << 12) | ((uint32_t)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
	}
	if ((p[0] & 0xf8) == 0xf0 && left >= 4 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80 &&
	    (p[3] & 0xc0) == 0x80) {
		*n = 4;
		return ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3f) << 12) |
		       ((uint32_t)(p[2] & 0x3f) << 6) | (p[3] & 0x3f);
	}
	*n = 1;
	return 0xfffd;
}

/* ECMAScript WhiteSpace and LineTerminator: what \s and trim() remove. */
static bool js_space_cp(uint32_t c)
{
	switch (c) {
	case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x20: case 0xa0:
	case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000:
	case 0xfeff:
		return true;
	default:
		return c >= 0x2000 && c <= 0x200a;
	}
}

size_t clawmd_js_space(const char *s, size_t len, size_t i)
{
	if (i >= len)
		return 0;
	size_t n;
	uint32_t c = utf8_at(s, len, i, &n);
	return js_space_cp(c) ? n : 0;
}

void clawmd_js_trim(const char *s, size_t len, size_t *start, size_t *end)
{
	size_t a = 0, w;
	while (a < len && (w = clawmd_js_space(s, len, a)))
		a += w;
	size_t b = len;
	while (b > a) {
		/* step back to the start of the last character */
		size_t k = b - 1;
		while (k > a && ((unsigned char)s[k] & 0xc0) == 0x80 && b - k < 4)
			k--;
		w = clawmd_js_space(s, b, k);
		if (!w || k + w != b)
			break;
		b = k;
	}
	*start = a;
	*end = b;
}

/* ---- md4c, safely and without its cost per NUL ---------------------------- */

/*
 * md4c is handed a copy of the text, for two reasons.
 *
 * It may read one byte past the end it is given (valgrind shows it on
 * "<div\r<x]\0_\r "), and what it finds there can change the blocks it
 * reports: the copy ends with a NUL.
 *
 * It keeps a mark for every NUL byte of inline text and hands each one over
 * as a callback of its own: 64 MiB of NULs (sparse files the agent plants)
 * cost it 7 s and 1.4 GB.  In the copy each NUL is a control byte the text
 * does not hold: to every CommonMark rule md4c applies both are ordinary
 * characters (neither whitespace, punctuation nor a mark), so the blocks
 * and spans are the same.  The text callbacks are turned back into what
 * md4c gives for the original: pointers into the caller's text, and in
 * inline text and verbatim blocks, where md4c replaces NULs, its
 * MD_TEXT_NULLCHAR callbacks (in inline text one for a whole run of NULs,
 * standing for as many; the callers here treat it so).  One difference is
 * kept on purpose: md4c hands a NUL just inside a link's brackets over raw
 * in the text, and here it is a NULLCHAR like every other NUL of inline
 * text.  A text holding every such byte keeps its NULs.
 * tests/unit/mdscan.c compares this with md_parse() on generated texts.
 */
struct nul_parse {
	const MD_PARSER *user;
	void *userdata;
	const char *text, *copy;
	size_t len;
	bool replaced; /* the copy's NULs are another byte */
	bool verbatim; /* in a code or HTML block: md4c replaces NULs there */
};

static int nul_enter_block(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct nul_parse *np = payload;
	np->verbatim = type == MD_BLOCK_CODE || type == MD_BLOCK_HTML;
	return np->user->enter_block(type, detail, np->userdata);
}

static int nul_leave_block(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct nul_parse *np = payload;
	np->verbatim = false; /* verbatim blocks hold no blocks */
	return np->user->leave_block(type, detail, np->userdata);
}

static int nul_enter_span(MD_SPANTYPE type, void *detail, void *payload)
{
	struct nul_parse *np = payload;
	return np->user->enter_span(type, detail, np->userdata);
}

static int nul_leave_span(MD_SPANTYPE type, void *detail, void *payload)
{
	struct nul_parse *np = payload;
	return np->user->leave_span(type, detail, np->userdata);
}

/* What md4c hands over for a verbatim line holding NULs, its quirk kept:
 * after a NUL's MD_TEXT_NULLCHAR, the next piece starts at that NUL. */
static int nul_verbatim(struct nul_parse *np, MD_TEXTTYPE type, const char *p, size_t size)
{
	size_t off = 0;
	int rc = 0;
	for (;;) {
		while (off < size && p[off])
			off++;
		if (off) {
			if ((rc = np->user->text(type, p, (MD_SIZE)off, np->userdata)))
				return rc;
			p += off;
			size -= off;
			off = 0;
		}
		if (!size)
			return 0;
		if ((rc = np->user->text(MD_TEXT_NULLCHAR, "", 1, np->userdata)))
			return rc;
		off = 1;
	}
}

static int nul_text(MD_TEXTTYPE type, const MD_CHAR *p, MD_SIZE size, void *payload)
{
	struct nul_parse *np = payload;
	if (p < np->copy || p >= np->copy + np->len)
		return np->user->text(type, p, size, np->userdata);
	p = np->text + (p - np->copy);
	if (!np->replaced)
		return np->user->text(type, p, size, np->userdata);
	if (np->verbatim && (type == MD_TEXT_CODE || type == MD_TEXT_HTML))
		return nul_verbatim(np, type, p, size);
	/* Code spans and inline HTML keep their NULs raw, as md4c does. */
	if (type != MD_TEXT_NORMAL)
		return np->user->text(type, p, size, np->userdata);
	static const char nuls[4096];
	const char *end = p + size;
	int rc = 0;
	while (p < end && !rc) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		if (!z)
			z = end;
		if (z > p)
			rc = np->user->text(type, p, (MD_SIZE)(z - p), np->userdata);
		p = z;
		while (p < end && !*p && !rc) {
			size_t k = 0;
			while (p + k < end && !p[k] && k < sizeof(nuls))
				k++;
			rc = np->user->text(MD_TEXT_NULLCHAR, nuls, (MD_SIZE)k, np->userdata);
			p += k;
		}
	}
	return rc;
}

int clawmd_md_parse(const char *text, size_t len, const MD_PARSER *parser, void *userdata)
{
	char *copy = clawmd_xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	/* The control bytes md4c treats as plain text: not \t \n \v \f \r
	 * (whitespace) nor 127 (a mark of md4c's own). */
	char sub = 0;
	if (memchr(text, '\0', len)) {
		bool held[32] = {false};
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)text[i] < 32)
				held[(unsigned char)text[i]] = true;
		for (int c = 1; c < 32 && !sub; c++)
			if (!held[c] && (c < '\t' || c > '\r'))
				sub = (char)c;
		for (size_t i = 0; i < len && sub; i++)
			if (!copy[i])
				copy[i] = sub;
	}
	struct nul_parse np = {parser, userdata, text, copy, len, sub != 0, false};
	MD_PARSER wrap = *parser;
	wrap.enter_block = nul_enter_block;
	wrap.leave_block = nul_leave_block;
	wrap.enter_span = nul_enter_span;
	wrap.leave_span = nul_leave_span;
	wrap.text = nul_text;
	int rc = md_parse(copy, (MD_SIZE)len, &wrap, &np);
	free(copy);
	return rc;
}

/* ---- text with a map back to the source --------------------------------- */

struct vtext {
	char *buf;
	size_t *map;
	size_t n, cap, mcap;
};

static void vt_put(struct vtext *vt, const char *p, size_t n, size_t off)
{
	clawmd_xgrow(&vt->buf, &vt->cap, vt->n + n + 1, 1);
	clawmd_xgrow(&vt->map, &vt->mcap, vt->n + n + 1, sizeof(size_t));
	memcpy(vt->buf + vt->n, p, n);
	for (size_t i = 0; i < n; i++)
		vt->map[vt->n + i] = off == SYNTH ? SYNTH : off + i;
	vt->n += n;
}

static void vt_release(struct vtext *vt)
{
	free(vt->buf);
	free(vt->map);
	memset(vt, 0, sizeof(*vt));
}

/* ---- the token regex ---------------------------------------------------- */

static void push(struct clawmd_md_scan *out, size_t off, size_t len, char *path, bool in_code)
{
	clawmd_xgrow(&out->v, &out->cap, out->n + 1, sizeof(out->v[0]));
	out->v[out->n++] = (struct clawmd_md_import){off, len, path, in_code};
}

/* The captured path after Claude Code's post-processing, or NULL (§3.5). */
static char *postprocess(const char *raw, size_t n)
{
	const char *hash = memchr(raw, '#', n);
	if (hash)
		n = (size_t)(hash - raw);
	if (!n)
		return NULL;
	char *p = clawmd_xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (raw[i] == '\\' && i + 1 < n && raw[i + 1] == ' ')
			i++;
		p[k++] = raw[i];
	}
	p[k] = '\0';
	bool keep;
	if (!strncmp(p, "./", 2) || !strncmp(p, "~/", 2))
		keep = true;
	else if (p[0] == '/')
		keep = p[1] != '\0';
	else
		keep = (p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z') ||
		       (p[0] >= '0' && p[0] <= '9') || p[0] == '.' || p[0] == '_' || p[0] == '-';
	if (!keep) {
		free(p);
		return NULL;
	}
	return p;
}

/* Run the include regex over one rebuilt text. */
static void scan_text(struct clawmd_md_scan *out, const struct vtext *vt, bool in_code)
{
	const char *s = vt->buf;
	size_t n = vt->n, i = 0;
	bool prev_ws = true; /* ^ matches at the start of the token */
	while (i < n) {
		size_t w = clawmd_js_space(s, n, i);
		if (w) {
			prev_ws = true;
			i += w;
			continue;
		}
		if (s[i] == '@' && prev_ws) {
			size_t j = i + 1;
			for (;;) {
				if (j + 1 < n && s[j] == '\\' && s[j + 1] == ' ')
					j += 2;
				else if (j < n && s[j] != '\\' && !clawmd_js_space(s, n, j))
					j++;
				else
					break;
			}
			if (j > i + 1) {
				char *path = postprocess(s + i + 1, j - i - 1);
				if (path && vt->map[i] != SYNTH && vt->map[j - 1] != SYNTH)
					push(out, vt->map[i], vt->map[j - 1] + 1 - vt->map[i], path,
					     in_code);
				else
					free(path);
				i = j;
				prev_ws = false;
				continue;
			}
		}
		prev_ws = false;
		i++;
	}
}

/* ---- HTML blocks -------------------------------------------------------- */

/* s[0..n) minus every non-greedy <!--...--> span (JavaScript's replace). */
static void remove_comments(struct vtext *out, const struct vtext *in)
{
	size_t i = 0;
	while (i < in->n) {
		const char *o = memmem(in->buf + i, in->n - i, "<!--", 4);
		if (!o)
			break;
		size_t at = (size_t)(o - in->buf);
		const char *c = memmem(in->buf + at + 4, in->n - at - 4, "-->", 3);
		if (!c)
			break;
		for (size_t k = i; k < at; k++)
			vt_put(out, in->buf + k, 1, in->map[k]);
		i = (size_t)(c - in->buf) + 3;
	}
	for (size_t k = i; k < in->n; k++)
		vt_put(out, in->buf + k, 1, in->map[k]);
}

static bool is_comment_token(const char *s, size_t n)
{
	size_t a = 0, w;
	while (a < n && (w = clawmd_js_space(s, n, a)))
		a += w;
	return n - a >= 4 && !memcmp(s + a, "<!--", 4) && memmem(s, n, "-->", 3);
}

/* ---- the md4c walk ------------------------------------------------------ */

struct walk {
	const char *src;
	size_t len;
	bool with_code;
	struct clawmd_md_scan *out;

	MD_BLOCKTYPE *stack;
	size_t depth, cap;
	int img;	/* inside an image: alt text is not scanned */
	int codespan;	/* inside a code span */

	struct vtext tok; /* the current marked text token */
	size_t tok_end;	  /* source end of its last piece */
	bool softbr;	  /* a soft break since the last piece */

	bool run;	  /* inside a leaf's inline content */
	bool run_list;	  /* ... directly in a list item: scan raw lines first */
	size_t run_min, run_max;
	struct clawmd_md_scan runbuf; /* inline tokens held back behind the raw scan */

	struct vtext code; /* a code span or block being collected */
	struct vtext html; /* an HTML block being collected */
};

static struct clawmd_md_scan *dest(struct walk *w)
{
	return w->run && w->run_list ? &w->runbuf : w->out;
}

static void tok_flush(struct walk *w)
{
	if (w->tok.n)
		scan_text(dest(w), &w->tok, false);
	w->tok.n = 0;
	w->softbr = false;
}

static void run_flush(struct walk *w)
{
	tok_flush(w);
	if (!w->run)
		return;
	if (w->run_list && w->run_min < w->run_max) {
		size_t a = w->run_min, b = w->run_max;
		while (a > 0 && w->src[a - 1] != '\n' && w->src[a - 1] != '\r')
			a--;
		while (b < w->len && w->src[b] != '\n' && w->src[b] != '\r')
			b++;
		struct vtext raw = {0};
		vt_put(&raw, w->src + a, b - a, a);
		scan_text(w->out, &raw, false);
		vt_release(&raw);
	}
	for (size_t i = 0; i < w->runbuf.n; i++)
		push(w->out, w->runbuf.v[i].off, w->runbuf.v[i].len, w->runbuf.v[i].path,
		     w->runbuf.v[i].in_code);
	w->runbuf.n = 0;
	w->run = false;
}

static MD_BLOCKTYPE top(const struct walk *w, size_t up)
{
	return w->depth > up ? w->stack[w->depth - 1 - up] : MD_BLOCK_DOC;
}

static void run_start(struct walk *w)
{
	if (w->run)
		return;
	w->run = true;
	MD_BLOCKTYPE t = top(w, 0);
	w->run_list = t == MD_BLOCK_LI || (t == MD_BLOCK_P && w->depth >= 2 && top(w, 1) == MD_BLOCK_LI);
	w->run_min = SIZE_MAX;
	w->run_max = 0;
}

static bool in_src(const struct walk *w, const char *p)
{
	return p >= w->src && p < w->src + w->len;
}

static int enter_block(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct walk *w = payload;
	run_flush(w);
	clawmd_xgrow(&w->stack, &w->cap, w->depth + 1, sizeof(w->stack[0]));
	w->stack[w->depth++] = type;
	if (type == MD_BLOCK_CODE)
		w->code.n = 0;
	if (type == MD_BLOCK_HTML)
		w->html.n = 0;
	return 0;
}

static int leave_block(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct walk *w = payload;
	run_flush(w);
	if (type == MD_BLOCK_CODE && w->with_code)
		scan_text(w->out, &w->code, true);
	if (type == MD_BLOCK_HTML && is_comment_token(w->html.buf, w->html.n)) {
		struct vtext res = {0};
		remove_comments(&res, &w->html);
		size_t a, b;
		clawmd_js_trim(res.buf, res.n, &a, &b);
		if (a < b)
			scan_text(w->out, &res, false);
		vt_release(&res);
	}
	if (w->depth)
		w->depth--;
	return 0;
}

static int enter_span(MD_SPANTYPE type, void *detail, void *payload)
{
	struct walk *w = payload;
	run_start(w);
	tok_flush(w);
	if (type == MD_SPAN_IMG)
		w->img++;
	if (type == MD_SPAN_CODE) {
		w->codespan++;
		w->code.n = 0;
	}
	return 0;
}

static int leave_span(MD_SPANTYPE type, void *detail, void *payload)
{
	struct walk *w = payload;
	tok_flush(w);
	if (type == MD_SPAN_IMG && w->img)
		w->img--;
	if (type == MD_SPAN_CODE && w->codespan) {
		w->codespan--;
		if (w->with_code)
			scan_text(dest(w), &w->code, true);
		w->code.n = 0;
	}
	return 0;
}

static bool ascii_punct(char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
	       (c >= '{' && c <= '~');
}

static int on_text(MD_TEXTTYPE type, const MD_CHAR *p, MD_SIZE size, void *payload)
{
	struct walk *w = payload;
	MD_BLOCKTYPE blk = top(w, 0);
	bool src = in_src(w, p);
	size_t off = src ? (size_t)(p - w->src) : SYNTH;

	if (blk == MD_BLOCK_CODE) {
		vt_put(&w->code, p, size, off);
		return 0;
	}
	if (blk == MD_BLOCK_HTML) {
		vt_put(&w->html, p, size, off);
		return 0;
	}
	run_start(w);
	if (src) {
		if (off < w->run_min)
			w->run_min = off;
		if (off + size > w->run_max)
			w->run_max = off + size;
	}
	if (w->codespan) {
		vt_put(&w->code, p, size, off);
		return 0;
	}
	if (w->img)
		return 0;
	switch (type) {
	case MD_TEXT_NORMAL:
	case MD_TEXT_ENTITY:
		if (!src) {
			tok_flush(w);
			return 0;
		}
		/* An escaped character: marked's escape token splits the text. */
		if (type == MD_TEXT_NORMAL && size == 1 && off > 0 && w->src[off - 1] == '\\' &&
		    ascii_punct(p[0])) {
			tok_flush(w);
			return 0;
		}
		if (w->tok.n && !(w->tok_end == off || w->softbr))
			tok_flush(w);
		if (w->tok.n && w->softbr)
			vt_put(&w->tok, "\n", 1, SYNTH);
		w->softbr = false;
		vt_put(&w->tok, p, size, off);
		w->tok_end = off + size;
		return 0;
	case MD_TEXT_SOFTBR:
		if (w->tok.n)
			w->softbr = true;
		return 0;
	default: /* hard break, NUL, inline HTML, LaTeX: a token boundary */
		tok_flush(w);
		return 0;
	}
}

void clawmd_md_scan_init(struct clawmd_md_scan *s)
{
	memset(s, 0, sizeof(*s));
}

void clawmd_md_scan_release(struct clawmd_md_scan *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int clawmd_md_scan(struct clawmd_md_scan *out, const char *text, size_t len, bool with_code)
{
	if (len > CLAWMD_MD_MAX)
		return -1;
	struct walk w = {.src = text, .len = len, .with_code = with_code, .out = out};
	MD_PARSER parser = {0};
	parser.flags = 0; /* CommonMark: marked runs with gfm: false */
	parser.enter_block = enter_block;
	parser.leave_block = leave_block;
	parser.enter_span = enter_span;
	parser.leave_span = leave_span;
	parser.text = on_text;
	/* md4c reads the (pointer, size) pair only; an empty text has no blocks. */
	if (len)
		clawmd_md_parse(text, len, &parser, &w);
	run_flush(&w);
	free(w.stack);
	vt_release(&w.tok);
	vt_release(&w.code);
	vt_release(&w.html);
	free(w.runbuf.v);
	if (with_code) {
		/* A code token that the list quirk imports is not "inside code". */
		size_t k = 0;
		for (size_t i = 0; i < out->n; i++) {
			bool dup = false;
			if (out->v[i].in_code)
				for (size_t j = 0; j < out->n && !dup; j++)
					dup = !out->v[j].in_code && out->v[j].off == out->v[i].off;
			if (dup)
				free(out->v[i].path);
			else
				out->v[k++] = out->v[i];
		}
		out->n = k;
	}
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct clawmd_md_import *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->len > y->len ? -1 : x->len < y->len;
}

int clawmd_md_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload)
{
	struct clawmd_md_scan s;
	clawmd_md_scan_init(&s);
	clawmd_md_scan(&s, text, len, false);
	/* Document order, each place once: the list quirk can report a token
	 * twice, or an inline token inside a longer raw one. */
	if (s.n > 1)
		qsort(s.v, s.n, sizeof(s.v[0]), by_offset);
	int rc = 0;
	size_t end = 0;
	for (size_t i = 0; i < s.n && !rc; i++) {
		if (i && s.v[i].off < end)
			continue;
		end = s.v[i].off + s.v[i].len;
		rc = fn(s.v[i].off, s.v[i].len, s.v[i].path, payload);
	}
	clawmd_md_scan_release(&s);
	return rc;
}

/* ---- stripHtmlComments -------------------------------------------------- */

struct strip {
	const char *src;
	size_t len;
	size_t depth;
	size_t found; /* offset of a top-level comment block's first line, or SIZE_MAX */
	bool first;   /* the next text callback is an HTML block's first line */
};

static int strip_enter(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct strip *s = payload;
	s->depth++;
	s->first = type == MD_BLOCK_HTML;
	return 0;
}

static int strip_leave(MD_BLOCKTYPE type, void *detail, void *payload)
{
	struct strip *s = payload;
	s->depth--;
	return 0;
}

static int strip_span(MD_SPANTYPE type, void *detail, void *payload)
{
	return 0;
}

static int strip_text(MD_TEXTTYPE type, const MD_CHAR *p, MD_SIZE size, void *payload)
{
	struct strip *s = payload;
	/* md4c does not always stop at once when a callback returns non-zero
	 * (it may go on with the next block), so only the first one counts. */
	if (s->found != SIZE_MAX)
		return 1;
	/* depth 2: DOC > HTML.  Only the block's first line (its first
	 * callback) can start a comment token: a comment line inside a <div>
	 * block is part of that block's raw text, which is kept. */
	/* md4c hands an indented block's indentation over from a buffer of
	 * its own first: only a callback from the source counts. */
	if (p < s->src || p >= s->src + s->len)
		return 0;
	bool first = s->first;
	s->first = false;
	if (type != MD_TEXT_HTML || !first || s->depth != 2)
		return 0;
	size_t a = (size_t)(p - s->src);
	while (a > 0 && s->src[a - 1] != '\n')
		a--;
	size_t i = a, sp = 0;
	while (i < s->len && s->src[i] == ' ' && sp < 4)
		i++, sp++;
	if (sp <= 3 && s->len - i >= 4 && !memcmp(s->src + i, "<!--", 4)) {
		s->found = a;
		return 1;
	}
	return 0;
}

/* End of marked's comment html token starting at `a` (§6.2). */
static size_t comment_block_end(const char *s, size_t len, size_t a)
{
	size_t i = a;
	while (s[i] == ' ')
		i++;
	i += 4; /* "<!--" */
	if (i < len && s[i] == '>')
		i++;
	else if (i + 1 < len && s[i] == '-' && s[i + 1] == '>')
		i += 2;
	else {
		const char *c = memmem(s + i, len - i, "-->", 3);
		i = c ? (size_t)(c - s) + 3 : len;
	}
	while (i < len && s[i] != '\n')
		i++;
	while (i < len && s[i] == '\n')
		i++;
	return i;
}

void clawmd_md_strip_comments(struct clawmd_buf *out, const char *text, size_t len)
{
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (!memmem(text, len, "<!--", 4) || len > CLAWMD_MD_MAX) {
		clawmd_buf_put(out, text, len);
		return;
	}
	/* marked's lexer first turns \r\n and lone \r into \n. */
	char *s = clawmd_xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\r') {
			s[n++] = '\n';
			if (i + 1 < len && text[i + 1] == '\n')
				i++;
		} else {
			s[n++] = text[i];
		}
	}
	size_t pos = 0;
	MD_PARSER parser = {0};
	parser.enter_block = strip_enter;
	parser.leave_block = strip_leave;
	parser.enter_span = strip_span;
	parser.leave_span = strip_span;
	parser.text = strip_text;
	while (pos < n) {
		/* Parse what is left from a block boundary: md4c's extent of an
		 * HTML block may differ from marked's (<!--> ends at once in
		 * marked), so each comment block restarts the parse after it. */
		struct strip st = {s + pos, n - pos, 0, SIZE_MAX, false};
		clawmd_md_parse(s + pos, n - pos, &parser, &st);
		if (st.found == SIZE_MAX)
			break;
		size_t a = pos + st.found;
		size_t e = comment_block_end(s, n, a);
		clawmd_buf_put(out, s + pos, a - pos);
		if (is_comment_token(s + a, e - a)) {
			struct vtext raw = {0}, res = {0};
			vt_put(&raw, s + a, e - a, a);
			remove_comments(&res, &raw);
			size_t ta, tb;
			clawmd_js_trim(res.buf, res.n, &ta, &tb);
			if (ta < tb)
				clawmd_buf_put(out, res.buf, res.n);
			vt_release(&raw);
			vt_release(&res);
		} else {
			clawmd_buf_put(out, s + a, e - a);
		}
		pos = e;
	}
	clawmd_buf_put(out, s + pos, n - pos);
	free(s);
}
