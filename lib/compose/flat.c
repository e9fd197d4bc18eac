/*
 * flat.c - the flat document (doc/compose.md, "The flat document"): each
 * provider's entry file as one document, no imports, no fragments, as
 * nanoclaw's composer writes it since its pull request 3536
 * (composeGroupProjectDoc; doc/nanoclaw.md).  With the nanoclaw preset the
 * bytes are that composer's on the same inputs:
 *
 *	HEADER
 *
 *	# Persona                      instructions.prepend.md, trimmed
 *	# NanoClaw Runtime Contract    the shared base, its memory note filled
 *	# Native Runtime Skills        from the contract's facts
 *	# NanoClaw Module: <m>         each *.instructions.md, sorted   (droppable)
 *	# NanoClaw Skill: <s>          each selected skill's instructions.md (droppable)
 *	# MCP Server: <name>           each valid server's instructions (droppable)
 *	# Omitted for size             what the cap ladder dropped
 *
 * Blocks are "# NAME\n\nBODY" with BODY trimmed as JavaScript trims, joined
 * by a blank line, and the file ends in one newline.  Directories are
 * listed in UTF-16 code unit order (JavaScript's sort), MCP servers in
 * JavaScript's object key order.  The host's install tree (base, modules,
 * skills) may be symlinked; the only file of the group read is the persona,
 * never through a symlink.  What the agent writes never fails the compose:
 * a corrupt skill selection widens to every skill, an invalid MCP server is
 * dropped, each with a warning.
 *
 * Whether a flat entry is clawmd's own output cannot be told from the file
 * (its header is nanoclaw's, byte for byte): clawmd keeps the digest of
 * what it wrote in the group's lock file (group/flatentry.c).
 */
#include "clawmd.h"
#include "compose/flat.h"
#include "compose/flatrow.h"
#include "compose/flatsrc.h"
#include "compose/persona.h" /* the bounds of the import layout's persona */
#include "compose/twice.h"
#include "compose/seed.h"
#include "compose/words.h"
#include "group/group.h"
#include "group/flatentry.h" /* the header, the cut marks */
#include "fs/fs.h"
#include "fs/inputs.h"
#include "runtime/text.h" /* Node's decoding, JavaScript's trim and sort */
#include "base/util.h"

#include <cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PERSONA_MAX (16u * 1024 * 1024)
#define MEMORY_NOTE "\n\n{{provider-memory-note}}"

struct section {
	char *name, *body;
	size_t len;  /* of body */
	size_t blen; /* of "# name\n\nbody" */
	bool droppable, dropped;
	bool cut; /* cut short to fit the cap (fit()) */
};

struct flat {
	struct clawmd_plan *plan;
	struct clawmd_group *g;
	struct section *v;
	size_t n, cap;
	size_t skills_cap; /* of plan->skills */
	/* caliban reads the document and never CLAUDE.local.md: the memory
	 * imported (compose/seed.h) */
	bool import_local;
};

#define SKILL_SECTION "NanoClaw Skill: "

/* The strings up to NULL, one after the other: the names of the hot paths,
 * without a format to parse. */
static char *cat(const char *s, ...)
{
	va_list ap;
	size_t len = 0;
	va_start(ap, s);
	for (const char *p = s; p; p = va_arg(ap, const char *))
		len += strlen(p);
	va_end(ap);
	char *out = clawmd_xmalloc(len + 1), *o = out; /* measured first: one allocation */
	va_start(ap, s);
	for (const char *p = s; p; p = va_arg(ap, const char *))
		o = stpcpy(o, p);
	va_end(ap);
	return out;
}

static void push(struct flat *f, const char *name, const char *body, size_t len, bool droppable)
{
	size_t a, b;
	clawmd_js_trim_valid(body, len, &a, &b);
	if (a == b)
		return;
	clawmd_xgrow(&f->v, &f->cap, f->n + 1, sizeof(*f->v));
	struct section *s = &f->v[f->n++];
	s->name = clawmd_xstrdup(name);
	/* by length: a NUL the agent wrote stays, as nanoclaw keeps it */
	s->body = clawmd_xmalloc(b - a + 1);
	memcpy(s->body, body + a, b - a);
	s->body[b - a] = '\0';
	s->len = b - a;
	s->blen = 2 + strlen(name) + 2 + (b - a);
	s->droppable = droppable;
	s->dropped = false;
	s->cut = false;
}

/* ---- the document ----------------------------------------------------------- */

#define OMITTED "\n\n# Omitted for size\n\n"
#define NOTICE_HEAD "These instruction sections were omitted to fit the project-document size cap: "
#define NOTICE_TAIL ". Their tools still work; consult each tool's own description."
/* The end of a section cut short (fit(), lint's CM604 finds it). */
#define CUT_NOTE CLAWMD_FLAT_CUT_HEAD "%zu" CLAWMD_FLAT_CUT_TAIL
/* The most of the notice's list of names, given what the runtime loads
 * (else the cap): past it, ", and N more" (the agent can make any number
 * of sections, and a notice naming them all would outgrow what it is
 * there to keep within). */
#define NAMES_MAX(cap) ((cap) / 8 < 64 ? 64 : (cap) / 8 > 4096 ? 4096 : (cap) / 8)
#define MORE_MAX 40 /* ", and 18446744073709551615 more" */

static void render(struct clawmd_buf *out, const struct section *v, size_t n, const char *dropped)
{
	clawmd_buf_clear(out);
	clawmd_buf_puts(out, CLAWMD_FLAT_HEADER);
	for (size_t i = 0; i < n; i++) {
		clawmd_buf_puts(out, "\n\n# ");
		clawmd_buf_puts(out, v[i].name);
		clawmd_buf_puts(out, "\n\n");
		clawmd_buf_put(out, v[i].body, v[i].len);
	}
	if (dropped)
		clawmd_buf_printf(out, OMITTED NOTICE_HEAD "%s" NOTICE_TAIL, dropped);
	clawmd_buf_putc(out, '\n');
}

/* Largest block first; of equal ones, the first in the document. */
static int by_size(const void *x, const void *y)
{
	const struct section *a = *(struct section *const *)x, *b = *(struct section *const *)y;
	if (a->blen != b->blen)
		return a->blen > b->blen ? -1 : 1;
	return (a > b) - (a < b);
}

/* The bytes a list of `names` bytes takes in the notice once bounded. */
static size_t names_shown(size_t names, size_t max)
{
	return names > max ? max + MORE_MAX : names;
}

/*
 * Past what the runtime loads with nothing left to drop: the sections
 * never dropped (the persona, the base, the native skills) cut, the
 * largest first, each at a line (else a character) boundary and ended by
 * a note of what it lost, until the document fits; each cut is said in
 * *cuts.  The runtime would do worse: Claude Code skips a CLAUDE.md past
 * its 4 MiB whole, Codex cuts the end (the base and the notice) off.
 */
static void cut(struct section *v, size_t n, size_t *len, size_t cap, struct clawmd_buf *cuts)
{
	/* A cap not even the headings fit under (a cap of 1 byte): nothing
	 * is cut, the document is written whole, as nanoclaw writes it. */
	size_t floor = *len;
	for (size_t i = 0; i < n; i++)
		if (!v[i].dropped)
			floor = floor - v[i].len + strlen(CUT_NOTE) + 16;
	if (floor > cap)
		return;
	while (*len > cap) {
		struct section *big = NULL;
		for (size_t i = 0; i < n; i++)
			if (!v[i].dropped && !v[i].cut && (!big || v[i].blen > big->blen))
				big = &v[i];
		if (!big)
			return;
		size_t body = big->len, note = strlen(CUT_NOTE) + 16;
		size_t over = *len - cap, keep = body > over + note ? body - over - note : 0;
		/* at a line's end if one is near, never inside a character */
		const char *nl = keep ? memrchr(big->body, '\n', keep) : NULL;
		if (nl && (size_t)(nl - big->body) + 256 >= keep)
			keep = (size_t)(nl - big->body);
		while (keep && ((unsigned char)big->body[keep] & 0xc0) == 0x80)
			keep--;
		/* by length: a body may hold a NUL (a section's text is kept
		 * whole, as the adapter passes it) */
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		clawmd_buf_put(&t, big->body, keep);
		clawmd_buf_printf(&t, CUT_NOTE, body - keep);
		clawmd_buf_printf(cuts, "%s%zu of the %zu bytes of '%s'", cuts->len ? ", " : "",
				  body - keep, body, big->name);
		*len = *len - big->blen;
		big->blen = big->blen - body + t.len;
		*len += big->blen;
		big->len = t.len;
		free(big->body);
		big->body = clawmd_buf_detach(&t);
		big->cut = true;
	}
}

/*
 * The drop-largest ladder (nanoclaw's fitToCap); cap 0: none, no warning.
 * nanoclaw renders the document again after each drop; its length is
 * known without that (a section is 2 + blen bytes of it, the notice
 * grows by each name dropped), so the sections go in one sorted pass and
 * the document is rendered once more: the agent decides how many
 * sections its MCP servers make.  The notice names at most NAMES_MAX
 * bytes of sections.
 *
 * Two sizes, since a cap is not always what the runtime loads: `cap` is
 * the budget the ladder drops to, and past it with nothing left to drop
 * the document is written whole and loud, as nanoclaw writes it;
 * `limit` is what the runtime loads at most
 * (clawmd_contract_load_limit()), and past it the sections never
 * dropped are cut (cut()): the agent is never left with nothing,
 * whatever it grows.
 */
static void fit(struct clawmd_buf *out, struct flat *f, struct section *v, size_t *n, size_t cap,
		size_t limit, const char *shown)
{
	/* the ladder's target: the budget, or the load limit when smaller
	 * (a document the runtime skips keeps nothing of a budget) */
	if (limit && (!cap || limit < cap))
		cap = limit;
	const size_t names_max = NAMES_MAX(limit ? limit : cap);
	struct clawmd_buf dropped = CLAWMD_BUF_INIT, cuts = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	clawmd_buf_put(&dropped, "", 0);
	clawmd_buf_put(&all, "", 0);
	render(out, v, *n, NULL);
	if (cap && out->len > cap) {
		struct section **by = clawmd_xcalloc(*n + 1, sizeof(*by));
		size_t nd = 0, k = 0, len = out->len, names = 0;
		const size_t notice = strlen(OMITTED NOTICE_HEAD NOTICE_TAIL);
		for (size_t i = 0; i < *n; i++)
			if (v[i].droppable)
				by[nd++] = &v[i];
		qsort(by, nd, sizeof(*by), by_size);
		while (k < nd && (k ? len + notice + names_shown(names, names_max) : len) > cap) {
			len -= 2 + by[k]->blen;
			names += (k ? 2 : 0) + strlen(by[k]->name);
			by[k++]->dropped = true;
		}
		/* the warning names every one: it is the host's log, and what
		 * the agent does not see, whole */
		for (size_t i = 0; i < k; i++)
			clawmd_buf_printf(&all, "%s%s", i ? ", " : "", by[i]->name);
		size_t listed = 0;
		for (listed = 0; listed < k; listed++) {
			size_t add = (listed ? 2 : 0) + strlen(by[listed]->name);
			if (names > names_max && dropped.len + add > names_max)
				break;
			clawmd_buf_printf(&dropped, "%s%s", listed ? ", " : "", by[listed]->name);
		}
		if (listed < k)
			clawmd_buf_printf(&dropped, ", and %zu more", k - listed);
		if (k)
			len += notice + dropped.len;
		if (limit && len > limit)
			cut(v, *n, &len, limit, &cuts);
		size_t m = 0;
		for (size_t i = 0; i < *n; i++) {
			if (v[i].dropped) {
				free(v[i].name);
				free(v[i].body);
			} else {
				v[m++] = v[i];
			}
		}
		*n = m;
		free(by);
		if (k || cuts.len)
			render(out, v, *n, k ? dropped.ptr : NULL);
	}
	if (all.len)
		clawmd_plan_warn(f->plan, "%s: %zu bytes against its cap of %zu: dropped the largest instruction "
			      "sections: %s", shown, out->len, cap, all.ptr);
	else if (cap && out->len >= cap - (cap + 7) / 8 && !cuts.len) /* nanoclaw's Math.floor(cap - cap / 8) */
		clawmd_plan_warn(f->plan, "%s: %zu bytes, near its cap of %zu", shown, out->len, cap);
	if (cuts.len)
		clawmd_plan_warn(f->plan, "%s: past its cap of %zu with nothing left to drop: cut the last %s; the "
			      "agent does not see them", shown, limit, cuts.ptr);
	else if (cap && out->len > cap)
		clawmd_plan_warn(f->plan, "%s: %zu bytes with nothing left to drop, past its cap of %zu: written "
			      "whole", shown, out->len, cap);
	clawmd_buf_release(&dropped);
	clawmd_buf_release(&all);
	clawmd_buf_release(&cuts);
}

/* "Do not use `A` or `B` for memory." in place of the first memory-note
 * paragraph of the base (nothing without override files). */
static void render_base(struct clawmd_buf *out, const char *t, size_t len,
			const struct clawmd_contract *c)
{
	const char *at = memmem(t, len, MEMORY_NOTE, strlen(MEMORY_NOTE));
	clawmd_buf_clear(out);
	if (!at) {
		clawmd_buf_put(out, t, len);
		return;
	}
	clawmd_buf_put(out, t, (size_t)(at - t));
	if (c->overrides && *c->overrides) {
		clawmd_buf_puts(out, "\n\nDo not use ");
		for (const char *p = c->overrides; *p;) {
			size_t l = strcspn(p, ",");
			clawmd_buf_printf(out, "%s`%.*s`", p == c->overrides ? "" : " or ", (int)l, p);
			p += l + (p[l] == ',');
		}
		clawmd_buf_puts(out, " for memory.");
	}
	const char *after = at + strlen(MEMORY_NOTE);
	clawmd_buf_put(out, after, len - (size_t)(after - t));
}

static void native_skills(struct clawmd_buf *out, const struct clawmd_contract *c)
{
	clawmd_buf_clear(out);
	clawmd_buf_printf(out, "Selected NanoClaw runtime skills are available as provider-native "
			  "skills at `%s`.\n\nEach skill directory contains a `SKILL.md` with its "
			  "trigger description plus any supporting files, and points to the read-only "
			  "shared skill source under `%s`.\n\nUse skill discovery to load these skills "
			  "only when their descriptions match the task.",
			  c->skills_discovery, c->skills_source ? c->skills_source : "");
	if (c->skills_inlined)
		clawmd_buf_puts(out, " A skill whose rules must hold before the task is recognised "
				     "ships an `instructions.md` instead, and those arrive inlined as "
				     "`NanoClaw Skill:` sections of this document.");
	clawmd_buf_printf(out, "\n\nSkills YOU author or install yourself go in `%s/<name>/SKILL.md` "
			  "\xe2\x80\x94 persistent across sessions and discovered automatically. Never "
			  "write skills elsewhere: paths outside ",
			  c->skills_home ? c->skills_home : "");
	const char *roots = c->skills_roots ? c->skills_roots : "";
	for (const char *p = roots; *p;) {
		size_t l = strcspn(p, ",");
		clawmd_buf_printf(out, "%s`%.*s`", p == roots ? "" : " and ", (int)l, p);
		p += l + (p[l] == ',');
	}
	clawmd_buf_puts(out, " are ephemeral or not discovered.");
}

static void sections_release(struct flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].body);
	}
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

/* The modules: every NAME.instructions.md, cli and scheduling out when
 * the group has no CLI.  `text` is scratch. */
static int push_modules(struct flat *f, const struct clawmd_flat_row *r, struct clawmd_buf *text,
			struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	size_t n = 0;
	int rc = 0;
	char **names = lay->modules ? clawmd_flat_source_list(f->plan, f->g, lay->modules, &n) : NULL;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(names[i]), sl = strlen(".instructions.md");
		if (l <= sl || strcmp(names[i] + l - sl, ".instructions.md") || strchr(names[i], '\n'))
			continue;
		char *mod = clawmd_xstrndup(names[i], l - sl);
		if (!(r->cli_disabled && (!strcmp(mod, "cli") || !strcmp(mod, "scheduling")))) {
			char *p = clawmd_path_join(lay->modules, names[i]);
			/* a handful: their directory is not opened for them
			 * (an open and a close for three shorter lookups) */
			if ((rc = clawmd_flat_source_read(text, f->g, p, 0, err)) == 0) {
				char *h = cat("NanoClaw Module: ", mod, NULL);
				push(f, h, text->ptr, text->len, true);
				free(h);
			}
			rc = rc < 0 ? rc : 0;
			free(p);
		}
		free(mod);
	}
	clawmd_strv_free(names, n);
	return rc;
}

/* The skills: each selected one shipping an instructions.md.  `text` is scratch. */
static int push_skills(struct flat *f, const struct clawmd_flat_row *r, struct clawmd_buf *text,
		       struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	size_t n;
	int rc = 0;
	char **names = clawmd_flat_source_list(f->plan, f->g, lay->skills, &n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		bool sel = r->all_skills;
		for (size_t k = 0; !sel && k < r->nskills; k++)
			sel = !strcmp(r->skills[k], names[i]);
		if (!sel)
			continue;
		char *p = cat(lay->skills, "/", names[i], "/instructions.md", NULL);
		if ((rc = clawmd_flat_source_read(text, f->g, p, strlen(lay->skills), err)) == 0) {
			char *h = cat(SKILL_SECTION, names[i], NULL);
			push(f, h, text->ptr, text->len, true);
			free(h);
		}
		rc = rc < 0 ? rc : 0;
		free(p);
	}
	clawmd_strv_free(names, n);
	return rc;
}

/* A legacy spec's own sections (nanoclaw's extraSections, checked when
 * the contract was made): each as it is named, never dropped. */
static void push_legacy_sections(struct flat *f, const struct clawmd_contract *c)
{
	cJSON *doc = c->sections ? cJSON_Parse(c->sections) : NULL;
	const cJSON *it;
	cJSON_ArrayForEach(it, doc)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
		const cJSON *body = cJSON_GetObjectItemCaseSensitive(it, "body");
		if (cJSON_IsString(name) && cJSON_IsString(body))
			push(f, name->valuestring, body->valuestring, strlen(body->valuestring), false);
	}
	cJSON_Delete(doc);
}

/* One provider's document into `out`. */
static int compose_one(struct clawmd_buf *out, struct flat *f, const struct clawmd_flat_row *r,
		       const struct clawmd_buf *persona, const struct clawmd_contract *c,
		       struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	struct clawmd_buf text = CLAWMD_BUF_INIT, body = CLAWMD_BUF_INIT;
	char *shown = clawmd_path_join(f->g->shown, c->entry);
	int rc;
	if (persona->len)
		push(f, "Persona", persona->ptr, persona->len, false);
	/* a legacy spec's base is inlined as it is written */
	const char *base = c->base ? c->base : lay->base;
	if ((rc = clawmd_flat_source_read(&text, f->g, base, 0, err)) < 0)
		goto out;
	if (rc == 1) {
		char *b = clawmd_layout_shown(lay, base);
		clawmd_plan_warn(f->plan, "%s: composed without its base document ('%s' is missing)", shown, b);
		free(b);
	} else if (c->base) {
		push(f, "NanoClaw Runtime Contract", text.ptr, text.len, false);
	} else {
		render_base(&body, text.ptr, text.len, c);
		push(f, "NanoClaw Runtime Contract", body.ptr, body.len, false);
	}
	rc = 0;
	push_legacy_sections(f, c);
	if (c->skills_discovery && *c->skills_discovery) {
		native_skills(&body, c);
		push(f, "Native Runtime Skills", body.ptr, body.len, false);
	}
	if ((rc = push_modules(f, r, &text, err)) < 0 || (rc = push_skills(f, r, &text, err)) < 0)
		goto out;
	for (size_t i = 0; i < r->nmcp; i++) {
		char *h = cat("MCP Server: ", r->mcp_names[i], NULL);
		push(f, h, r->mcp_text[i], strlen(r->mcp_text[i]), true);
		free(h);
	}
	/* caliban never reads CLAUDE.local.md: an @ line of its own brings it */
	if (f->import_local)
		push(f, "Memory", "@./" CLAWMD_LOCAL_NAME, strlen("@./" CLAWMD_LOCAL_NAME), false);
	fit(out, f, f->v, &f->n, c->cap, clawmd_contract_load_limit(c), shown);
	if (!f->plan->n) /* the first entry: the skills status names */
		for (size_t i = 0; i < f->n; i++)
			if (!strncmp(f->v[i].name, SKILL_SECTION, strlen(SKILL_SECTION))) {
				clawmd_xgrow(&f->plan->skills, &f->skills_cap, f->plan->nskills + 1,
					     sizeof(char *));
				f->plan->skills[f->plan->nskills++] =
					clawmd_xstrdup(f->v[i].name + strlen(SKILL_SECTION));
			}
out:
	sections_release(f);
	clawmd_buf_release(&text);
	clawmd_buf_release(&body);
	free(shown);
	return rc;
}

/* ---- the plan ---------------------------------------------------------------- */

static const struct clawmd_contract *first_contract(struct clawmd_group *g, const cJSON *doc)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "provider");
	if (cJSON_IsString(v)) {
		int rt = clawmd_layout_runtime(g->lay, v->valuestring);
		if (rt >= 0)
			return clawmd_layout_contract(g->lay, rt);
	}
	return NULL;
}

/* The agent's config, as nanoclaw reads its row (NULL: none, or not an
 * object); it never fails the compose here: what clawmd's reader refuses
 * (`*refused`) is read as nanoclaw reads it, with a warning.  The JSON is
 * the reader's own parse where it made one (the same bytes parse the
 * same), else parsed here into *owned. */
static const cJSON *flat_config(struct clawmd_flat_row *r, struct flat *f,
				const struct clawmd_group_config **cfg, bool *refused,
				struct clawmd_err *cerr, const char *cj, cJSON **owned)
{
	struct clawmd_group *g = f->g;
	const cJSON *json = NULL;
	*owned = NULL;
	*refused = clawmd_group_config(cfg, g, cerr) < 0;
	if (!g->config_absent && g->config_text.len) {
		json = g->config_doc;
		char *dup = NULL;
		if (!json)
			json = *owned = clawmd_config_json(g->config_text.ptr, g->config_text.len,
							   NULL, &dup);
		free(dup);
		if (!cJSON_IsObject(json))
			clawmd_plan_warn(f->plan, "%s: not a JSON object; composed with every default", cj);
	} else if (!g->config_absent) {
		clawmd_plan_warn(f->plan, "%s: unreadable (%s); composed with every default", cj, cerr->msg);
	}
	if (cJSON_IsObject(json))
		clawmd_flat_row_read(r, f->plan, json, cj);
	return json;
}

/* The runtimes: those container.json names (unknown ones warned about, as
 * in the import layout), else the layout's. */
static clawmd_runtimes flat_runtimes(struct flat *f, const struct clawmd_group_config *cfg,
				     const cJSON *json, bool refused, struct clawmd_err *cerr,
				     const char *cj)
{
	struct clawmd_group *g = f->g;
	clawmd_runtimes set = 0;
	if (cfg && cfg->nruntime_names) {
		enum clawmd_runtime first;
		clawmd_group_runtimes(&set, &first, g, cerr);
		for (size_t i = 0; i < cfg->nruntime_names; i++) {
			char *m = clawmd_group_unknown_runtime(g, i);
			if (m)
				clawmd_plan_warn(f->plan, "%s", m);
			free(m);
		}
		return set;
	}
	const struct clawmd_contract *c = cJSON_IsObject(json) ? first_contract(g, json) : NULL;
	if (c)
		return 1u << c->rt;
	/* A provider the reader refused (no string, a NUL in it) or that it
	 * never got to: the default surfaces, said. */
	const cJSON *p = cJSON_IsObject(json) ? cJSON_GetObjectItemCaseSensitive(json, "provider")
					      : NULL;
	if (refused && p && !cJSON_IsNull(p))
		clawmd_plan_warn(f->plan, "%s: provider: not the name of a provider clawmd knows; composing the "
			      "default (Claude Code) surfaces", cj);
	return g->lay->runtimes;
}

/* instructions.prepend.md first, then JavaScript's order. */
static int persona_order(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	bool fa = !strcmp(a, CLAWMD_PERSONA_NAME), fb = !strcmp(b, CLAWMD_PERSONA_NAME);
	return fa != fb ? (fa ? -1 : 1) : clawmd_js_cmp(x, y);
}

/*
 * The persona as nanoclaw's src/group-persona.ts reads it (nanocoai
 * nanoclaw 81524905; doc/nanoclaw.md says why that version):
 * instructions.prepend.md, then every other *.prepend.md of the group in
 * sorted order, each trimmed, the empty ones left out, joined by a blank
 * line.  Each is opened without following a symlink and taken only when
 * regular: a symlink is a warning, as nanoclaw's failed open is, another
 * file type is passed over quietly.  The directive the agent wrote in it
 * is defused (clawmd_defuse_imports): the flat document then differs from
 * nanoclaw's by that alone, and compose and check say so.  Bounded as the
 * import layout's persona is: CLAWMD_PERSONA_FILES_MAX files and
 * PERSONA_MAX bytes in all, past which the rest is left out with a
 * warning.  Empty when there is none.
 */
static void flat_persona(struct clawmd_buf *persona, struct flat *f, const struct clawmd_dir *gd)
{
	struct clawmd_group *g = f->g;
	struct clawmd_buf one = CLAWMD_BUF_INIT, text = CLAWMD_BUF_INIT;
	char **names = NULL;
	size_t n = 0, k = 0;
	clawmd_buf_clear(persona);
	if (clawmd_inputs_list(&names, &n, &g->inputs, gd->fd, CLAWMD_AT_GROUP, ".",
			       CLAWMD_PREPEND_SUFFIX) < 0) {
		clawmd_inputs_lose(&g->inputs);
		clawmd_plan_warn(f->plan, "%s: could not list the standing instructions (%s); omitting "
			      "the persona", g->shown, strerror(errno));
		return;
	}
	/* a name the host could not show or Node would not decode is one
	 * nanoclaw could not open either */
	for (size_t i = 0; i < n; i++)
		if (clawmd_utf8_valid(names[i]) && !strchr(names[i], '\n'))
			names[k++] = names[i];
		else
			free(names[i]);
	if (k > 1) /* qsort of NULL (no persona file) is undefined, UBSan says */
		qsort(names, k, sizeof(*names), persona_order);
	struct clawmd_dir shown = {gd->fd, g->shown};
	for (size_t i = 0; i < k; i++) {
		struct clawmd_err e = CLAWMD_ERR_INIT;
		struct stat st;
		size_t a, b;
		if (i == CLAWMD_PERSONA_FILES_MAX || text.len >= PERSONA_MAX) {
			clawmd_plan_warn(f->plan, "%s/%s: past the persona's bound (%d files, %u bytes); it and "
				      "the files after it are left out", g->shown, names[i],
				      CLAWMD_PERSONA_FILES_MAX, PERSONA_MAX);
			break;
		}
		int r = clawmd_fs_read_st(&one, &st, &shown, names[i], PERSONA_MAX - text.len, &e);
		clawmd_inputs_note(&g->inputs, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, names[i],
				   st.st_mode ? &st : NULL);
		if (r == 1 || (r < 0 && st.st_mode && !S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode)))
			continue; /* gone since the listing, or not a file */
		if (r < 0) {
			clawmd_plan_warn(f->plan, "%s/%s: could not read the standing instructions; omitting "
				      "it (%s)", g->shown, names[i], e.msg);
			continue;
		}
		clawmd_utf8_sanitize(&one);
		clawmd_js_trim_valid(one.ptr, one.len, &a, &b);
		if (a == b)
			continue;
		if (text.len)
			clawmd_buf_puts(&text, "\n\n");
		clawmd_buf_put(&text, one.ptr + a, b - a);
	}
	if (text.len)
		f->plan->ndefused += clawmd_defuse_imports(persona, text.ptr, text.len);
	clawmd_strv_free(names, k);
	clawmd_buf_release(&one);
	clawmd_buf_release(&text);
}

int clawmd_flat_plan(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err)
{
	struct flat f = {out, g, NULL, 0, 0};
	struct clawmd_buf persona = CLAWMD_BUF_INIT, doc = CLAWMD_BUF_INIT;
	struct clawmd_err cerr = CLAWMD_ERR_INIT;
	const struct clawmd_group_config *cfg;
	const struct clawmd_dir *gd;
	struct clawmd_flat_row r;
	const cJSON *json;
	cJSON *owned;
	size_t cap = 0;
	int rc;
	memset(&r, 0, sizeof(r));
	r.all_skills = true;
	out->flat = true;
	if ((rc = clawmd_group_dir(&gd, g, err)) < 0)
		return rc;
	char *cj = clawmd_group_config_shown(g, false);
	bool refused;
	json = flat_config(&r, &f, &cfg, &refused, &cerr, cj, &owned);
	clawmd_runtimes set = flat_runtimes(&f, cfg, json, refused, &cerr, cj);
	int nrt = clawmd_layout_nruntimes(g->lay);
	flat_persona(&persona, &f, gd);

	for (int rt = 0; rt < nrt && rc == 0; rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(g->lay, rt);
		if (!(set & (1u << rt)) || !c || !c->entry)
			continue;
		bool done = false;
		for (size_t i = 0; i < out->n && !done; i++)
			done = !strcmp(out->entries[i].name, c->entry);
		if (done)
			continue;
		f.import_local = clawmd_seed_caliban_reads(g->lay, set, c->entry);
		if ((rc = compose_one(&doc, &f, &r, &persona, c, err)) < 0)
			break;
		clawmd_xgrow(&out->entries, &cap, out->n + 1, sizeof(*out->entries));
		size_t len = doc.len;
		out->entries[out->n++] = (struct clawmd_entry){clawmd_xstrdup(c->entry), CLAWMD_FT_FILE,
							       clawmd_buf_detach(&doc), len};
	}
	/* Copilot CLI or Cursor beside another provider: two flat files in one
	 * directory, both read */
	if (rc == 0)
		clawmd_plan_warn_twice(out, g, set);
	clawmd_flat_row_release(&r);
	cJSON_Delete(owned);
	clawmd_buf_release(&persona);
	clawmd_buf_release(&doc);
	free(cj);
	return rc;
}
