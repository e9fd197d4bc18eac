/* Unit tests for the Markdown import scanner: cases in tests/unit/mdscan.txt. */
#include "claude/mdscan.h"
#include "tap.h"
#include "testutil.h"
#include "base/util.h"

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
	return done_testing();
}
