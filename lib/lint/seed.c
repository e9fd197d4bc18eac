/*
 * seed.c - check: what caliban and chimera, the seed documents' own
 * loaders, would lose or mangle of a group (CM606-CM610), beside what
 * lint_runtimes() in group.c checks for every runtime (doc/runtimes.md,
 * "caliban and chimera").
 *
 * What the group's parts are is what Claude Code loads of it with every
 * setting source on and external includes approved: a file it loads
 * that the other loader does not is lost to it (by real path: the
 * loaders name a symlinked file differently).
 */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"
#include "runtime/imports.h" /* each runtime's import syntax */

#include <stdlib.h>
#include <string.h>

static const char truncated_marker[] = "\n[truncated: ";

/* The real paths of a load's files (as the view resolves them), each once. */
static char **real_paths(const struct clawmd_memory *m, const struct clawmd_view *v, size_t *n)
{
	char **out = clawmd_xcalloc(m->nfiles + 1, sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < m->nfiles; i++) {
		char *r = clawmd_view_realpath(v, m->files[i].path);
		out[(*n)++] = r ? r : clawmd_xstrdup(m->files[i].path);
	}
	return out;
}

static bool listed(char *const *v, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], p))
			return true;
	return false;
}

/* The line of `text` holding "@raw", or NULL; its length in *l. */
static const char *import_line(const char *text, size_t len, const char *raw, size_t *l)
{
	size_t rl = strlen(raw);
	for (const char *p = text; p && (p = memchr(p, '@', len - (size_t)(p - text)));) {
		if ((size_t)(text + len - p) > rl && !memcmp(p + 1, raw, rl)) {
			const char *a = p;
			while (a > text && a[-1] != '\n')
				a--;
			const char *e = memchr(p, '\n', len - (size_t)(p - text));
			*l = (size_t)((e ? e : text + len) - a);
			return a;
		}
		p++;
	}
	return NULL;
}

/* No byte past ASCII in `s` outside its HTML comments (an unterminated
 * one runs to the end, as caliban strips them). */
static bool ascii_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i + 3 < n && !memcmp(s + i, "<!--", 4)) {
			const char *e = memmem(s + i + 4, n - i - 4, "-->", 3);
			if (!e)
				return true;
			i = (size_t)(e - s) + 2;
			continue;
		}
		if ((unsigned char)s[i] >= 0x80)
			return false;
	}
	return true;
}

/* Why the loader, whose load is `m`, does not load the file Claude Code
 * loads as ref->files[i]; NULL when it tried its import and said why
 * (CM603 reports that). */
static char *why_lost(const struct clawmd_memory *ref, size_t i, const struct clawmd_memory *m,
		      bool caliban)
{
	const struct clawmd_mem_file *f = &ref->files[i];
	for (size_t k = 0; k < m->nimports; k++)
		if (!strcmp(m->imports[k].path, f->path) && m->imports[k].status != CLAWMD_IMPORT_LOADED)
			return NULL;
	const char *base = strrchr(f->path, '/');
	base = base ? base + 1 : f->path;
	if (!f->parent && !strcmp(base, CLAWMD_LOCAL_NAME))
		return clawmd_xstrdup(caliban ? "it never reads CLAUDE.local.md" : "it does not read it");
	if (!f->parent)
		return clawmd_xstrdup("it does not read that file");
	for (size_t k = 0; k < ref->nimports; k++) {
		const struct clawmd_mem_import *im = &ref->imports[k];
		if (im->status != CLAWMD_IMPORT_LOADED || strcmp(im->path, f->path))
			continue;
		for (size_t j = 0; caliban && j < ref->nfiles; j++) {
			size_t l, a, b;
			const char *ln;
			if (strcmp(ref->files[j].path, im->from) ||
			    !(ln = import_line(ref->files[j].content, ref->files[j].len, im->raw, &l)))
				continue;
			if (!clawmd_caliban_directive(ln, l, &a, &b))
				return clawmd_xasprintf("its import @%s in %s is inside a line, and caliban "
							"follows an @ only at the start of one", im->raw,
							im->from);
		}
		return clawmd_xasprintf("it does not follow @%s in %s", im->raw, im->from);
	}
	return clawmd_xasprintf("it does not follow the import of it in %s", f->parent);
}

/* CM608: caliban cuts its prefix at its budget. */
static void seed_cut(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
		     const char *shown, const struct clawmd_memory_opts *mo,
		     const struct clawmd_memory *m, bool caliban)
{
	const char *title = c->title;
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	clawmd_memory_text(&text, m, mo);
	const char *cut = caliban && text.len ? memmem(text.ptr, text.len, truncated_marker,
						       sizeof(truncated_marker) - 1) : NULL;
	if (cut)
		clawmd_lint_add(lg->out, "CM608", lg->group, shown, 1, 1,
				"trim the biggest parts: caliban keeps about 128,000 characters",
				"%s cuts its memory at 32,000 tokens (characters / 4): %ld bytes of the "
				"group's instructions are lost", title,
				strtol(cut + sizeof(truncated_marker) - 1, NULL, 10));
	clawmd_buf_release(&text);
}

/* CM607: every character past ASCII garbled, in each file caliban reads
 * (what its comments hold aside: stripped, not sent). */
static void seed_garbled(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
			 const char *shown, const struct clawmd_memory_opts *mo,
			 const struct clawmd_memory *m, bool caliban)
{
	const char *title = c->title;
	for (size_t i = 0; caliban && i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		struct clawmd_buf raw = CLAWMD_BUF_INIT;
		struct clawmd_view rv = {mo->mounts, mo->nmounts, NULL, NULL};
		if (clawmd_view_read(&rv, f->path, &raw, MEMORY_READ_MAX, NULL) == 0 &&
		    !ascii_text(raw.ptr, raw.len))
			clawmd_lint_add(lg->out, "CM607", lg->group, shown, 1, 1,
					"write the instructions caliban reads in ASCII",
					"%s garbles every character past ASCII in %s (each of its bytes "
					"becomes a character of its own)", title, f->path);
		clawmd_buf_release(&raw);
	}
}

/* CM606, CM610: the loader's load held against what Claude Code loads of
 * the group. */
static void seed_against_claude(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
				const char *shown, const struct clawmd_memory_opts *mo,
				const struct clawmd_memory *m, bool caliban)
{
	const char *title = c->title;
	/* What Claude Code loads of the group: its parts */
	struct clawmd_memory_opts ro = *mo;
	struct clawmd_memory ref;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	ro.runtime = CLAWMD_RUNTIME_CLAUDE;
	ro.approve_external = true;
	ro.no_local = ro.no_user = ro.no_project = false;
	clawmd_memory_init(&ref);
	if (clawmd_memory_load(&ref, &ro, &scratch) < 0) {
		clawmd_memory_release(&ref);
		return;
	}
	struct clawmd_view v = {mo->mounts, mo->nmounts, NULL, NULL};
	size_t nmine, nref;
	char **mine = real_paths(m, &v, &nmine), **refs = real_paths(&ref, &v, &nref);
	/* CM606: a part Claude Code loads that this loader does not */
	for (size_t i = 0; i < nref; i++) {
		if (ref.files[i].type == CLAWMD_MEM_USER || ref.files[i].type == CLAWMD_MEM_MANAGED ||
		    listed(mine, nmine, refs[i]) || listed(refs, i, refs[i]))
			continue;
		char *why = why_lost(&ref, i, m, caliban);
		if (why)
			clawmd_lint_add(lg->out, "CM606", lg->group, shown, 1, 1,
					caliban ? "compose again in copy mode (clawmd imports the memory "
						  "and puts each import caliban must follow on a line of "
						  "its own), or put the @ on a line of its own"
						: "keep the instructions in files chimera reads",
					"%s does not load %s, which Claude Code loads: %s", title,
					ref.files[i].path, why);
		free(why);
	}
	/* CM610: an import inside code, text to Claude Code, followed here */
	for (size_t k = 0; k < ref.nimports; k++) {
		const struct clawmd_mem_import *im = &ref.imports[k];
		if (im->status != CLAWMD_IMPORT_INSIDE_CODE)
			continue;
		char *r = clawmd_view_realpath(&v, im->path);
		if (r && listed(mine, nmine, r) && !listed(refs, nref, r))
			clawmd_lint_add(lg->out, "CM610", lg->group, shown, 1, 1,
					"write the path without its @ (or with a backslash before it) "
					"where it is an example",
					"%s imports @%s in %s from inside code, where Claude Code leaves "
					"it as text", title, im->raw, im->from);
		free(r);
	}
	clawmd_strv_free(mine, nmine);
	clawmd_strv_free(refs, nref);
	clawmd_memory_release(&ref);
}

void clawmd_lint_seed(struct clawmd_lint_group *lg, const struct clawmd_contract *c,
		      const char *shown, const struct clawmd_memory_opts *mo,
		      const struct clawmd_memory *m)
{
	bool caliban = c->like == CLAWMD_RUNTIME_CALIBAN;
	/* CM609: the loader fails on the group's files and sends nothing */
	if (m->failed) {
		clawmd_lint_add(lg->out, "CM609", lg->group, shown, 1, 1,
				caliban ? "trim the group's instructions below caliban's 32,000 tokens"
					: "save the file as UTF-8 (or remove it from the imports)",
				"%s", m->failed);
		return;
	}
	seed_cut(lg, c, shown, mo, m, caliban);
	seed_garbled(lg, c, shown, mo, m, caliban);
	seed_against_claude(lg, c, shown, mo, m, caliban);
}
