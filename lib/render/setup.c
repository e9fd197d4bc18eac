/*
 * setup.c - what a group is rendered with (clawmd/render.h,
 * clawmd_render_setup): its container's mounts, its runtime by its
 * contract's "like", clawmd.json's settings, and on a nanoclaw host the
 * release its image pins, the sources its agent runner passes and the
 * memory its SessionStart hook injects.  render --group and the Node
 * binding both come here: one group, one answer.
 */
#include "clawmd.h"
#include "base/util.h"
#include "group/group.h"

#include <stdlib.h>
#include <string.h>

static char *release_str(const struct clawmd_release *r)
{
	return clawmd_xasprintf("%u.%u.%u", r->major, r->minor, r->patch);
}

char *clawmd_render_release(const struct clawmd_memory_opts *o)
{
	return release_str(o->release.major ? &o->release : &clawmd_release_default);
}

/* The Claude Code release of a nanoclaw host's image, and where it came
 * from.  The caller's release, then clawmd.json's, stand: the pin is read
 * only to be noted, so a pin file the host broke does not stop them. */
static int nanoclaw_release(struct clawmd_render_setup *s, const struct clawmd_layout *lay,
			    const struct clawmd_render_opts *opts, struct clawmd_err *err)
{
	struct clawmd_release pin;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	bool noted = lay->claude_set || opts->broken_pin_noted;
	char *file = NULL;
	int rc = opts->release_set ? 0
				   : clawmd_nanoclaw_pinned_release(&pin, &file, lay,
								    noted ? &scratch : err);
	if (rc < 0 && !noted) {
		free(file);
		return rc;
	}
	if (opts->release_set) {
		s->release_from = clawmd_xstrdup("--claude-version");
	} else if (lay->claude_set) {
		char *v = release_str(&lay->claude), *pv = rc == 1 ? release_str(&pin) : NULL;
		s->release_from = pv && strcmp(pv, v)
					  ? clawmd_xasprintf("claude_version in clawmd.json (%s pins %s)",
							     file, pv)
					  : clawmd_xstrdup("claude_version in clawmd.json");
		free(v);
		free(pv);
	} else if (rc == 1) {
		s->memory.release = pin;
		s->release_from = clawmd_xasprintf("pinned by %s", file);
	} else if (rc < 0) {
		s->release_from = clawmd_xasprintf("clawmd's default (%s)", scratch.msg);
	} else {
		s->release_from = clawmd_xasprintf("clawmd's default (%s pins none)", file);
	}
	free(file);
	return 0;
}

/* A nanoclaw host: the release (Claude Code groups only: another
 * runtime's rules do not depend on it), the hook's memory (the agent
 * runner's, for Claude Code and Codex alike) and the setting sources the
 * runner that has the hook starts Claude Code with: every one. */
static int nanoclaw(struct clawmd_render_setup *s, const struct clawmd_layout *lay,
		    const struct clawmd_render_opts *opts, struct clawmd_err *err)
{
	struct clawmd_memory_opts *o = &s->memory;
	int rc;
	s->nanoclaw = true;
	if (o->runtime == CLAWMD_RUNTIME_CLAUDE &&
	    (rc = nanoclaw_release(s, lay, opts, err)) < 0)
		return rc;
	if (o->runtime == CLAWMD_RUNTIME_CLAUDE || o->runtime == CLAWMD_RUNTIME_CODEX)
		clawmd_session_hook_load(&s->hook, s->mounts, s->nmounts, lay->ct_group);
	if (o->runtime != CLAWMD_RUNTIME_CLAUDE)
		return 0;
	if (opts->sources_set) {
		s->sources_from = clawmd_xstrdup("--setting-sources");
	} else if (lay->sources_set) {
		s->sources_from = clawmd_xstrdup("setting_sources in clawmd.json");
	} else if (s->hook.present) {
		o->no_user = o->no_project = o->no_local = false;
		s->sources_from = clawmd_xstrdup("nanoclaw's agent runner with its memory hook "
						 "(" CLAWMD_HOOK_SCRIPT ")");
	} else {
		s->sources_from = clawmd_xstrdup("the nanoclaw preset (an agent runner without "
						 CLAWMD_HOOK_SCRIPT ")");
	}
	return 0;
}

int clawmd_render_setup(struct clawmd_render_setup *out, struct clawmd_group *g,
			const struct clawmd_render_opts *opts, struct clawmd_err *err)
{
	memset(out, 0, sizeof(*out));
	int rc = clawmd_opts_version(opts->version, CLAWMD_RENDER_OPTS_VERSION, "clawmd_render_opts",
				     err);
	if (rc < 0)
		return rc;
	const struct clawmd_layout *lay = g->lay;
	struct clawmd_memory_opts *o = &out->memory;
	clawmd_runtimes set;
	enum clawmd_runtime first = CLAWMD_RUNTIME_CLAUDE;
	*o = opts->memory;
	if ((rc = clawmd_group_mounts(&out->mounts, &out->nmounts, g, err)) < 0 ||
	    (!opts->runtime_set && (rc = clawmd_group_runtimes(&set, &first, g, err)) < 0))
		return rc;
	/* A provider clawmd.json defines loads as the built-in one it is
	 * like; one no contract knows, as Claude Code.  Nested memory is
	 * Claude Code's alone. */
	const struct clawmd_contract *fc = clawmd_layout_contract(lay, first);
	if (!opts->runtime_set && !o->target)
		o->runtime = fc ? fc->like : CLAWMD_RUNTIME_CLAUDE;
	o->mounts = out->mounts;
	o->nmounts = out->nmounts;
	if (!o->cwd)
		o->cwd = lay->ct_group;
	if (!opts->release_set)
		o->release = lay->claude;
	o->approve_external |= lay->approve_external;
	if (!opts->sources_set) {
		o->no_user = lay->no_user;
		o->no_project = lay->no_project;
		o->no_local = lay->no_local;
	}
	if (lay->nanoclaw && !o->target)
		return nanoclaw(out, lay, opts, err);
	return 0;
}

void clawmd_render_setup_release(struct clawmd_render_setup *s)
{
	clawmd_mounts_free(s->mounts, s->nmounts);
	free(s->release_from);
	free(s->sources_from);
	clawmd_session_hook_release(&s->hook);
	memset(s, 0, sizeof(*s));
}
