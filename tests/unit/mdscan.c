/* Unit tests for the Markdown import scanner: cases in tests/unit/mdscan.txt. */
#include "claude/mdscan.h"
#include "tap.h"
#include "testutil.h"
#include "base/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct seen {
	const char *text;
	size_t end;
	int bad;
	int n;
};

static int check_token(size_t off, size_t len, const char *path, void *payload)
{
	struct seen *s = payload;
	if (s->text[off] != '@' || off < s->end || len < 2)
		s->bad++;
	s->end = off + len;
	s->n++;
	return 0;
}

static void run_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *want)
{
	test_unescape(in);
	struct clawmd_md_scan s;
	clawmd_md_scan_init(&s);
	clawmd_md_scan(&s, in->ptr, in->len, true);
	struct clawmd_buf got = CLAWMD_BUF_INIT;
	clawmd_buf_put(&got, "", 0);
	for (size_t i = 0; i < s.n; i++) {
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = s.v[j].in_code == s.v[i].in_code && !strcmp(s.v[j].path, s.v[i].path);
		if (!dup)
			clawmd_buf_printf(&got, "%s%s\n", s.v[i].in_code ? "code " : "", s.v[i].path);
	}
	is_str(got.ptr, want->ptr, "scan: %s", name);
	struct seen sn = {in->ptr, 0, 0, 0};
	clawmd_md_imports(in->ptr, in->len, check_token, &sn);
	ok(!sn.bad, "offsets point at '@', in order, no overlap: %s", name);
	clawmd_buf_release(&got);
	clawmd_md_scan_release(&s);
}

static void strip(const char *in, const char *want, const char *name)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	clawmd_md_strip_comments(&out, in, strlen(in));
	is_str(out.ptr, want, "strip: %s", name);
	clawmd_buf_release(&out);
}

static int stop_at_first(size_t off, size_t len, const char *path, void *payload)
{
	*(size_t *)payload = off;
	return 7;
}

static void trim(const char *in, const char *want, const char *name)
{
	size_t a, b;
	clawmd_js_trim(in, strlen(in), &a, &b);
	char *got = clawmd_xstrndup(in + a, b - a);
	is_str(got, want, "trim: %s", name);
	free(got);
}

/* ---- clawmd_md_parse against md_parse on texts holding NULs ------------- */

struct trace {
	const char *text;
	size_t len;
	struct clawmd_buf out;
};

static int tr_block(MD_BLOCKTYPE type, void *detail, void *payload)
{
	clawmd_buf_printf(&((struct trace *)payload)->out, "B%d ", (int)type);
	return 0;
}

static int tr_span(MD_SPANTYPE type, void *detail, void *payload)
{
	clawmd_buf_printf(&((struct trace *)payload)->out, "S%d ", (int)type);
	return 0;
}

static int tr_text(MD_TEXTTYPE type, const MD_CHAR *p, MD_SIZE size, void *payload)
{
	struct trace *t = payload;
	if (type == MD_TEXT_NULLCHAR) { /* a run of n stands for n callbacks */
		for (MD_SIZE i = 0; i < size; i++)
			clawmd_buf_puts(&t->out, "N ");
	} else if (type == MD_TEXT_NORMAL && p >= t->text && p < t->text + t->len &&
		   memchr(p, '\0', size)) {
		/* md4c hands some NULs over raw (one just inside a link's
		 * brackets): counted as md4c counts the others */
		for (MD_SIZE i = 0; i < size;) {
			MD_SIZE k = 0;
			while (i + k < size && p[i + k])
				k++;
			if (k)
				clawmd_buf_printf(&t->out, "T%d@%zu+%u ", (int)type,
						  (size_t)(p + i - t->text), k);
			for (i += k; i < size && !p[i]; i++)
				clawmd_buf_puts(&t->out, "N ");
		}
	} else if (p >= t->text && p < t->text + t->len) {
		clawmd_buf_printf(&t->out, "T%d@%zu+%u ", (int)type, (size_t)(p - t->text), size);
	} else {
		clawmd_buf_printf(&t->out, "T%d'", (int)type);
		for (MD_SIZE i = 0; i < size; i++)
			clawmd_buf_printf(&t->out, "%02x", (unsigned char)p[i]);
		clawmd_buf_puts(&t->out, "' ");
	}
	return 0;
}

static void trace_parse(struct trace *t, const char *text, size_t len, bool ours)
{
	MD_PARSER parser = {0};
	parser.enter_block = parser.leave_block = tr_block;
	parser.enter_span = parser.leave_span = tr_span;
	parser.text = tr_text;
	*t = (struct trace){text, len, CLAWMD_BUF_INIT};
	clawmd_buf_put(&t->out, "", 0);
	if (ours)
		clawmd_md_parse(text, len, &parser, t);
	else
		md_parse(text, (MD_SIZE)len, &parser, t);
}

/* Texts from Markdown's structural characters, NULs and the bytes the copy
 * would use in their place; each parsed by md4c and by clawmd_md_parse. */
static void nul_differential(void)
{
	static const char alphabet[] = "\0\0\0\0\1\2 \n\n\t\r@@aab.#/\\`*_[]()!<>&;:-=~\"'x1";
	uint64_t seed = 0x9e3779b97f4a7c15u;
	int differ = 0, cases = 20000;
	char text[65]; /* md_parse may read the byte after the end: a NUL */
	for (int c = 0; c < cases; c++) {
		size_t len = 1 + (size_t)(seed % (sizeof(text) - 2));
		for (size_t i = 0; i < len; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			text[i] = alphabet[seed % (sizeof(alphabet) - 1)];
		}
		text[len] = '\0';
		if (c % 4 == 0) /* fences, HTML blocks, list items, quotes */
			memcpy(text, (const char *[]){"```\n", "<div", "- a\0", "> @\0"}[c / 4 % 4], 4);
		struct trace a, b;
		trace_parse(&a, text, len, false);
		trace_parse(&b, text, len, true);
		if (strcmp(a.out.ptr, b.out.ptr) && !differ++) {
			fprintf(stderr, "# first difference, text (hex): ");
			for (size_t i = 0; i < len; i++)
				fprintf(stderr, "%02x", (unsigned char)text[i]);
			fprintf(stderr, "\n# md_parse:        %s\n# clawmd_md_parse: %s\n", a.out.ptr,
				b.out.ptr);
		}
		clawmd_buf_release(&a.out);
		clawmd_buf_release(&b.out);
	}
	is(differ, 0, "%d generated texts with NULs: the same callbacks as md_parse", cases);

	/* every byte the copy could use is taken: parsed as it is */
	char all[41];
	size_t n = 0;
	for (int ch = 0; ch < 32; ch++)
		all[n++] = (char)ch;
	memcpy(all + n, "@./a.md", 7);
	n += 7;
	all[n] = '\0';
	struct trace a, b;
	trace_parse(&a, all, n, false);
	trace_parse(&b, all, n, true);
	is_str(b.out.ptr, a.out.ptr, "a text holding every control byte: parsed as it is");
	clawmd_buf_release(&a.out);
	clawmd_buf_release(&b.out);
}

int main(void)
{
	ok(test_each_case("mdscan.txt", "--- imports", run_case) >= 30, "the cases of mdscan.txt");

	/* offsets into the caller's text */
	size_t off = 0;
	const char *t = "# T\n\nx *y* @./z.md\n";
	is(clawmd_md_imports(t, strlen(t), stop_at_first, &off), 7, "fn's value stops the scan");
	is(off, 11, "offset of the token");
	const char *nonul = "@./a.md"; /* md4c gets (pointer, size) only */
	off = 99;
	is(clawmd_md_imports(nonul, 3, stop_at_first, &off), 7, "length is honoured");
	is(clawmd_md_imports("", 0, stop_at_first, &off), 0, "empty text");

	/* §6.2 */
	strip("no comment\r\n", "no comment\r\n", "no <!-- keeps CRLF");
	strip("<!-- a -->\nText\r\n", "Text\n", "CRLF rewritten when a comment is present");
	strip("<!-- n --> text\n", " text\n", "residue keeps its leading space");
	strip("<!-- a -->\n\n\nB\n", "B\n", "following blank lines go with it");
	strip("<!-->\nB\n", "<!-->\nB\n", "<!--> kept");
	strip("<!--->\nB\n", "<!--->\nB\n", "<!---> kept");
	strip("<!---->\nB\n", "B\n", "<!----> removed");
	strip("A\n<!-- x -->\nB\n", "A\nB\n", "interrupts a paragraph");
	strip("A <!-- x --> B\n", "A <!-- x --> B\n", "inline comment kept");
	strip("    <!-- x -->\n", "    <!-- x -->\n", "indented 4: code");
	strip("   <!-- x -->\nB\n", "B\n", "indented 3: a block");
	strip("```\n<!-- x -->\n```\n", "```\n<!-- x -->\n```\n", "in a fence: kept");
	strip("<!-- open\nB\n", "<!-- open\nB\n", "unclosed kept verbatim");
	strip("<!-- a\nb -->tail\nC\n", "tail\nC\n", "multi-line, residue to end of line");
	strip("> <!-- x -->\n", "> <!-- x -->\n", "nested in a quote: kept");
	strip("<div>\n<!-- x -->\n</div>\n", "<div>\n<!-- x -->\n</div>\n",
	      "a comment line inside a <div> block: kept");
	strip("<div>\n   <!-- x -->\n</div>\n\n<!-- y -->\nB\n", "<div>\n   <!-- x -->\n</div>\n\nB\n",
	      "inside a <div> block kept, the next block removed");
	strip("- <!-- x -->\n", "- <!-- x -->\n", "nested in a list item: kept");
	strip("<!-- a --><!-- b -->\n", "", "two comments, nothing left");
	strip("<!-- a --> x\n<!-- b -->\n\nkept\n\n<!-->\n", " x\nkept\n\n<!-->\n",
	      "consecutive comment lines, a later <!-->");

	trim(" \t\xef\xbb\xbfx y\xc2\xa0\r\n", "x y", "BOM, NBSP, CR");
	trim("\xe2\x80\x83", "", "em space only");
	trim("a\xe2\x80\x8b", "a\xe2\x80\x8b", "zero-width space is not whitespace");

	nul_differential();
	return done_testing();
}
