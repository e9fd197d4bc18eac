/* render.c - handle.render(group, options): what a runtime loads, file by
 * file; handle.mounts(group): what a container runner binds. */
#include "addon.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- render ------------------------------------------------------------- */

/* The group's directory must be a real one (as the command's
 * cmd_groups_check): render reads through the mount table, which would
 * otherwise show a missing group as an empty one. */
static int group_exists(const struct clawmd_group *g, struct clawmd_err *err)
{
	struct stat st;
	const char *path = clawmd_group_path(g);
	if (lstat(path, &st) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "no group '%s': '%s'", clawmd_group_name(g),
				      path);
	if (S_ISLNK(st.st_mode))
		return clawmd_err_set(err, CLAWMD_EFS,
				      "group '%s': '%s' is a symlink (refused: it could lead anywhere)",
				      clawmd_group_name(g), path);
	if (!S_ISDIR(st.st_mode))
		return clawmd_err_set(err, CLAWMD_EFS, "group '%s': '%s' is not a directory",
				      clawmd_group_name(g), path);
	return 0;
}

static napi_value memory_files_js(napi_env env, const struct clawmd_memory *m, bool json)
{
	napi_value arr, x;
	if (napi_create_array_with_length(env, m->nfiles, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "type", clawmd_mem_type_name(f->type)) ||
		    !set_str(env, x, "path", f->path) || !set_str(env, x, "parent", f->parent) ||
		    (json && (!set_num(env, x, "size", (double)f->size) ||
			      !set_num(env, x, "tokens",
				       (double)((clawmd_utf16_len(f->content, f->len) + 3) / 4)))) ||
		    !set_elem(env, arr, i, x))
			return NULL;
	}
	return arr;
}

/* The AGENTS.md fallback (Claude Code 2.1.281 on), as render --json has
 * it: the mode in effect (null before 2.1.281), what the walk found, and
 * the file that turned the fallback off.  False when N-API failed. */
static bool agents_js(napi_env env, napi_value ret, const struct clawmd_memory *m)
{
	napi_value arr, x;
	if (!m->instruction_files)
		return set_str(env, ret, "instructionFiles", NULL);
	const char *mode = clawmd_instruction_files_name(m->instruction_files);
	if (!set_str(env, ret, "instructionFiles", mode) ||
	    napi_create_array_with_length(env, m->nagents, &arr) != napi_ok)
		return false;
	for (size_t i = 0; i < m->nagents; i++)
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "path", m->agents[i].path) ||
		    !set_bool(env, x, "loaded", m->agents[i].loaded) || !set_elem(env, arr, i, x))
			return false;
	return set_val(env, ret, "agentsMd", arr) &&
	       set_str(env, ret, "agentsMdOffBy", m->agents_off_by);
}

/* A nanoclaw host (render --json's claude_version ... session_start): the
 * release and where it came from, the setting sources and where from, and
 * what the SessionStart hook injects (the text may hold NUL bytes: it is
 * given whole). */
static bool nanoclaw_js(napi_env env, napi_value ret, const struct clawmd_render_setup *s)
{
	const struct clawmd_memory_opts *o = &s->memory;
	napi_value arr, x, h, v;
	if (s->release_from) {
		char *rel = clawmd_render_release(o);
		bool ok = set_str(env, ret, "claudeVersion", rel);
		free(rel);
		if (!ok || !set_str(env, ret, "claudeVersionFrom", s->release_from))
			return false;
	}
	if (s->sources_from) {
		const char *src[3];
		size_t n = 0;
		if (!o->no_project)
			src[n++] = "project";
		if (!o->no_user)
			src[n++] = "user";
		if (!o->no_local)
			src[n++] = "local";
		if (!set_val(env, ret, "settingSources", strv_js(env, (char *const *)src, n)) ||
		    !set_str(env, ret, "settingSourcesFrom", s->sources_from))
			return false;
	}
	if (!s->hook.present)
		return set_str(env, ret, "sessionStart", NULL);
	size_t nf = sizeof(s->hook.files) / sizeof(s->hook.files[0]);
	if (napi_create_object(env, &h) != napi_ok ||
	    !set_str(env, h, "hook", CLAWMD_HOOK_SCRIPT) ||
	    !set_num(env, h, "maxChars", CLAWMD_HOOK_MEMORY_CHARS) ||
	    napi_create_array_with_length(env, nf, &arr) != napi_ok)
		return false;
	for (size_t i = 0; i < nf; i++) {
		const struct clawmd_hook_file *f = &s->hook.files[i];
		if (napi_create_object(env, &x) != napi_ok || !set_str(env, x, "path", f->path) ||
		    !set_bool(env, x, "available", f->available) ||
		    (f->available &&
		     (!set_num(env, x, "chars", (double)f->chars) ||
		      !set_bool(env, x, "truncated", f->truncated) ||
		      napi_create_string_utf8(env, f->text ? f->text : "", f->len, &v) != napi_ok ||
		      !set_val(env, x, "text", v))) ||
		    !set_elem(env, arr, i, x))
			return false;
	}
	return set_val(env, h, "files", arr) && set_val(env, ret, "sessionStart", h);
}

/* What render --group prints, as JS: the string (text), the files with
 * the hook's after them (files), or render --json's object (json). */
static napi_value memory_js(napi_env env, const struct clawmd_memory *m,
			    const struct clawmd_render_setup *s, const char *format)
{
	napi_value ret, arr, x;
	if (!strcmp(format, "text")) {
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		clawmd_memory_text(&t, m, &s->memory);
		napi_status st = napi_create_string_utf8(env, t.ptr ? t.ptr : "", t.len, &ret);
		clawmd_buf_release(&t);
		return st == napi_ok ? ret : NULL;
	}
	if (!(arr = memory_files_js(env, m, !strcmp(format, "json"))))
		return NULL;
	if (!strcmp(format, "files")) {
		/* what nanoclaw's SessionStart hook adds, after the startup
		 * memory, its parent the hook's script (the Hook rows) */
		size_t k = m->nfiles;
		for (size_t i = 0; i < sizeof(s->hook.files) / sizeof(s->hook.files[0]); i++)
			if (s->hook.files[i].available &&
			    (napi_create_object(env, &x) != napi_ok ||
			     !set_str(env, x, "type", "Hook") ||
			     !set_str(env, x, "path", s->hook.files[i].path) ||
			     !set_str(env, x, "parent", CLAWMD_HOOK_SCRIPT) ||
			     !set_elem(env, arr, k++, x)))
				return NULL;
		return arr;
	}
	if (napi_create_object(env, &ret) != napi_ok || !set_str(env, ret, "cwd", m->cwd) ||
	    !set_val(env, ret, "files", arr) ||
	    napi_create_array_with_length(env, m->nimports, &arr) != napi_ok)
		return NULL;
	for (size_t i = 0; i < m->nimports; i++) {
		const struct clawmd_mem_import *im = &m->imports[i];
		if (napi_create_object(env, &x) != napi_ok || !set_str(env, x, "from", im->from) ||
		    !set_str(env, x, "import", im->raw) || !set_str(env, x, "path", im->path) ||
		    !set_str(env, x, "status", clawmd_import_status_name(im->status)) ||
		    !set_elem(env, arr, i, x))
			return NULL;
	}
	if (!set_val(env, ret, "imports", arr) ||
	    !set_val(env, ret, "externalIncludes", strv_js(env, m->external, m->nexternal)) ||
	    !agents_js(env, ret, m) || (m->failed && !set_str(env, ret, "failed", m->failed)) ||
	    (s->nanoclaw && !nanoclaw_js(env, ret, s)))
		return NULL;
	return ret;
}

/* An unknown runtime named: every built-in one listed, from the contract
 * table (so a runtime added there is never missing here), and the nearest
 * suggested. */
static void throw_runtime(napi_env env, const char *name)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	const char *near = clawmd_runtime_suggest(name);
	clawmd_buf_printf(&b, "runtime: unknown runtime '%s'", name);
	if (near)
		clawmd_buf_printf(&b, "; did you mean '%s'?", near);
	for (int i = 0; i < CLAWMD_RUNTIME_N; i++)
		clawmd_buf_printf(&b, "%s%s", !i ? " (" : i + 1 < CLAWMD_RUNTIME_N ? ", " : " or ",
				  clawmd_runtime_name((enum clawmd_runtime)i));
	clawmd_buf_puts(&b, ")");
	throw_err(env, CLAWMD_EUSAGE, b.ptr, 0, NULL, "runtime");
	clawmd_buf_release(&b);
}

/* handle.render(group, {format, approveExternal, home, runtime}): what the
 * agent of GROUP loads, in its container's view, set up as render --group
 * sets it up (clawmd_render_setup: the runtime by the group's provider's
 * contract, clawmd.json's settings, a nanoclaw host's pin, sources and
 * hook), by the rules of `runtime` when given. */
napi_value m_render(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value argv[2] = {NULL, NULL}, opts, ret = NULL;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "render");
	char *group = NULL, *format = NULL, *home = NULL, *runtime = NULL;
	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
	struct clawmd_render_setup s;
	struct clawmd_group *g = NULL;
	struct clawmd_memory m;
	memset(&s, 0, sizeof(s));
	clawmd_memory_init(&m);
	if (!h || !(group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) ||
	    !get_options(env, argv[1], "options", &opts) ||
	    !get_bool_opt(env, opts, "approveExternal", &ro.memory.approve_external) ||
	    !get_string_opt(env, opts, "format", &format) || !get_string_opt(env, opts, "home", &home) ||
	    !get_string_opt(env, opts, "runtime", &runtime))
		goto out;
	if (runtime && clawmd_runtime_parse(&ro.memory.runtime, runtime) < 0) {
		throw_runtime(env, runtime);
		goto out;
	}
	if (format && strcmp(format, "text") && strcmp(format, "files") && strcmp(format, "json")) {
		throw_usage(env, "format", "format: unknown format '%s' (text, files or json)", format);
		goto out;
	}
	/* The container's user tier is what a mount shows at its home. */
	if (home && home[0] != '/') {
		throw_usage(env, "home", "home: a container path, absolute, not '%s'", home);
		goto out;
	}
	if (!handle_recheck(env, h))
		goto out;
	ro.runtime_set = runtime != NULL;
	ro.memory.home = home;
	ro.memory.list_external = format && !strcmp(format, "json");
	struct clawmd_err err = CLAWMD_ERR_INIT;
	pthread_mutex_lock(&h->mu);
	int rc = clawmd_group_open(&g, &h->root, group, &err);
	if (rc == 0)
		rc = group_exists(g, &err);
	if (rc == 0)
		rc = clawmd_render_setup(&s, g, &ro, &err);
	if (rc == 0)
		rc = clawmd_memory_load(&m, &s.memory, &err);
	pthread_mutex_unlock(&h->mu);
	if (rc < 0)
		throw_err(env, rc, err.msg, err.sys_errno, g ? clawmd_group_path(g) : NULL, NULL);
	else if (!(ret = memory_js(env, &m, &s, format ? format : "text")))
		give_up(env, "render");
out:
	clawmd_memory_release(&m);
	clawmd_render_setup_release(&s);
	clawmd_group_free(g);
	handle_leave(h);
	free(group);
	free(format);
	free(home);
	free(runtime);
	return ret;
}

/* handle.mounts(group) -> what a container runner mounts for it
 * (clawmd_group_binds): [{what, host, container, readonly, type, sub,
 * present, shortForm}], in the order a runner applies them. */
napi_value m_mounts(napi_env env, napi_callback_info info)
{
	size_t argc = 1, n = 0;
	napi_value argv[1] = {NULL}, ret = NULL, x;
	struct handle *h = handle_enter(env, info, &argc, argv, NULL, "mounts");
	char *group = NULL;
	struct clawmd_group *g = NULL;
	struct clawmd_bind *v = NULL;
	if (!h || !(group = get_string(env, argv[0], "group", CLAWMD_EINPUT, NULL)) ||
	    !handle_recheck(env, h))
		goto out;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	pthread_mutex_lock(&h->mu);
	int rc = clawmd_group_open(&g, &h->root, group, &err);
	if (rc == 0)
		rc = group_exists(g, &err);
	if (rc == 0)
		rc = clawmd_group_binds(&v, &n, g, &err);
	pthread_mutex_unlock(&h->mu);
	if (rc < 0) {
		throw_err(env, rc, err.msg, err.sys_errno, g ? clawmd_group_path(g) : NULL, NULL);
		goto out;
	}
	if (napi_create_array_with_length(env, n, &ret) != napi_ok)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (napi_create_object(env, &x) != napi_ok ||
		    !set_str(env, x, "what", clawmd_bind_what_name(v[i].what)) ||
		    !set_str(env, x, "host", v[i].host) ||
		    !set_str(env, x, "container", v[i].container) ||
		    !set_bool(env, x, "readonly", v[i].readonly) ||
		    !set_str(env, x, "type", v[i].dir ? "directory" : "file") ||
		    !set_str(env, x, "sub", v[i].sub) ||
		    !set_bool(env, x, "present", v[i].present) ||
		    !set_bool(env, x, "shortForm", v[i].short_form) ||
		    !set_elem(env, ret, i, x))
			goto fail;
	goto out;
fail:
	ret = give_up(env, "mounts");
out:
	clawmd_binds_free(v, n);
	clawmd_group_free(g);
	handle_leave(h);
	free(group);
	return ret;
}
