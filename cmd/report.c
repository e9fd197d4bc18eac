/*
 * report.c - `clawmd report`: one self-contained HTML page for a root.
 *
 * For each group: its provider (the runtime render --group follows), its
 * layout, its state, the memory its agent loads as one bar split by source
 * (base, each skill, each module, each MCP server, persona, memory) against
 * the token budget and the runtime's byte cap, its findings, what was cut
 * off, and the exact text the agent gets.  Everything comes from the library
 * (status, lint, the memory loader) as status, check and render --group see
 * it; this file only sorts what loaded by source and writes HTML.
 *
 * The page is written for a hostile group: every byte the agent controls is
 * HTML-escaped (control bytes and bytes outside well-formed UTF-8 shown as
 * \xNN), and the page carries a Content-Security-Policy that allows no
 * network at all, so even a mistake in the escaping loads nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd report [options] [GROUP...] > report.html\n"
	"\n"
	"One self-contained HTML page (no network, inline CSS and script) for the\n"
	"root: every group (all when none is given) with its provider, layout and\n"
	"state; the memory its agent loads as a bar split by source against the\n"
	"token budget and the runtime's byte cap; its findings; what is cut off;\n"
	"and, when a row is opened, the exact text the agent gets.  Reads only.\n"
	"See man clawmd-report.\n";

static const char help_foot[] =
	"Exit status: 0 success (the page lists unreadable groups too), 2 usage,\n"
	"3 invalid input (clawmd.json, a group name, a missing shared base),\n"
	"4 a missing or symlinked group directory, an unwritable output.\n";

static const struct cmd_opt options[] = {
	{"quiet", 'q', NULL, "no warnings about clawmd.json"},
	CMD_OPT_END,
};

/* The sources a bar is split into, in the order the agent reads them. */
enum src_kind {
	SRC_ENTRY, /* the entry's own lines: its imports, an inlined entry's header */
	SRC_PERSONA,
	SRC_BASE,
	SRC_SKILL,
	SRC_MODULE,
	SRC_MCP,
	SRC_MEMORY,
	SRC_OTHER, /* the user and managed tiers, rules outside the group */
	SRC_N
};
static const char *const kind_name[SRC_N] = {"entry",  "persona", "base",  "skill",
					     "module", "mcp",	  "memory", "other"};

struct src {
	enum src_kind kind;
	char *name; /* the skill, module or server; NULL for the others */
	size_t chars;
};

struct row {
	const char *group;
	int failed; /* exit status of why it could not be read, else 0 */
	char *why;
	struct clawmd_group_status st;
	enum clawmd_runtime rt;
	/* its contract in this layout (clawmd.json may add or change one):
	 * the built-in table alone knows no provider of clawmd.json's */
	const struct clawmd_contract *c;
	size_t cap, entry_bytes; /* the runtime's byte cap (0: none), its entry file */
	struct src *srcs;
	size_t nsrcs, capsrcs, total;
	struct clawmd_findings f;
	/* The first TEXT_SHOWN_MAX bytes of what the agent gets (the page is
	 * written once every row is known), and how many more there are. */
	struct clawmd_buf text;
	size_t text_more;
};

/* The most of a group's text a page shows and keeps until it is written:
 * the rest is counted and left to render --group, so that neither the page
 * nor the memory it takes grows with what the agent makes its memory
 * import (twenty sparse 4 MiB files of NULs were a 1.7 GB page). */
#define TEXT_SHOWN_MAX ((size_t)256 << 10)

static void add_src(struct row *r, enum src_kind kind, const char *name, size_t nlen, size_t chars)
{
	if (!chars)
		return;
	r->total += chars;
	for (size_t i = 0; i < r->nsrcs; i++) {
		struct src *s = &r->srcs[i];
		if (s->kind == kind && (!s->name ? !name : name && strlen(s->name) == nlen &&
						      !strncmp(s->name, name, nlen))) {
			s->chars += chars;
			return;
		}
	}
	clawmd_xgrow(&r->srcs, &r->capsrcs, r->nsrcs + 1, sizeof(*r->srcs));
	r->srcs[r->nsrcs++] =
		(struct src){kind, name ? clawmd_xstrndup(name, nlen) : NULL, chars};
}

static bool prefix(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);
	if (strncmp(s, p, n))
		return false;
	*rest = s + n;
	return true;
}

static bool ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && !memcmp(s + len - n, suffix, n);
}

/*
 * The source of a container path: a fragment of the group, a source it
 * was copied from (what an inlined entry names in its "<!-- from -->"
 * lines), or the agent's own files.  SRC_N when it is none of them: the
 * caller then takes the importing file's.
 */
static enum src_kind classify(const struct clawmd_layout *lay, const char *path, const char **name,
			      size_t *nlen)
{
	const char *rel, *r2;
	size_t gl = strlen(lay->ct_group);
	*name = NULL;
	*nlen = 0;
	if (!strcmp(path, lay->ct_base))
		return SRC_BASE;
	if (!strncmp(path, lay->ct_group, gl) && path[gl] == '/') {
		rel = path + gl + 1;
		if (!strcmp(rel, CLAWMD_SHARED_NAME) || !strcmp(rel, CLAWMD_SHARED_LINK))
			return SRC_BASE;
		if (prefix(rel, ".claude-fragments/", &r2)) {
			static const struct { const char *p; enum src_kind k; } frag[] = {
				{"skill-", SRC_SKILL}, {"module-", SRC_MODULE}, {"mcp-", SRC_MCP}};
			if (!strcmp(r2, "persona.md"))
				return SRC_PERSONA;
			for (size_t i = 0; i < sizeof(frag) / sizeof(frag[0]); i++)
				if (prefix(r2, frag[i].p, name)) {
					*nlen = strcspn(*name, "/");
					if (ends(*name, *nlen, ".md"))
						*nlen -= 3;
					return frag[i].k;
				}
			return SRC_OTHER;
		}
		if (ends(rel, strlen(rel), ".prepend.md"))
			return SRC_PERSONA;
		for (size_t i = 0; i < lay->noptional; i++)
			if (!strcmp(rel, lay->optional[i]))
				return SRC_PERSONA;
		if (!strcmp(rel, "CLAUDE.local.md"))
			return SRC_MEMORY;
		if (clawmd_runtime_entry_name(rel))
			return SRC_N; /* split by its parts, or the import-only entry */
		return SRC_MEMORY; /* the agent's own files, imported by its memory */
	}
	if (lay->ct_skills && prefix(path, lay->ct_skills, &rel) && *rel == '/') {
		*name = rel + 1;
		*nlen = strcspn(*name, "/");
		return SRC_SKILL;
	}
	if (lay->ct_modules && prefix(path, lay->ct_modules, &rel) && *rel == '/') {
		*name = rel + 1;
		*nlen = strcspn(*name, "/");
		if (ends(*name, *nlen, ".instructions.md"))
			*nlen -= strlen(".instructions.md");
		return SRC_MODULE;
	}
	return SRC_N;
}

/*
 * An entry that holds its parts inline (a runtime that follows no import)
 * marks each one "<!-- from PATH -->" (lib/compose/inline.c): account each
 * part to its source.  Text before the first marker is the entry's own.
 */
static void add_inlined(struct row *r, const struct clawmd_layout *lay, const char *s, size_t len)
{
	static const char mark[] = "<!-- from ";
	enum src_kind kind = SRC_ENTRY;
	const char *name = NULL;
	char keep[256]; /* the part's name, past the path it was found in */
	size_t nlen = 0, start = 0;
	for (size_t i = 0; i <= len; i++) {
		bool at_mark = i < len && (i == 0 || s[i - 1] == '\n') && len - i >= sizeof(mark) - 1 &&
			       !memcmp(s + i, mark, sizeof(mark) - 1);
		if (!at_mark && i < len)
			continue;
		add_src(r, kind, name, nlen, clawmd_utf16_len(s + start, i - start));
		if (i == len)
			break;
		const char *p = s + i + sizeof(mark) - 1, *eol = memchr(p, '\n', len - (size_t)(p - s));
		const char *end = eol ? eol : s + len;
		if (end - p > 4 && !memcmp(end - 4, " -->", 4)) {
			char *path = clawmd_xstrndup(p, (size_t)(end - 4 - p));
			kind = classify(lay, path, &name, &nlen);
			if (name) {
				nlen = nlen < sizeof(keep) ? nlen : sizeof(keep) - 1;
				memcpy(keep, name, nlen);
				name = keep;
			}
			if (kind == SRC_N)
				kind = SRC_OTHER;
			free(path);
		}
		start = i;
	}
}

/* What the group's agent loads, as render --group loads it, by source. */
static int load_row(struct row *r, const struct clawmd_root *root, struct clawmd_group *g,
		    struct clawmd_err *err)
{
	const struct clawmd_layout *lay = &root->lay;
	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
	struct clawmd_render_setup s;
	clawmd_runtimes set;
	int rc;
	if ((rc = clawmd_group_runtimes(&set, &r->rt, g, err)) < 0)
		return rc;
	r->c = clawmd_layout_contract(lay, r->rt);
	r->cap = r->c ? r->c->cap : 0;
	/* The very setup of render --group: the runtime by the contract's
	 * "like", and on a nanoclaw host the pinned release and the sources
	 * its runner passes. */
	ro.broken_pin_noted = true; /* the host's pin file says nothing of the group */
	if ((rc = clawmd_render_setup(&s, g, &ro, err)) < 0) {
		clawmd_render_setup_release(&s);
		return rc;
	}
	const struct clawmd_memory_opts o = s.memory;
	struct clawmd_memory m;
	clawmd_memory_init(&m);
	if ((rc = clawmd_memory_load(&m, &o, err)) == 0) {
		clawmd_memory_text(&r->text, &m, &o);
		if (r->text.len > TEXT_SHOWN_MAX) {
			/* never inside a character: the page stays valid UTF-8 */
			size_t keep = TEXT_SHOWN_MAX;
			while (keep && ((unsigned char)r->text.ptr[keep] & 0xc0) == 0x80)
				keep--;
			struct clawmd_buf kept = CLAWMD_BUF_INIT;
			clawmd_buf_put(&kept, r->text.ptr, keep);
			r->text_more = r->text.len - keep;
			clawmd_buf_release(&r->text);
			r->text = kept;
		}
		/* A file's source, or its importer's (a skill's own files):
		 * importers come before what they import. */
		struct { enum src_kind k; const char *name; size_t nlen; } *by =
			clawmd_xcalloc(m.nfiles + 1, sizeof(*by));
		/* none: mock writes no entry */
		char *entry = r->c && r->c->entry ? clawmd_xasprintf("%s/%s", lay->ct_group, r->c->entry)
						  : NULL;
		for (size_t i = 0; i < m.nfiles; i++) {
			const struct clawmd_mem_file *f = &m.files[i];
			const char *name;
			size_t nlen;
			enum src_kind k = classify(lay, f->path, &name, &nlen);
			bool is_entry = entry && !strcmp(f->path, entry);
			if (is_entry)
				r->entry_bytes = f->size;
			for (size_t j = 0; k == SRC_N && !is_entry && f->parent && j < i; j++)
				if (!strcmp(m.files[j].path, f->parent)) {
					k = by[j].k;
					name = by[j].name;
					nlen = by[j].nlen;
				}
			by[i].k = k;
			by[i].name = name;
			by[i].nlen = nlen;
			if (is_entry)
				add_inlined(r, lay, f->content, f->len);
			else
				add_src(r, k == SRC_N ? SRC_OTHER : k, name, nlen,
					clawmd_utf16_len(f->content, f->len));
		}
		free(entry);
		free(by);
	}
	clawmd_memory_release(&m);
	clawmd_render_setup_release(&s);
	return rc;
}

/* ---- HTML --------------------------------------------------------------- */

/* The byte at u is shown as \xNN (html_n). */
static bool escaped(const unsigned char *u, size_t len)
{
	unsigned char c = u[0];
	if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))
		return false;
	if (c < 0x80)
		return true;
	return !(clawmd_utf8_len((const char *)u, len) > 0 && !(c == 0xC2 && u[1] < 0xA0));
}

/* Text as HTML: the five special characters as entities, newlines and
 * tabs kept, every other control byte and every byte outside well-formed
 * UTF-8 as a visible \xNN, so the page stays valid UTF-8 and shows what
 * the agent gets. */
static void html_n(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		size_t n;
		switch (c) {
		case '&': fputs("&amp;", stdout); i++; continue;
		case '<': fputs("&lt;", stdout); i++; continue;
		case '>': fputs("&gt;", stdout); i++; continue;
		case '"': fputs("&quot;", stdout); i++; continue;
		case '\'': fputs("&#39;", stdout); i++; continue;
		case '\n': case '\t': putchar(c); i++; continue;
		}
		if (c >= 0x20 && c < 0x7f) {
			putchar(c);
			i++;
		} else if (c >= 0x80 && (n = clawmd_utf8_len((const char *)u + i, len - i)) > 0 &&
			   /* C1 controls (U+0080-U+009F) are controls too */
			   !(c == 0xC2 && u[i + 1] < 0xA0)) {
			fwrite(u + i, 1, n, stdout);
			i += n;
		} else {
			/* One span for a run of such bytes, and a byte repeated
			 * as "\x00&#215;4194303": a file of NULs is not 29 times its
			 * size on the page. */
			fputs("<span class=esc>", stdout);
			do {
				size_t k = 1;
				while (i + k < len && u[i + k] == c)
					k++;
				if (k >= 4)
					printf("\\x%02X&#215;%zu", c, k);
				else
					for (size_t x = 0; x < k; x++)
						printf("\\x%02X", c);
				i += k;
				if (i < len)
					c = u[i];
			} while (i < len && escaped(u + i, len - i));
			fputs("</span>", stdout);
		}
	}
}

static void html(const char *s)
{
	html_n(s, strlen(s));
}

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
	/* No network whatever the page holds: no fetch, image, font or frame. */
	"<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; "
	"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	"<meta name=viewport content=\"width=device-width, initial-scale=1\">\n"
	"<title>clawmd report</title>\n<style>\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
	"h1{font-size:1.3em;margin:0 0 .2em}\n.meta{color:#555;margin-bottom:1em}\n"
	"table.fleet{border-collapse:collapse;width:100%}\n"
	"table.fleet th{text-align:left;border-bottom:2px solid #999;padding:.3em .5em}\n"
	"table.fleet td{padding:.3em .5em;vertical-align:top;border-bottom:1px solid #ddd}\n"
	"td.num{text-align:right;white-space:nowrap}\n"
	"details>summary{cursor:pointer;font-weight:600}\n"
	".bar{position:relative;display:flex;height:16px;width:100%;min-width:12em;"
	"background:#f1f1f1;border:1px solid #bbb;overflow:hidden}\n"
	".seg{height:100%;flex:none}\n"
	".mark{position:absolute;top:0;bottom:0;width:0;border-left:2px dashed #000}\n"
	".mark.cap{border-left-color:#c00}\n"
	".seg.entry{background:#34495e}.seg.persona{background:#8e44ad}.seg.base{background:#2c7be5}"
	".seg.skill{background:#27ae60}.seg.skill.alt{background:#6fcf97}"
	".seg.module{background:#e67e22}.seg.module.alt{background:#f2b06d}"
	".seg.mcp{background:#16a2b8}.seg.mcp.alt{background:#74d2e0}"
	".seg.memory{background:#d35400}.seg.other{background:#95a5a6}\n"
	".legend span{display:inline-block;margin-right:1em}\n"
	".legend i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em}\n"
	".state-clean{color:#1e7e34}.state-warn{color:#b8860b}.state-bad{color:#c00;font-weight:600}\n"
	".sev-error{color:#c00}.sev-warning{color:#b8860b}.sev-note{color:#2c7be5}\n"
	"pre.text{white-space:pre-wrap;background:#fafafa;border:1px solid #ddd;padding:.6em;"
	"max-height:40em;overflow:auto}\n"
	".esc{color:#c00;background:#fee}\n"
	"table.parts td,table.parts th{padding:.1em .6em;text-align:left}\n"
	"#filter{margin-bottom:.8em;padding:.3em;width:20em}\n"
	"</style>\n</head>\n<body>\n";

static void legend(void)
{
	printf("<p class=legend>");
	for (int k = 0; k < SRC_N; k++)
		printf("<span><i class=\"seg %s\"></i>%s</span>", kind_name[k], kind_name[k]);
	printf("<span><i class=mark style=\"position:static;border-left:2px dashed #000\"></i>"
	       "token budget</span><span><i class=\"mark cap\" style=\"position:static\"></i>"
	       "runtime cap</span></p>\n");
}

static double pct(size_t part, size_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The provider's title, from clawmd.json's contract where it has one
 * (host text: escaped). */
static const char *row_title(const struct row *r)
{
	return r->c ? r->c->title : clawmd_runtime_title(r->rt);
}

/* The group's memory as one bar, segments in reading order, `scale`
 * characters wide; the budget's and the cap's marks when `marks`. */
static void bar(const struct row *r, size_t scale, size_t budget_chars, bool marks)
{
	printf("<div class=\"bar%s\" data-total=%zu data-scale=%zu>", marks ? " fleet" : " own",
	       r->total, scale ? scale : 1);
	scale = scale ? scale : 1;
	unsigned alt[SRC_N] = {0};
	for (size_t i = 0; i < r->nsrcs; i++) {
		const struct src *s = &r->srcs[i];
		printf("<div class=\"seg %s%s\" data-chars=%zu style=\"width:%.4f%%\" title=\"",
		       kind_name[s->kind], alt[s->kind]++ % 2 ? " alt" : "", s->chars,
		       pct(s->chars, scale));
		html(kind_name[s->kind]);
		if (s->name) {
			printf(" ");
			html(s->name);
		}
		printf(": %zu characters\"></div>", s->chars);
	}
	if (marks && budget_chars)
		printf("<div class=\"mark budget\" style=\"left:%.4f%%\" title=\"token budget\"></div>",
		       pct(budget_chars, scale));
	if (marks && r->cap && r->cap <= scale) {
		printf("<div class=\"mark cap\" style=\"left:%.4f%%\" title=\"", pct(r->cap, scale));
		html(row_title(r));
		printf("'s cap: %zu bytes\"></div>", r->cap);
	}
	printf("</div>");
}

static const char *state_class(const struct row *r)
{
	if (r->failed || r->st.drift == CLAWMD_DRIFT_INVALID || r->st.drift == CLAWMD_DRIFT_HAND_EDITED)
		return "state-bad";
	return r->st.drift == CLAWMD_DRIFT_CLEAN ? "state-clean" : "state-warn";
}

/* What is cut off: for now what the runtime cuts at its byte cap (CM602).
 * A cap ladder that drops whole sections reports them through the same
 * findings, and they land here as they are. */
static size_t dropped(const struct row *r, bool print)
{
	size_t n = 0;
	for (size_t i = 0; i < r->f.n; i++) {
		const struct clawmd_finding *x = &r->f.v[i];
		if (strcmp(x->rule->code, "CM602"))
			continue;
		if (print) {
			printf("<li>");
			html(x->message);
			printf("</li>");
		}
		n++;
	}
	return n;
}

/* The group's details, opened from its name: what makes up its size, its
 * findings, what was cut off and the text the agent gets. */
static void row_details(const struct row *r)
{
	/* The fleet's bar is to one scale; this one is the group's own. */
	bar(r, r->total, 0, false);
	printf("<table class=parts><tr><th>source</th><th>name</th><th>characters</th>"
	       "<th>tokens</th></tr>\n");
	for (size_t i = 0; i < r->nsrcs; i++) {
		const struct src *s = &r->srcs[i];
		printf("<tr><td>%s</td><td>", kind_name[s->kind]);
		html(s->name ? s->name : "");
		printf("</td><td class=num>%zu</td><td class=num>%zu</td></tr>\n", s->chars,
		       (s->chars + 3) / 4);
	}
	printf("</table>\n");
	if (r->f.n) {
		printf("<h4>Findings</h4><ul class=findings>\n");
		for (size_t i = 0; i < r->f.n; i++) {
			const struct clawmd_finding *x = &r->f.v[i];
			const char *sev = clawmd_severity_name(x->rule->severity);
			printf("<li><span class=sev-%s>%s</span> %s <code>", sev, sev, x->rule->code);
			html(x->file);
			printf(":%lu:%lu</code> ", x->line, x->col);
			html(x->message);
			printf("</li>\n");
		}
		printf("</ul>\n");
	}
	if (dropped(r, false)) {
		printf("<h4>Cut off</h4><ul class=dropped>");
		dropped(r, true);
		printf("</ul>\n");
	}
	if (r->st.drift == CLAWMD_DRIFT_INVALID) {
		/* No plan, nothing loaded: say why instead of an empty text. */
		printf("<p class=state-bad>container.json is invalid: compose refuses this group "
		       "until it is fixed (the finding above says where)</p>\n</details></td>\n");
	} else {
		printf("<h4>What the agent gets (");
		html(row_title(r));
		printf(", %zu characters)</h4>\n<pre class=text>", r->total);
		html_n(r->text.ptr ? r->text.ptr : "", r->text.len);
		printf("</pre>\n");
		if (r->text_more) {
			printf("<p class=meta>%zu more bytes not shown here: <code>clawmd render "
			       "--group ", r->text_more);
			html(r->group);
			printf("</code> prints them all.</p>\n");
		}
		printf("</details></td>\n");
	}
}

/* The group's columns: runtimes, layout, state, size, cap, bar, findings. */
static void row_columns(const struct row *r, const struct clawmd_layout *lay, size_t scale,
			size_t budget_chars)
{
	printf("<td class=provider>");
	html(r->c ? r->c->name : clawmd_runtime_name(r->rt));
	for (int rt = 0; rt < CLAWMD_RUNTIME_N; rt++)
		if (rt != (int)r->rt && (r->st.runtimes & (1u << rt)))
			printf(" +%s", clawmd_runtime_name(rt));
	printf("</td><td class=layout>%s%s</td>", lay->mode == CLAWMD_MODE_COPY ? "copy" : "symlink",
	       lay->persona ? ", persona" : "");
	printf("<td class=\"state %s\">%s</td>", state_class(r), clawmd_drift_name(r->st.drift));
	printf("<td class=num>%zu chars<br>%zu tokens%s", r->total, (r->total + 3) / 4,
	       budget_chars ? "" : "</td>");
	if (budget_chars)
		printf("<br>%.0f%% of budget</td>", pct(r->total, budget_chars));
	printf("<td class=num>");
	if (r->cap)
		printf("%zu / %zu bytes", r->entry_bytes, r->cap);
	else
		printf("none");
	printf("</td><td class=sizebar>");
	bar(r, scale, budget_chars, true);
	size_t nd = dropped(r, false);
	printf("</td><td class=num>%zu (%zu error%s)%s</td></tr>\n", r->st.nfindings, r->st.nerrors,
	       r->st.nerrors == 1 ? "" : "s", nd ? "<br>cut off" : "");
}

static void group_row(const struct row *r, const struct clawmd_layout *lay, size_t scale,
		      size_t budget_chars)
{
	printf("<tr class=group data-group=\"");
	html(r->group);
	printf("\" data-total=%zu>\n<td><details><summary>", r->total);
	html(r->group);
	printf("</summary>\n");
	if (r->failed) {
		printf("<p class=state-bad>could not be read: ");
		html(r->why);
		printf("</p></details></td><td colspan=7 class=state-bad>unreadable</td></tr>\n");
		return;
	}
	row_details(r);
	row_columns(r, lay, scale, budget_chars);
}

/* A filter over group names: the one script, inline. */
static const char page_script[] =
	"<script>\n"
	"document.getElementById('filter').addEventListener('input', function (e) {\n"
	"  var q = e.target.value.toLowerCase();\n"
	"  document.querySelectorAll('tr.group').forEach(function (tr) {\n"
	"    tr.style.display = tr.dataset.group.toLowerCase().indexOf(q) < 0 ? 'none' : '';\n"
	"  });\n"
	"});\n"
	"</script>\n";

static void page(struct row *rows, size_t n, const struct clawmd_layout *lay)
{
	size_t budget_chars = lay->token_budget > 0 ? (size_t)lay->token_budget * 4 : 0;
	/* One scale for the fleet, so that bars compare across groups: the
	 * budget, or the biggest group past it.  A runtime's cap far past
	 * both (Codex's 32 KiB) would flatten every bar: its mark is drawn
	 * only when it falls on the bar, and the cap column gives it. */
	size_t scale = budget_chars;
	for (size_t i = 0; i < n; i++)
		if (rows[i].total > scale)
			scale = rows[i].total;
	scale = scale ? scale : 1;
	size_t unreadable = 0, findings = 0, over = 0;
	for (size_t i = 0; i < n; i++) {
		unreadable += rows[i].failed != 0;
		findings += rows[i].st.nfindings;
		over += budget_chars && rows[i].total > budget_chars;
	}
	char when[64] = "";
	time_t t = time(NULL);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	fputs(page_head, stdout);
	printf("<h1>clawmd report</h1>\n<p class=meta>root <code>");
	html(lay->root);
	printf("</code> &middot; %zu group%s &middot; %zu unreadable &middot; %zu over the "
	       "budget &middot; %zu finding%s &middot; token budget %ld &middot; clawmd %s "
	       "&middot; %s</p>\n",
	       n, n == 1 ? "" : "s", unreadable, over, findings, findings == 1 ? "" : "s",
	       lay->token_budget, CLAWMD_VERSION, when);
	printf("<input id=filter type=search placeholder=\"filter groups\" aria-label=\"filter groups\">\n");
	legend();
	printf("<table class=fleet id=fleet>\n<thead><tr><th>group</th><th>provider</th>"
	       "<th>layout</th><th>state</th><th>size</th><th>cap</th>"
	       "<th style=\"width:35%%\">memory by source</th><th>findings</th></tr></thead>\n"
	       "<tbody>\n");
	for (size_t i = 0; i < n; i++)
		group_row(&rows[i], lay, scale, budget_chars);
	printf("</tbody></table>\n");
	fputs(page_script, stdout);
	printf("</body>\n</html>\n");
}

/* The options into `lo` and `*quiet`: -1 to go on, else the exit status
 * (0 after --help, 2 on a usage error, said). */
static int report_parse(struct cmd_args *a, struct cmd_layout_opts *lo, bool *quiet)
{
	int c;
	while ((c = cmd_args_next(a)) > 0) {
		switch (c) {
		case 'q': *quiet = true; break;
		case 'h': cmd_help(help_head, options, help_foot); return 0;
		default:
			c = cmd_args_common(a, c, lo);
		}
		if (c < 0)
			break;
	}
	return c < 0 ? 2 : -1;
}

/* One group's row: its status, findings and what its text is made of.  A
 * group that cannot be read gets a row that says why (warned unless quiet). */
static void fill_row(struct row *r, const struct clawmd_root *root, const char *group, bool quiet)
{
	struct clawmd_lint_opts lopts = CLAWMD_LINT_OPTS_INIT;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group *g = NULL;
	r->group = group;
	clawmd_findings_init(&r->f);
	if (clawmd_group_open(&g, root, group, &err) < 0 ||
	    clawmd_group_status_get(&r->st, g, &lopts, &err) < 0 ||
	    clawmd_lint_group(&r->f, g, &lopts, &err) < 0 ||
	    (r->st.drift != CLAWMD_DRIFT_INVALID && load_row(r, root, g, &err) < 0)) {
		/* One bad group is shown, never fails the page. */
		r->failed = clawmd_exit_status(err.code);
		r->failed = r->failed ? r->failed : 4;
		r->why = clawmd_xstrdup(err.msg);
		if (!quiet)
			cmd_put_warning(err.msg);
	}
	clawmd_findings_sort(&r->f);
	clawmd_group_free(g);
}

static void rows_free(struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < rows[i].nsrcs; k++)
			free(rows[i].srcs[k].name);
		free(rows[i].srcs);
		free(rows[i].why);
		clawmd_group_status_release(&rows[i].st);
		clawmd_findings_release(&rows[i].f);
		clawmd_buf_release(&rows[i].text);
	}
	free(rows);
}

int cmd_report(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct cmd_args a;
	bool quiet = cmd_quiet;
	cmd_args_init(&a, "report", options, true, argc, argv);
	int status = report_parse(&a, &lo, &quiet);
	if (status >= 0) {
		cmd_args_release(&a);
		return status;
	}
	struct clawmd_root root;
	char **groups, **listed;
	size_t n;
	if ((status = cmd_fleet_open(&root, &lo, quiet, &a, &groups, &listed, &n))) {
		cmd_args_release(&a);
		return status;
	}
	struct row *rows = clawmd_xcalloc(n ? n : 1, sizeof(*rows));
	root.pass = clawmd_pass_new();
	for (size_t i = 0; i < n; i++)
		fill_row(&rows[i], &root, groups[i], quiet);
	page(rows, n, &root.lay);
	rows_free(rows, n);
	clawmd_strv_free(listed, listed ? n : 0);
	clawmd_root_release(&root);
	cmd_args_release(&a);
	return 0;
}
