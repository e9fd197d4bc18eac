/*
 * memtext.c - what a load says: the text Claude Code sends for the memory
 * a load found (clawmd_memory_text(); §11 of claude-code-memory.md; other
 * runtimes' through their own text function, render/runtimes.h), and the
 * names of a file's type and an import's status.
 */
#include "clawmd.h"
#include "claude/mdscan.h" /* clawmd_js_trim: Claude Code trims as JavaScript does */
#include "render/runtimes.h"
#include "base/util.h"

#include <string.h>

const char *clawmd_mem_type_name(enum clawmd_mem_type type)
{
	static const char *const names[] = {"Managed", "User", "Project", "Local"};
	return (unsigned)type < CLAWMD_ARRAY_SIZE(names) ? names[type] : "?";
}

const char *clawmd_import_status_name(enum clawmd_import_status st)
{
	static const char *const names[] = {
		"loaded",   "empty",	"missing",     "cycle",	      "duplicate",
		"too deep", "not text", "external and not approved", "conditional", "inside code",
		"too large", "not followed",
	};
	return (unsigned)st < CLAWMD_ARRAY_SIZE(names) ? names[st] : "?";
}

#define MEMORY_INSTRUCTION_PROMPT                                                                  \
	"Codebase and user instructions are shown below. Be sure to adhere to these "             \
	"instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST " \
	"follow them exactly as written."

static const char *description(enum clawmd_mem_type t, bool legacy)
{
	switch (t) {
	case CLAWMD_MEM_PROJECT:
		return " (project instructions, checked into the codebase)";
	case CLAWMD_MEM_LOCAL:
		return " (user's private project instructions, not checked in)";
	case CLAWMD_MEM_MANAGED:
		if (!legacy)
			return " (organization-managed policy instructions)";
		/* fall through */
	default:
		return " (user's private global instructions for all projects)";
	}
}

void clawmd_memory_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			const struct clawmd_memory_opts *o)
{
	struct clawmd_release rel = o->release;
	if (!rel.major && !rel.minor && !rel.patch)
		rel = clawmd_release_default;
	bool policy = clawmd_release_managed_policy(&rel);
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	const struct clawmd_contract *ct = clawmd_runtime_contract(o->runtime);
	if (ct && ct->like != CLAWMD_RUNTIME_CLAUDE) {
		struct clawmd_memory_opts oo = *o;
		oo.runtime = ct->like;
		clawmd_runtime_text(out, m, &oo);
		return;
	}
	if (o->target) {
		/* Attachments: no description, content untrimmed (§11.2). */
		for (size_t i = 0; i < m->nfiles; i++) {
			/* the content may hold NUL bytes: put it by length */
			clawmd_buf_printf(out, "%s<system-reminder>\nContents of %s:\n\n",
					  i ? "\n" : "", m->files[i].path);
			clawmd_buf_put(out, m->files[i].content, m->files[i].len);
			clawmd_buf_puts(out, "\n</system-reminder>");
		}
		return;
	}
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		size_t a, b;
		clawmd_js_trim(f->content, f->len, &a, &b);
		if (a >= b)
			continue;
		clawmd_buf_puts(out, out->len ? "\n\n" : MEMORY_INSTRUCTION_PROMPT "\n\n");
		clawmd_buf_printf(out, "Contents of %s%s:\n\n", f->path,
				  description(f->type, !policy));
		clawmd_buf_put(out, f->content + a, b - a);
	}
}
